/* files: names in a directory and what stands there. A study's files
 * are read only when they are regular files: a FIFO or a device named
 * raw.tsv would block a reader or feed it without end. */
#ifndef PB_FILES_H
#define PB_FILES_H

#include <stdio.h>

/* fds 0, 1 and 2 that are closed get /dev/null, so that no file or pipe
 * opened later lands on them (a worker's pipe as stdin, a stream as
 * stderr); 1 when stdout was closed, which the caller refuses: what it
 * writes there would be lost, or go to what fd 1 was opened as next. */
int std_fds_fill(void);
/* "DIR/name" in memory of its own. */
char *path_in(const char *dir, const char *name);
/* 1 when path is a regular file we may read (a link to one counts). */
int is_regular_file(const char *path);
struct stream;
/* The stream dir/name opened to its header (lib/stream), *path its name
 * (the caller frees it after stream_close); 0 and *path NULL when it is
 * not a regular file there. */
int open_in_dir(struct stream *s, const char *dir, const char *name, char **path);
/* A private directory made under $TMPDIR (or /tmp) with mkdtemp, named
 * prefix.XXXXXX; exits on failure. Its files cannot be planted by
 * another user, whatever TMPDIR holds. */
char *private_dir(const char *prefix);
/* A link dir/name to the file at path (made absolute), so that a tool
 * run in dir reads it by name; 0, or -1 with errno set. */
int link_as(const char *dir, const char *name, const char *path);
/* A link in to for every regular file of from (links to them count). */
void link_regular_files(const char *from, const char *to);
/* Remove dir and the files in it (not below it); quiet. */
void private_dir_remove(const char *dir);

/* path for writing ("-": stdout); exits on failure. */
FILE *open_out(const char *path);
/* Close it (stdout is flushed); a write error exits. */
void close_out(FILE *f, const char *path);
/* fn(f, ctx) into the file dir/name. */
void write_in(const char *dir, const char *name, void (*fn)(FILE *, const void *),
              const void *ctx);

#endif
