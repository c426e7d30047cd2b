/* Unit tests of lib/cgroup.c's readers of the kernel's text:
 * /proc/self/cgroup, /proc/self/mountinfo, cgroup.controllers, cpu.stat,
 * io.stat and blkio's io_service_bytes, as this machine's kernel and
 * others write them. */
#include <stdio.h>
#include <string.h>

#include "cgroup.h"
#include "tap.h"

static const char self[] =
	"9:name=systemd:/\n8:pids:/\n7:blkio:/b\n4:memory:/process_api/5386\n"
	"2:cpu,cpuacct:/c/d\n0::/user.slice/s.scope\n";
static const char mounts[] =
	"30 22 0:27 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n"
	"31 30 0:28 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct\n"
	"34 30 0:31 /process_api /sys/fs/cgroup/mem\\040ory rw,relatime - cgroup cgroup rw,memory\n"
	"39 30 0:36 / /sys/fs/cgroup/systemd rw - cgroup cgroup rw,name=systemd\n"
	"40 30 0:37 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate\n";

static void path_is(const char *ctrl, int want_r, const char *want)
{
	char got[64] = "";
	int r = cgroup_self_path(self, ctrl, got, sizeof got);

	if (!ok(r == want_r && (r < 0 || strcmp(got, want) == 0), "/proc/self/cgroup: %s",
	        ctrl ? ctrl : "v2"))
		fprintf(stderr, "# got %d '%s', want %d '%s'\n", r, got, want_r, want);
}

static void mount_is(const char *text, const char *ctrl, int want_r, const char *mnt,
                     const char *root)
{
	char m[64] = "", r[64] = "";
	int got = cgroup_mount(text, ctrl, m, sizeof m, r, sizeof r);

	if (!ok(got == want_r && (got < 0 || (strcmp(m, mnt) == 0 && strcmp(r, root) == 0)),
	        "mountinfo: %s", ctrl ? ctrl : "cgroup2"))
		fprintf(stderr, "# got %d '%s' '%s', want %d '%s' '%s'\n", got, m, r, want_r, mnt,
		        root);
}

static void io_is(const char *text, int v2, int want_r, long long rd, long long wr,
                  const char *name)
{
	int64_t r = -1, w = -1;
	int got = cgroup_io_bytes(text, v2, &r, &w);

	if (!ok(got == want_r && (got < 0 || (r == rd && w == wr)), "%s", name))
		fprintf(stderr, "# got %d %lld %lld\n", got, (long long)r, (long long)w);
}

int main(void)
{
	char small[8];
	int64_t v = -1;

	path_is("memory", 0, "/process_api/5386");
	path_is("cpuacct", 0, "/c/d");
	path_is("cpu", 0, "/c/d");
	path_is(NULL, 0, "/user.slice/s.scope");
	path_is("io", -1, "");
	path_is("name=systemd", 0, "/");
	ok(cgroup_self_path("4:memory:/a\n", NULL, small, sizeof small) < 0, "no v2 line");
	ok(cgroup_self_path("0::/a-long-path-here\n", NULL, small, sizeof small) < 0,
	   "a path longer than the buffer");
	ok(cgroup_self_path("0::relative\n4:memory\n", NULL, small, sizeof small) < 0,
	   "a path that is not absolute, a line with one colon");
	mount_is(mounts, "memory", 0, "/sys/fs/cgroup/mem ory", "/process_api");
	mount_is(mounts, "cpuacct", 0, "/sys/fs/cgroup/cpu,cpuacct", "/");
	mount_is(mounts, NULL, 0, "/sys/fs/cgroup/unified", "/");
	mount_is(mounts, "blkio", -1, "", "");
	mount_is(mounts, "cpuac", -1, "", "");
	mount_is("1 2 0:1 / /x rw - cgroup2\n", NULL, 0, "/x", "/");
	mount_is("1 2 0:1 / /x rw -\n1 2 0:1 /\n\n", NULL, -1, "", "");
	ok(cgroup_has_word("cpuset cpu io memory hugetlb pids\n", "memory"), "controllers: memory");
	ok(!cgroup_has_word("cpuset cpu io hugetlb\n", "memory") && !cgroup_has_word("", "io") &&
	   !cgroup_has_word("iox\n", "io"), "controllers: no memory, none, a longer word");
	ok(cgroup_key_value("usage_usec 123456\nuser_usec 100\nsystem_usec 23456\n", "usage_usec",
	                    &v) == 0 && v == 123456, "cpu.stat usage_usec");
	ok(cgroup_key_value("user_usec 100\n", "usage_usec", &v) < 0 &&
	   cgroup_key_value("usage_usec x\n", "usage_usec", &v) < 0 &&
	   cgroup_key_value("usage_usec 99999999999999999999\n", "usage_usec", &v) < 0,
	   "cpu.stat: no key, not a number, beyond 2^63");
	io_is("8:0 rbytes=4096 wbytes=1048576 rios=1 wios=256 dbytes=0 dios=0\n"
	      "8:16 rbytes=10 wbytes=20 rios=1 wios=1 dbytes=0 dios=0\n", 1, 0, 4106, 1048596,
	      "io.stat: two devices");
	io_is("", 1, 0, 0, 0, "io.stat: empty");
	io_is("8:0 rbytes=x\n", 1, -1, 0, 0, "io.stat: not a number");
	io_is("8:0 Read 4096\n8:0 Write 1048576\n8:0 Sync 1048576\n8:0 Async 4096\n"
	      "8:0 Discard 0\n8:0 Total 1052672\n253:1 Read 1\n253:1 Write 2\nTotal 1052675\n",
	      0, 0, 4097, 1048578, "blkio: two devices, Total skipped");
	io_is("Total 0\n", 0, 0, 0, 0, "blkio: nothing done");
	io_is("8:0 Read\n", 0, -1, 0, 0, "blkio: a line without a number");
	return done_testing();
}
