#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "err.h"

#ifndef PATH_MAX
#define PATH_MAX 4096
#endif

/* --- the kernel's text ------------------------------------------------ */

/* The line of text starting at p, as [p, end). */
static const char *line_end(const char *p)
{
	const char *e = strchr(p, '\n');

	return e ? e : p + strlen(p);
}

static int copy_span(char *dst, size_t n, const char *p, size_t len)
{
	if (len >= n)
		return -1;
	memcpy(dst, p, len);
	dst[len] = '\0';
	return 0;
}

/* Whether the comma-separated list [p, p + len) has word. */
static int in_comma_list(const char *p, size_t len, const char *word)
{
	size_t w = strlen(word), k;

	while (len > 0) {
		for (k = 0; k < len && p[k] != ','; k++)
			;
		if (k == w && memcmp(p, word, w) == 0)
			return 1;
		p += k < len ? k + 1 : k;
		len -= k < len ? k + 1 : k;
	}
	return 0;
}

int cgroup_self_path(const char *text, const char *ctrl, char *path, size_t n)
{
	const char *p, *e, *c1, *c2;

	for (p = text; *p; p = *e ? e + 1 : e) {
		e = line_end(p);
		if (!(c1 = memchr(p, ':', (size_t)(e - p))) ||
		    !(c2 = memchr(c1 + 1, ':', (size_t)(e - c1 - 1))))
			continue;
		if (ctrl ? in_comma_list(c1 + 1, (size_t)(c2 - c1 - 1), ctrl)
		         : c2 == c1 + 1 && c1 - p == 1 && *p == '0')
			return e - c2 - 1 > 0 && c2[1] == '/' ? copy_span(path, n, c2 + 1,
			                                                (size_t)(e - c2 - 1)) : -1;
	}
	return -1;
}

/* Field i (0-based, blank-separated) of [p, e): its start and length. */
static int field(const char *p, const char *e, int i, const char **f, size_t *len)
{
	for (;;) {
		while (p < e && *p == ' ')
			p++;
		if (p == e)
			return -1;
		*f = p;
		while (p < e && *p != ' ')
			p++;
		*len = (size_t)(p - *f);
		if (i-- == 0)
			return 0;
	}
}

/* mountinfo's escapes (\040 a blank, \011, \012, \134) undone. */
static int unescape(char *dst, size_t n, const char *p, size_t len)
{
	size_t i, o = 0;

	for (i = 0; i < len; i++) {
		char ch = p[i];

		if (ch == '\\' && i + 3 < len && p[i + 1] >= '0' && p[i + 1] <= '3' &&
		    p[i + 2] >= '0' && p[i + 2] <= '7' && p[i + 3] >= '0' && p[i + 3] <= '7') {
			ch = (char)((p[i + 1] - '0') * 64 + (p[i + 2] - '0') * 8 + (p[i + 3] - '0'));
			i += 3;
		}
		if (o + 1 >= n)
			return -1;
		dst[o++] = ch;
	}
	dst[o] = '\0';
	return 0;
}

/* The fields after mountinfo's " - " separator: fstype, source, options. */
static const char *after_dash(const char *p, const char *e)
{
	const char *f;
	size_t len;
	int i;

	for (i = 6; field(p, e, i, &f, &len) == 0; i++)
		if (len == 1 && *f == '-')
			return f + 1;
	return NULL;
}

int cgroup_mount(const char *text, const char *ctrl, char *mnt, size_t mn, char *root, size_t rn)
{
	const char *p, *e, *d, *fs, *opt, *r, *m;
	size_t fl, ol, rl, ml;

	for (p = text; *p; p = *e ? e + 1 : e) {
		e = line_end(p);
		if (!(d = after_dash(p, e)) || field(d, e, 0, &fs, &fl) < 0 ||
		    field(p, e, 3, &r, &rl) < 0 || field(p, e, 4, &m, &ml) < 0)
			continue;
		if (ctrl ? !(fl == 6 && memcmp(fs, "cgroup", 6) == 0) ||
		           field(d, e, 2, &opt, &ol) < 0 || !in_comma_list(opt, ol, ctrl)
		         : !(fl == 7 && memcmp(fs, "cgroup2", 7) == 0))
			continue;
		return unescape(mnt, mn, m, ml) < 0 || unescape(root, rn, r, rl) < 0 ? -1 : 0;
	}
	return -1;
}

int cgroup_has_word(const char *list, const char *word)
{
	size_t w = strlen(word), k;
	const char *p = list;

	for (;;) {
		p += strspn(p, " \t\n");
		if (!*p)
			return 0;
		k = strcspn(p, " \t\n");
		if (k == w && memcmp(p, word, w) == 0)
			return 1;
		p += k;
	}
}

/* A whole number >= 0 at [p, e) (the kernel's u64, up to INT64_MAX). */
static int whole(const char *p, const char *e, int64_t *v)
{
	int64_t x = 0;

	if (p == e)
		return -1;
	for (; p < e; p++) {
		if (*p < '0' || *p > '9' || x > (INT64_MAX - (*p - '0')) / 10)
			return -1;
		x = x * 10 + (*p - '0');
	}
	*v = x;
	return 0;
}

int cgroup_key_value(const char *text, const char *key, int64_t *v)
{
	size_t k = strlen(key);
	const char *p, *e;

	for (p = text; *p; p = *e ? e + 1 : e) {
		e = line_end(p);
		if ((size_t)(e - p) > k && memcmp(p, key, k) == 0 && p[k] == ' ')
			return whole(p + k + 1, e, v);
	}
	return -1;
}

/* a += b, held at INT64_MAX. */
static void add_held(int64_t *a, int64_t b)
{
	*a = *a > INT64_MAX - b ? INT64_MAX : *a + b;
}

/* One line of v2's io.stat: its rbytes= and wbytes= added. */
static int io_v2_line(const char *p, const char *e, int64_t *rd, int64_t *wr)
{
	const char *f, *eq;
	size_t len;
	int64_t v;
	int i;

	for (i = 1; field(p, e, i, &f, &len) == 0; i++) {
		if (!(eq = memchr(f, '=', len)) || whole(eq + 1, f + len, &v) < 0)
			return -1;
		if (eq - f == 6 && memcmp(f, "rbytes", 6) == 0)
			add_held(rd, v);
		else if (eq - f == 6 && memcmp(f, "wbytes", 6) == 0)
			add_held(wr, v);
	}
	return 0;
}

/* One line of v1's blkio ...io_service_bytes: "MAJ:MIN Op N"; "Total N". */
static int io_v1_line(const char *p, const char *e, int64_t *rd, int64_t *wr)
{
	const char *f, *op, *num;
	size_t len, ol, nl;
	int64_t v;

	if (field(p, e, 0, &f, &len) < 0)
		return -1;
	if (len == 5 && memcmp(f, "Total", 5) == 0)
		return 0;
	if (field(p, e, 1, &op, &ol) < 0 || field(p, e, 2, &num, &nl) < 0 ||
	    whole(num, num + nl, &v) < 0)
		return -1;
	if (ol == 4 && memcmp(op, "Read", 4) == 0)
		add_held(rd, v);
	else if (ol == 5 && memcmp(op, "Write", 5) == 0)
		add_held(wr, v);
	return 0;
}

int cgroup_io_bytes(const char *text, int v2, int64_t *rd, int64_t *wr)
{
	const char *p, *e;

	*rd = *wr = 0;
	for (p = text; *p; p = *e ? e + 1 : e) {
		e = line_end(p);
		if (e == p)
			continue;
		if ((v2 ? io_v2_line : io_v1_line)(p, e, rd, wr) < 0)
			return -1;
	}
	return 0;
}

/* --- the observation's cgroups ---------------------------------------- */

/* Where each quantity is read: a hierarchy's directory under pb-run's
 * own cgroup, and the observation's cgroup in it while one is made. */
struct place {
	char base[PATH_MAX], cur[PATH_MAX + 64];
	int v2, fd;
};

static const char *const what[CG_N] = { "memory", "cpu", "io" };
static const char *const v1_ctrl[CG_N] = { "memory", "cpuacct", "blkio" };
static const char *const v1_file[CG_N] = {
	"memory.max_usage_in_bytes", "cpuacct.usage", "blkio.throttle.io_service_bytes_recursive",
};
/* v2: cpu.stat's usage_usec is in every cgroup, the cpu controller or not */
static const char *const v2_ctrl[CG_N] = { "memory", NULL, "io" };
static const char *const v2_file[CG_N] = { "memory.peak", "cpu.stat", "io.stat" };

static struct place places[CG_N];
static int nplaces, at[CG_N];
static unsigned long made;

/* The whole of a small file of the kernel's, or NULL (errno set). */
static char *slurp(const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL;
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	for (;;) {
		xgrow(&buf, &cap, len + 4097, 1);
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* The directory of pb-run's own cgroup in the hierarchy of ctrl (NULL:
 * v2), from the mount that shows it. */
static int own_dir(const char *self, const char *mounts, const char *ctrl, char *dir, size_t n)
{
	char mnt[PATH_MAX], root[PATH_MAX], path[PATH_MAX];
	const char *rest = path;
	size_t rl;

	if (cgroup_mount(mounts, ctrl, mnt, sizeof mnt, root, sizeof root) < 0 ||
	    cgroup_self_path(self, ctrl, path, sizeof path) < 0)
		return -1;
	rl = strlen(root);
	if (strcmp(root, "/") != 0) {
		if (strncmp(path, root, rl) != 0 || (path[rl] && path[rl] != '/'))
			return -1;   /* our cgroup is not under what is mounted */
		rest = path + rl;
	}
	if (strcmp(rest, "/") == 0)
		rest = "";
	return snprintf(dir, n, "%s%s", mnt, rest) < (int)n ? 0 : -1;
}

/* A trial cgroup in dir with file in it, made and removed: 0, or -1
 * with why. */
static int try_dir(const char *dir, const char *file, char *why, size_t n)
{
	char trial[PATH_MAX], f[PATH_MAX + 64];
	int e;

	snprintf(trial, sizeof trial, "%s/pb-run.%ld.probe", dir, (long)getpid());
	if (mkdir(trial, 0755) < 0) {
		snprintf(why, n, "cannot make a cgroup in %s: %s", dir, strerror(errno));
		return -1;
	}
	snprintf(f, sizeof f, "%s/%s", trial, file);
	e = access(f, R_OK) == 0 ? 0 : errno;
	rmdir(trial);
	if (e)
		snprintf(why, n, "%s has no %s", dir, file);
	return e ? -1 : 0;
}

/* The place of dir, added when it is new. */
static int place_of(const char *dir, int v2)
{
	int i;

	for (i = 0; i < nplaces; i++)
		if (strcmp(places[i].base, dir) == 0)
			return i;
	snprintf(places[nplaces].base, sizeof places[nplaces].base, "%s", dir);
	places[nplaces].v2 = v2;
	places[nplaces].fd = -1;
	return nplaces++;
}

/* v2 where the unified hierarchy gives pb-run's cgroup's children the
 * quantity's controller, else v1; -1 with why, both said. */
static int find_one(int q, const char *self, const char *mounts, char *why, size_t n)
{
	char dir[PATH_MAX], f[PATH_MAX + 32], v2why[PATH_MAX + 160], v1why[PATH_MAX + 160];
	char *ctl = NULL;
	int has2;

	snprintf(v2why, sizeof v2why, "no cgroup2 mount");
	if (own_dir(self, mounts, NULL, dir, sizeof dir) == 0) {
		snprintf(f, sizeof f, "%s/cgroup.subtree_control", dir);
		if (v2_ctrl[q])
			ctl = slurp(f);
		has2 = !v2_ctrl[q] || (ctl && cgroup_has_word(ctl, v2_ctrl[q]));
		free(ctl);
		if (!has2)
			snprintf(v2why, sizeof v2why, "no %s controller in %s", v2_ctrl[q], f);
		else if (try_dir(dir, v2_file[q], v2why, sizeof v2why) == 0)
			return at[q] = place_of(dir, 1), 0;
	}
	snprintf(v1why, sizeof v1why, "no %s hierarchy mounted", v1_ctrl[q]);
	if (own_dir(self, mounts, v1_ctrl[q], dir, sizeof dir) == 0 &&
	    try_dir(dir, v1_file[q], v1why, sizeof v1why) == 0)
		return at[q] = place_of(dir, 0), 0;
	snprintf(why, n, "--resources tree: no writable cgroup for %s: cgroup v2: %s; "
	         "cgroup v1: %s", what[q], v2why, v1why);
	return -1;
}

int cgroup_tree_init(char *why, size_t n)
{
#ifdef __linux__
	char *self = slurp("/proc/self/cgroup"), *mounts = slurp("/proc/self/mountinfo");
	int q, r = 0;

	if (!self || !mounts) {
		snprintf(why, n, "--resources tree: cannot read /proc/self/%s: %s",
		         self ? "mountinfo" : "cgroup", strerror(errno));
		r = -1;
	}
	for (q = 0; r == 0 && q < CG_N; q++)
		r = find_one(q, self, mounts, why, n);
	free(self);
	free(mounts);
	if (r < 0 && geteuid() != 0)
		snprintf(why + strlen(why), n - strlen(why), " (root, or a cgroup delegated to "
		         "this user, is needed)");
	return r;
#else
	snprintf(why, n, "--resources tree needs Linux's cgroups");
	return -1;
#endif
}

void cgroup_tree_describe(char *buf, size_t n)
{
	size_t len = 0;
	int q;

	buf[0] = '\0';
	for (q = 0; q < CG_N && len < n; q++) {
		const struct place *p = &places[at[q]];

		len += (size_t)snprintf(buf + len, n - len, "%s%s: cgroup %s %s%s in %s", q ? "; " : "",
		                        what[q], p->v2 ? "v2" : "v1", p->v2 ? v2_file[q] : v1_file[q],
		                        p->v2 && q == CG_CPU ? " usage_usec" : "", p->base);
	}
}

/* v1's blkio counts a device's bytes only where a throttle limit is set
 * on it (the kernels since 5.x): a limit of 10^15 bytes/s, none in
 * effect, on each device of /sys/block, in the observation's cgroup. */
static void v1_io_counted(const char *dir)
{
	static const char *const file[] = { "blkio.throttle.read_bps_device",
	                                    "blkio.throttle.write_bps_device" };
	char f[PATH_MAX + 128], line[64], *dev;
	struct dirent *e;
	DIR *d = opendir("/sys/block");
	size_t i;
	int fd;

	while (d && (e = readdir(d))) {
		snprintf(f, sizeof f, "/sys/block/%.200s/dev", e->d_name);
		if (e->d_name[0] == '.' || !(dev = slurp(f)))
			continue;
		snprintf(line, sizeof line, "%.*s 1000000000000000\n", (int)strcspn(dev, "\n"), dev);
		free(dev);
		for (i = 0; i < 2; i++) {
			snprintf(f, sizeof f, "%s/%s", dir, file[i]);
			if ((fd = open(f, O_WRONLY | O_CLOEXEC)) >= 0) {
				if (write(fd, line, strlen(line)) < 0) {
					/* a device without the throttle: not counted */
				}
				close(fd);
			}
		}
	}
	if (d)
		closedir(d);
}

int cgroup_tree_enter(int *fds, char *why, size_t n)
{
	char f[PATH_MAX + 128];
	int i;

	made++;
	for (i = 0; i < nplaces; i++) {
		struct place *p = &places[i];

		char d[sizeof p->cur]; /* not p->cur itself: gcc -O1 -Wrestrict sees p->base overlap it */

		snprintf(d, sizeof d, "%.4000s/pb-run.%ld.%lu", p->base, (long)getpid(), made);
		memcpy(p->cur, d, sizeof d);
		if (mkdir(p->cur, 0755) < 0) {
			snprintf(why, n, "cannot make the cgroup %s: %s", p->cur, strerror(errno));
			p->cur[0] = '\0';
			return -1;
		}
		if (at[CG_IO] == i && !p->v2)
			v1_io_counted(p->cur);
		snprintf(f, sizeof f, "%s/cgroup.procs", p->cur);
		if ((p->fd = open(f, O_WRONLY | O_CLOEXEC)) < 0) {
			snprintf(why, n, "cannot open %s: %s", f, strerror(errno));
			return -1;
		}
		fds[i] = p->fd;
	}
	return nplaces;
}

/* The quantity q's file of the observation's cgroup, read; NULL on error. */
static char *read_q(int q)
{
	const struct place *p = &places[at[q]];
	char f[PATH_MAX + 128];

	snprintf(f, sizeof f, "%s/%s", p->cur, p->v2 ? v2_file[q] : v1_file[q]);
	return slurp(f);
}

/* A file that holds one whole number (and a newline). */
static int one_number(const char *t, int64_t *v)
{
	size_t len = strcspn(t, "\n");

	return t[len + (t[len] == '\n')] ? -1 : whole(t, t + len, v);
}

void cgroup_tree_read(struct cgroup_use *u)
{
	int v2 = places[at[CG_CPU]].v2;
	char *t;
	int64_t v;

	memset(u, 0, sizeof *u);
	if ((t = read_q(CG_MEMORY)) && one_number(t, &v) == 0)
		u->maxrss_kib = v / 1024 + (v % 1024 != 0);
	free(t);
	if ((t = read_q(CG_CPU)) && (v2 ? cgroup_key_value(t, "usage_usec", &v)
	                                : one_number(t, &v)) == 0)
		u->cpu_ns = !v2 ? v : v > INT64_MAX / 1000 ? INT64_MAX : v * 1000;
	free(t);
	if ((t = read_q(CG_IO)))
		cgroup_io_bytes(t, places[at[CG_IO]].v2, &u->read_bytes, &u->write_bytes);
	free(t);
}

/* SIGKILL each process of the cgroup dir (cgroup.kill where v2 has it). */
static void kill_members(const char *dir, int v2)
{
	char f[PATH_MAX + 128], *t, *p, *e;
	int fd;

	snprintf(f, sizeof f, "%s/cgroup.kill", dir);
	if (v2 && (fd = open(f, O_WRONLY | O_CLOEXEC)) >= 0) {
		if (write(fd, "1", 1) == 1) {
			close(fd);
			return;
		}
		close(fd);
	}
	snprintf(f, sizeof f, "%s/cgroup.procs", dir);
	if (!(t = slurp(f)))
		return;
	for (p = t; *p; p = e) {
		long pid = strtol(p, &e, 10);

		if (e == p)
			break;
		if (pid > 0)
			kill((pid_t)pid, SIGKILL);
	}
	free(t);
}

/* Appends "/NAME" of path's first subdirectory to path: 1, or 0 when it
 * has none (or the longer path would not fit). */
static int first_subdir(char *path, size_t n)
{
	size_t len = strlen(path);
	struct dirent *e;
	struct stat st;
	DIR *d = opendir(path);
	int found = 0;

	if (!d)
		return 0;
	while (!found && (e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") ||
		    len + 1 + strlen(e->d_name) >= n)
			continue;
		snprintf(path + len, n - len, "/%s", e->d_name);
		found = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
		if (!found)
			path[len] = '\0';
	}
	closedir(d);
	return found;
}

/* Removes the cgroups a command made inside dir, leaves first, killing
 * what each holds: the observation's cgroup cannot go while they are
 * there. Stops at one still busy (its process not dead yet) or after
 * 10000 removals; the caller tries again. */
static void remove_children(const char *dir, int v2)
{
	char path[PATH_MAX + 128];
	int ops;

	for (ops = 0; ops < 10000; ops++) {
		snprintf(path, sizeof path, "%s", dir);
		while (first_subdir(path, sizeof path))
			;
		if (!strcmp(path, dir))
			return;
		kill_members(path, v2);
		if (rmdir(path) < 0 && errno != ENOENT)
			return;
	}
}

/* Empties and removes the cgroup p->cur: 0, or -1 when it still holds a
 * process after about 10 s (one in uninterruptible sleep). */
static int remove_place(struct place *p)
{
	struct timespec ms = { 0, 1000000 };
	int i;

	if (p->fd >= 0)
		close(p->fd);
	p->fd = -1;
	if (!p->cur[0])
		return 0;
	for (i = 0; i < 10000; i++) {
		if (rmdir(p->cur) == 0 || errno == ENOENT) {
			p->cur[0] = '\0';
			return 0;
		}
		if (errno != EBUSY)
			return -1;
		kill_members(p->cur, p->v2);
		remove_children(p->cur, p->v2);
		nanosleep(&ms, NULL);
	}
	return -1;
}

int cgroup_tree_leave(char *why, size_t n)
{
	int i, r = 0;

	for (i = 0; i < nplaces; i++)
		if (remove_place(&places[i]) < 0 && r == 0) {
			snprintf(why, n, "cannot remove the cgroup %s: %s", places[i].cur,
			         strerror(errno));
			r = -1;
		}
	return r;
}

void cgroup_tree_cleanup(void)
{
	int i;

	for (i = 0; i < nplaces; i++)
		remove_place(&places[i]);
}
