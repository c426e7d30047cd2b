/* Unit tests of lib/stream.c on small files written to a temporary
 * directory. Errors exit the process, so they are tested by the shell
 * tests (t/0100-stream.t), not here. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "err.h"
#include "stream.h"
#include "tap.h"

static char dir[200];
static char paths[8][256];
static int npaths;

static char *write_file(const char *name, const char *text, size_t len)
{
	char *p = paths[npaths++];
	FILE *f;

	snprintf(p, sizeof paths[0], "%s/%s", dir, name);
	f = fopen(p, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f) != 0) {
		perror(p);
		exit(99);
	}
	return p;
}

static int str_is(const char *got, const char *want)
{
	return got && strcmp(got, want) == 0;
}

/* stdout to a file between capture_begin and capture_end, which returns
 * what was written (the caller frees it). */
static int saved_fd = -1;
static char capture_path[256];

static void capture_begin(void)
{
	int fd;

	snprintf(capture_path, sizeof capture_path, "%s/stdout", dir);
	fflush(stdout);
	saved_fd = dup(1);
	fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (saved_fd < 0 || fd < 0 || dup2(fd, 1) < 0) {
		perror("capture");
		exit(99);
	}
	close(fd);
}

static char *capture_end(void)
{
	FILE *f;
	char *buf = calloc(1, 1 << 16);

	fflush(stdout);
	dup2(saved_fd, 1);
	close(saved_fd);
	f = fopen(capture_path, "r");
	if (!f || !buf) {
		perror(capture_path);
		exit(99);
	}
	if (fread(buf, 1, (1 << 16) - 1, f) == 0)
		buf[0] = '\0';
	fclose(f);
	return buf;
}

static const char file1[] =
	"# tool: x\n"
	"# key: one\n"
	"# not meta\n"
	"#key:nospace\n"
	"# Key: upper\n"
	"# empty:\n"
	"# cmd: a b  c\n"
	"# pb-run: 0.1.0 pb-run --runs 3\n"
	"a\tb\tc\n"
	"1\t2.5\t\n"
	"# key: one-b\n"
	"3\t-4e0\tz\n";
static const char file2[] =      /* no newline at the end */
	"# key: two\n"
	"a\tb\tc\n"
	"5\t6\tw";

/* Length of file1's comment lines, before its header. */
static size_t head1(void)
{
	return (size_t)(strstr(file1, "a\tb\tc\n") - file1);
}

static void test_two_files(void)
{
	char *files[2];
	struct stream s;
	const char *line;
	size_t len;
	char *out;

	files[0] = write_file("one", file1, sizeof file1 - 1);
	files[1] = write_file("two", file2, sizeof file2 - 1);
	stream_open(&s, 2, files);
	stream_header(&s);
	ok(s.ncol == 3 && str_is(s.col[0], "a") && str_is(s.col[1], "b") &&
	   str_is(s.col[2], "c"), "stream_header: columns a b c");
	ok(stream_col(&s, "b") == 1 && stream_col(&s, "c") == 2, "stream_col finds b and c");
	ok(stream_col_opt(&s, "nope") == -1, "stream_col_opt of a missing column is -1");
	ok(s.npending == 8 && str_is(s.pending[0], "# tool: x") &&
	   str_is(s.pending[6], "# cmd: a b  c"), "comments before the header kept in order");
	ok(str_is(stream_meta(&s, "key", -1), "one"), "stream_meta after the header: one");

	ok(stream_row(&s) == 1 && s.nfield == 3, "row 1 read, 3 fields");
	ok(stream_num(&s, 1) == 2.5 && stream_int(&s, 0) == 1, "row 1: stream_num 2.5, stream_int 1");
	ok(str_is(s.field[2], ""), "row 1: empty last field kept");
	line = stream_line(&s, &len);
	ok(len == 6 && memcmp(line, "1\t2.5\t", 7) == 0, "stream_line rejoins row 1");
	ok(s.lineno == 10 && str_is(s.name, files[0]), "row 1 is line 10 of file one");

	ok(stream_row(&s) == 1 && stream_num(&s, 1) == -4 && str_is(s.field[2], "z"),
	   "row 2 across a comment: -4e0 and z");
	line = stream_line(&s, &len);
	ok(len == 8 && str_is(line, "3\t-4e0\tz"), "stream_line rejoins row 2");

	ok(stream_row(&s) == 1 && s.cur == 1 && str_is(s.field[0], "5") &&
	   str_is(s.field[2], "w"), "row 3 from the second file, no final newline");
	ok(s.lineno == 3 && str_is(s.name, files[1]), "row 3 is line 3 of file two");
	ok(stream_row(&s) == 0 && s.rows == 3, "end after 3 rows");

	ok(str_is(stream_meta(&s, "key", -1), "two"), "stream_meta(key, any file): two");
	ok(str_is(stream_meta(&s, "key", 0), "one-b"), "stream_meta(key, file 0): last one, one-b");
	ok(str_is(stream_meta(&s, "key", 1), "two"), "stream_meta(key, file 1): two");
	ok(str_is(stream_meta(&s, "tool", -1), "x"), "stream_meta(tool): x");
	ok(str_is(stream_meta(&s, "empty", -1), ""), "stream_meta of an empty value");
	ok(str_is(stream_meta(&s, "cmd", -1), "a b  c"), "stream_meta keeps inner spaces");
	ok(str_is(stream_meta(&s, "pb-run", -1), "0.1.0 pb-run --runs 3"),
	   "stream_meta of a provenance line (key with '-')");
	ok(stream_meta(&s, "Key", -1) == NULL && stream_meta(&s, "not", -1) == NULL,
	   "no metadata from \"# Key:\" or \"# not meta\"");
	ok(stream_meta(&s, "key", 2) == NULL && stream_meta(&s, "nope", -1) == NULL,
	   "stream_meta of a missing key or file is NULL");

	capture_begin();
	out_comments(&s);
	out = capture_end();
	ok(s.npending == 0 && strncmp(out, file1, head1()) == 0 &&
	   strcmp(out + head1(), "# key: one-b\n# key: two\n") == 0,
	   "out_comments writes the 10 comments in order");
	free(out);
	stream_close(&s);
}

static void test_passthrough(void)
{
	char *files[1];
	struct stream s;
	char *out;

	files[0] = paths[0];   /* file1 */
	stream_open(&s, 1, files);
	capture_begin();
	stream_header(&s);
	stream_passthrough(&s);
	while (stream_row(&s))
		;
	out = capture_end();
	ok(strncmp(out, file1, head1()) == 0 && strcmp(out + head1(), "# key: one-b\n") == 0,
	   "stream_passthrough: comments go out as they are read");
	free(out);
	stream_close(&s);
}

static void test_one_column(void)
{
	static const char text[] = "x\n1\n\n2\n";
	char *files[1];
	struct stream s;
	int n = 0, good = 1;

	files[0] = write_file("onecol", text, sizeof text - 1);
	stream_open(&s, 1, files);
	while (stream_row(&s)) {
		good &= s.nfield == 1;
		good &= str_is(s.field[0], n == 0 ? "1" : n == 1 ? "" : "2");
		n++;
	}
	ok(n == 3 && good, "one column: an empty line is an empty field");
	stream_close(&s);
}

static void test_long_line(void)
{
	enum { LONG = 200000 };   /* over three read chunks */
	char *text = malloc(LONG + 16), *files[1];
	struct stream s;
	size_t len;

	memcpy(text, "a\tb\n", 4);
	memset(text + 4, 'x', LONG);
	memcpy(text + 4 + LONG, "\t1\n", 3);
	files[0] = write_file("long", text, LONG + 7);
	stream_open(&s, 1, files);
	ok(stream_row(&s) == 1 && strlen(s.field[0]) == LONG && stream_num(&s, 1) == 1,
	   "a %d-byte field across read chunks", LONG);
	ok(stream_line(&s, &len) && len == LONG + 2, "stream_line of the long row");
	stream_close(&s);
	free(text);
}

static void test_output(void)
{
	char *out;

	capture_begin();
	out_meta("key", "%s %d", "a\tb\\c\nd\re", 7);
	out_field("x");
	out_num(0.1);
	out_i64(-7);
	out_fieldn("yz", 1);
	out_num(1e21);
	out_end();
	out_field("");
	out_field("");
	out_end();
	out_begin(NULL);
	out = capture_end();
	if (!ok(str_is(out, "# key: a\\tb\\\\c\\nd\\re 7\n"
	               "x\t0.1\t-7\ty\t1e21\n"
	               "\t\n"
	               "# pb-unit: " PB_VERSION " pb-unit --x=1 'it'\\''s' ''\n"),
	        "out_meta escapes; out_* separate fields; out_begin quotes argv"))
		fprintf(stderr, "# got: %s", out);
	free(out);
}

static void cleanup(void)
{
	int i;
	for (i = 0; i < npaths; i++)
		unlink(paths[i]);
	unlink(capture_path);
	rmdir(dir);
}

int main(void)
{
	static char *argv[] = { "t/unit/stream", "--x=1", "it's", "", NULL };

	const char *tmp = getenv("TMPDIR");

	pb_init(4, argv, "pb-unit");
	snprintf(dir, sizeof dir, "%s/pb-unit-stream.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir)) {
		perror(dir);
		return 99;
	}
	test_two_files();
	test_passthrough();
	test_one_column();
	test_long_line();
	test_output();
	cleanup();
	return done_testing();
}
