/* cgroup: pb-run --resources tree. Each observation runs in cgroups of
 * its own, made fresh for it under pb-run's own cgroup (the path
 * /proc/self/cgroup gives, never at a hierarchy's root), so that the
 * kernel counts the whole tree of processes the command starts: peak
 * memory, CPU time, bytes read and written. Each quantity is read where
 * its controller is: cgroup v2 where the unified hierarchy has it for
 * pb-run's cgroup's children (cpu.stat's usage_usec is in every v2
 * cgroup), else cgroup v1. No process is started here: the fds of
 * cgroup.procs go to lib/proc, whose child joins them before its exec. */
#ifndef PB_CGROUP_H
#define PB_CGROUP_H

#include <stddef.h>
#include <stdint.h>

enum { CG_MEMORY, CG_CPU, CG_IO, CG_N };

/* What the observation's cgroups counted; all 0 when it did not start. */
struct cgroup_use {
	int64_t maxrss_kib, cpu_ns, read_bytes, write_bytes;
};

/* The kernel's text, parsed (t/unit/cgroup.c). */
/* From /proc/self/cgroup: the path of the v1 hierarchy whose controller
 * list has ctrl, or of the v2 line ("0::") when ctrl is NULL. 0, or -1. */
int cgroup_self_path(const char *text, const char *ctrl, char *path, size_t n);
/* From /proc/self/mountinfo: the first mount of a cgroup v1 hierarchy
 * with controller ctrl (in its super options), or of cgroup2 when ctrl is
 * NULL: its mount point (octal escapes undone) and the root of the
 * hierarchy it shows. 0, or -1. */
int cgroup_mount(const char *text, const char *ctrl, char *mnt, size_t mn, char *root, size_t rn);
/* Whether word is one of the blank-separated words of list
 * (cgroup.controllers, cgroup.subtree_control). */
int cgroup_has_word(const char *list, const char *word);
/* The value of "key N" in a flat keyed file (cpu.stat). 0, or -1. */
int cgroup_key_value(const char *text, const char *key, int64_t *v);
/* Bytes read and written, summed over devices: v2's io.stat
 * ("8:0 rbytes=N wbytes=N ...") or v1's blkio ...io_service_bytes
 * ("8:0 Read N", its Total lines skipped). 0, or -1 on a line that is
 * neither. */
int cgroup_io_bytes(const char *text, int v2, int64_t *rd, int64_t *wr);

/* Finds a writable place for each quantity (a trial cgroup made and
 * removed in each). 0; or -1 with why: one line naming what is missing. */
int cgroup_tree_init(char *why, size_t n);
/* "memory: cgroup v1 memory.max_usage_in_bytes in DIR, ..." */
void cgroup_tree_describe(char *buf, size_t n);
/* Fresh cgroups for one observation, and their cgroup.procs open
 * (close-on-exec) in fds (CG_N at most); returns how many, or -1 with
 * why. */
int cgroup_tree_enter(int *fds, char *why, size_t n);
/* What the observation's cgroups counted. */
void cgroup_tree_read(struct cgroup_use *u);
/* The observation is over: what is left in its cgroups (a daemon it
 * started) is killed, and the cgroups removed. 0, or -1 with why. */
int cgroup_tree_leave(char *why, size_t n);
/* At exit (atexit): as cgroup_tree_leave, for cgroups an error or an
 * interrupt left. */
void cgroup_tree_cleanup(void);

#endif
