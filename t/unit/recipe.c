/* recipe: the steps of a study's analysis (lib/recipe), checked word by
 * word against the commands pb-compare(1) documents, and the recipe a
 * directory's raw.tsv head gives. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "err.h"
#include "files.h"
#include "recipe.h"
#include "studydir.h"
#include "tap.h"

/* The step that makes target, as a shell runs it, or "" */
static const char *text_of(const struct recipe *r, const char *target)
{
	static char buf[512];
	struct step steps[RECIPE_STEPS_MAX];
	size_t n = recipe_steps(r, steps), i;

	buf[0] = '\0';
	for (i = 0; i < n; i++)
		if (strcmp(steps[i].target, target) == 0)
			recipe_step_text(buf, sizeof buf, &steps[i]);
	recipe_steps_free(steps, n);
	return buf;
}

static size_t count(const struct recipe *r)
{
	struct step steps[RECIPE_STEPS_MAX];
	size_t n = recipe_steps(r, steps);

	recipe_steps_free(steps, n);
	return n;
}

static void is_text(const char *got, const char *want, const char *name)
{
	if (!ok(strcmp(got, want) == 0, "%s", name))
		fprintf(stderr, "# got  '%s'\n# want '%s'\n", got, want);
}

static struct recipe plain(void)
{
	struct recipe r;

	memset(&r, 0, sizeof r);
	r.threshold = NAN;
	return r;
}

static void steps_of_options(void)
{
	struct recipe r = plain();

	is_text(text_of(&r, "pairs.tsv"), "pb-pair raw.tsv", "pairs.tsv: pb-pair raw.tsv");
	is_text(text_of(&r, "runs.tsv"), "pb-pair --by-run raw.tsv | pb-logratio",
	        "runs.tsv: by run, then the log ratio");
	is_text(text_of(&r, "check.tsv"), "pb-check pairs.tsv", "check.tsv: pb-check");
	is_text(text_of(&r, "tint.tsv"), "pb-tint --finding --check check.tsv runs.tsv",
	        "tint.tsv: the finding, checked");
	ok(count(&r) == 4, "two arms, no options: 4 steps");
	is_text(text_of(&r, "runs-boot.tsv"), "", "no page steps unless asked");

	r.stat = "lr-median";
	r.level = "0.99";
	r.adjust = "holm";
	r.threshold = 1.02;
	is_text(text_of(&r, "runs.tsv"), "pb-pair --by-run --stat lr-median raw.tsv",
	        "lr-median: pb-pair writes lr itself, no pb-logratio");
	is_text(text_of(&r, "tint.tsv"),
	        "pb-tint --finding --check check.tsv --level 0.99 --adjust holm --threshold 1.02 "
	        "runs.tsv", "tint.tsv: level, adjustment and threshold");
	r.threshold = NAN;
	r.tolerance = 2.5;
	is_text(text_of(&r, "tint.tsv"),
	        "pb-tint --finding --check check.tsv --level 0.99 --adjust holm --tolerance 2.5 "
	        "runs.tsv", "tint.tsv: the margin of --until tolerance");

	r = plain();
	r.use = 1;
	is_text(text_of(&r, "runs-cpu.tsv"),
	        "pb-pair --by-run raw.tsv | pb-logratio --a a_cpu --b b_cpu --name lr_cpu",
	        "CPU time: its own columns and log ratio");
	is_text(text_of(&r, "tint-memory.tsv"), "pb-tint --column lr_memory runs-memory.tsv",
	        "peak memory: its interval, no finding");
	r.sense = 1;
	r.pictures = 1;
	r.page = 1;
	is_text(text_of(&r, "sense.svg"), "pb-plot sense -o sense.svg sense.tsv",
	        "the calibration's picture");
	is_text(text_of(&r, "runs-boot.tsv"), "pb-boot --group run pairs.tsv",
	        "the page's per-run bootstrap");
	ok(count(&r) == 4 + 4 + 4 + 2, "every step: 14 (at most %d)", RECIPE_STEPS_MAX);
}

/* A directory whose raw.tsv has the head given (and no rows). */
static char *dir_with_head(const char *head)
{
	char *dir = private_dir("pb-unit-recipe"), *path = path_in(dir, "raw.tsv");
	FILE *f = fopen(path, "w");

	if (!f)
		die("%s:", path);
	fprintf(f, "%srun\tpair\tphase\tarm\tpos\tdelay_ns\tns\tstatus\n", head);
	fclose(f);
	free(path);
	return dir;
}

static void recipe_of_heads(void)
{
	struct recipe r;
	char *d;

	d = dir_with_head("# arms: 3\n# reference: A\n");
	recipe_of_dir(&r, d);
	ok(r.adjust && strcmp(r.adjust, "holm") == 0, "3 arms: Holm");
	ok(!r.stat && !r.level && isnan(r.threshold) && !r.use && !r.sense && !r.pictures,
	   "3 arms: nothing else");
	private_dir_remove(d);
	free(d);

	d = dir_with_head("# arms: 2\n# until: threshold 1.05\n# seq_level: 0.9\n"
	                  "# seq_stat: p90 (each run's statistic, as pb-pair --by-run --stat p90)\n"
	                  "# until: parity\n");
	recipe_of_dir(&r, d);
	ok(!r.adjust, "2 arms: no adjustment");
	ok(r.threshold == 1.05, "the sequential rule's threshold");
	ok(r.stat && strcmp(r.stat, "p90") == 0, "the rule's statistic, its first word");
	ok(!r.level, "the level is pb-tint's to read from the head");
	private_dir_remove(d);
	free(d);

	d = dir_with_head("# arms: 2\n# until: tolerance 2\n# tolerance: 2\n");
	recipe_of_dir(&r, d);
	ok(r.tolerance == 2 && isnan(r.threshold), "--until tolerance: the head's margin, no threshold");
	private_dir_remove(d);
	free(d);

	d = dir_with_head("# tolerance: 100\n");
	recipe_of_dir(&r, d);
	ok(!(r.tolerance > 0), "a margin of 100 % is not taken (pb-tint refuses it)");
	private_dir_remove(d);
	free(d);

	d = dir_with_head("# arms: 2\n# seq_stat: lr-median\n# seq_stat.note: each run's\n");
	recipe_of_dir(&r, d);
	ok(r.stat && strcmp(r.stat, "lr-median") == 0, "seq_stat as pb-run writes it now: a name");
	private_dir_remove(d);
	free(d);

	d = dir_with_head("# seq_stat: median; rm -rf / (each run's)\n");
	recipe_of_dir(&r, d);
	ok(!r.stat, "a statistic that is no word is not taken");
	private_dir_remove(d);
	free(d);
}

/* tighter.tsv: only for a study of two arms the t sequence stopped, at
 * the head's g and level. */
static void tighter_of_heads(void)
{
	static const char *const none[] = {
		"# arms: 3\n# until: parity\n", "# until: parity\n# reference: B\n",
		"# until: parity\n# seq_kind: median\n", "# until: parity\n# pairs: 1\n",
		"# arms: 2\n",
	};
	struct recipe r;
	char *d;
	size_t i;

	d = dir_with_head("# until: parity\n# seq_kind: t\n# seq_g: 1.18\n# seq_level: 0.9\n");
	recipe_of_dir(&r, d);
	is_text(text_of(&r, "tighter.tsv"), "", "recipe_of_dir alone: no tighter.tsv (an older "
	        "directory is read as it was)");
	recipe_tighter_of_dir(&r, d);
	is_text(text_of(&r, "tighter.tsv"), "pb-logratio pairs.tsv | pb-plan --sequential "
	        "--seq-g 1.18 --level 0.9 --tighter tint.tsv", "tighter.tsv: at the head's g and level");
	private_dir_remove(d);
	free(d);
	d = dir_with_head("# until: parity\n# seq_g: 1.18; rm -rf /\n");
	recipe_of_dir(&r, d);
	recipe_tighter_of_dir(&r, d);
	is_text(text_of(&r, "tighter.tsv"), "pb-logratio pairs.tsv | pb-plan --sequential "
	        "--tighter tint.tsv", "tighter.tsv: a g that is no number is not taken");
	private_dir_remove(d);
	free(d);
	for (i = 0; i < LEN(none); i++) {
		d = dir_with_head(none[i]);
		recipe_of_dir(&r, d);
		recipe_tighter_of_dir(&r, d);
		is_text(text_of(&r, "tighter.tsv"), "", "no tighter.tsv: a fixed design, another "
		        "reference, the median sequence or runs of one pair");
		private_dir_remove(d);
		free(d);
	}
}

/* study_read: tighter.tsv's best design, the bound and the target. */
static void tighter_read(void)
{
	char *d = dir_with_head("# until: parity\n"), *p = path_in(d, "raw.tsv");
	FILE *f = fopen(p, "a");   /* study_read wants a row */
	struct study st;

	if (!f)
		die("%s:", p);
	fputs("1\t1\tmeasure\tA\t1\t0\t100\t0\n1\t1\tmeasure\tB\t2\t0\t100\t0\n", f);
	fclose(f);
	free(p);
	p = path_in(d, "tighter.tsv");
	if (!(f = fopen(p, "w")))
		die("%s:", p);
	fputs("# pb-plan.target: 0.0037\n# pb-plan.tighter: 0.0074\n"
	      "plan\tsigma2_between\tsigma2_within\truns\tpairs\thalfwidth\ttotal_s\n"
	      "current\t0\t0.1\t12\t4\t0.1\t0.3\nbest\t0\t0.1\t23\t14\t0.0036\t2.5\n", f);
	fclose(f);
	study_read(&st, d);
	ok(st.tighter_bound == 0.0074 && st.tighter_target == 0.0037 && st.tighter_runs == 23 &&
	   st.tighter_pairs == 14 && st.tighter_total_ns == 2.5e9, "study_read: tighter.tsv's best row");
	study_free(&st);
	unlink(p);
	study_read(&st, d);
	ok(isnan(st.tighter_bound) && isnan(st.tighter_target) && isnan(st.tighter_runs) &&
	   isnan(st.tighter_total_ns), "study_read without tighter.tsv: NAN");
	study_free(&st);
	free(p);
	private_dir_remove(d);
	free(d);
}

/* The Makefile of a recipe with word in it as --level, written by a
 * child: its exit status (stderr to /dev/null). */
static int makefile_status(const char *word)
{
	struct recipe r = plain();
	int ws;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		FILE *f = fopen("/dev/null", "w");

		if (!f || !freopen("/dev/null", "w", stderr))
			_exit(9);
		r.level = word;
		recipe_makefile(f, &r);
		fclose(f);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &ws, 0) != pid || !WIFEXITED(ws))
		return -1;
	return WEXITSTATUS(ws);
}

/* A newline in a word would end make's rule and start one of its own. */
static void makefile_refuses_newline(void)
{
	ok(makefile_status("0.99") == 0, "a Makefile of plain words is written");
	ok(makefile_status("0.95\nall: evil\nevil:\n\ttouch pwned") == 1,
	   "a word with a newline: refused, exit 1, no Makefile");
}

int main(void)
{
	pb_init("unit-recipe");
	steps_of_options();
	recipe_of_heads();
	tighter_of_heads();
	tighter_read();
	makefile_refuses_newline();
	return done_testing();
}
