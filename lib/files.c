/* files: paths, regular files and private temporary directories. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "err.h"
#include "files.h"
#include "stream.h"

int std_fds_fill(void)
{
	int fd, out_closed = 0;

	for (fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		if (open("/dev/null", fd == 0 ? O_RDONLY : O_WRONLY) != fd)
			_Exit(EXIT_DATA);
		out_closed |= fd == 1;
	}
	return out_closed;
}

char *path_in(const char *dir, const char *name)
{
	size_t n = strlen(dir) + strlen(name) + 2;
	char *p = xmalloc(n);

	snprintf(p, n, "%s/%s", dir, name);
	return p;
}

int is_regular_file(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

int open_in_dir(struct stream *s, const char *dir, const char *name, char **path)
{
	*path = path_in(dir, name);
	if (!is_regular_file(*path)) {
		free(*path);
		*path = NULL;
		return 0;
	}
	stream_open(s, 1, path);
	stream_header(s);
	return 1;
}

char *private_dir(const char *prefix)
{
	const char *base = getenv("TMPDIR");
	char name[64], *t;

	snprintf(name, sizeof name, "%s.XXXXXX", prefix);
	t = path_in(base && *base ? base : "/tmp", name);
	if (!mkdtemp(t))
		die("cannot make a temporary directory %s:", t);
	return t;
}

/* The process's umask, read without changing it for long. */
static mode_t current_umask(void)
{
	mode_t m = umask(022);

	umask(m);
	return m;
}

int link_as(const char *dir, const char *name, const char *path)
{
	char *abs = realpath(path, NULL), *link;
	int r;

	if (!abs)
		return -1;
	link = path_in(dir, name);
	r = symlink(abs, link);
	free(link);
	free(abs);
	return r;
}

void link_regular_files(const char *from, const char *to)
{
	DIR *d = opendir(from);
	struct dirent *e;

	if (!d)
		die("%s:", from);
	while ((e = readdir(d))) {
		char *p = path_in(from, e->d_name);

		if (e->d_name[0] != '.' && is_regular_file(p) && link_as(to, e->d_name, p) < 0)
			die("%s: cannot link it into %s:", p, to);
		free(p);
	}
	closedir(d);
}

void private_dir_remove(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		char *p;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		p = path_in(dir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(dir);
}

FILE *open_out(const char *path)
{
	FILE *f = strcmp(path, "-") == 0 ? stdout : fopen(path, "w");

	if (!f)
		die("%s:", path);
	return f;
}

void close_out(FILE *f, const char *path)
{
	if (f == stdout) {
		if (fflush(f) != 0)
			die("stdout:");
		return;
	}
	if (ferror(f) | fclose(f))
		die("%s: cannot write", path);
}

/* Through a new file beside it, renamed over the name: a link planted
 * there is replaced, never written through, and a reader sees the old
 * file or the whole new one. */
void write_in(const char *dir, const char *name, void (*fn)(FILE *, const void *),
                     const void *ctx)
{
	char *p = path_in(dir, name), *tmp = xmalloc(strlen(p) + 9);
	FILE *f;
	int fd;

	sprintf(tmp, "%s.XXXXXX", p);
	fd = mkstemp(tmp);
	if (fd < 0 || !(f = fdopen(fd, "w")))
		die("%s:", p);
	fn(f, ctx);
	if (ferror(f) | fclose(f)) {
		unlink(tmp);
		die("%s: cannot write", p);
	}
	if (chmod(tmp, 0666 & ~current_umask()) < 0 || rename(tmp, p) < 0) {
		int e = errno;

		unlink(tmp);
		errno = e;
		die("%s:", p);
	}
	free(tmp);
	free(p);
}
