/* study: what pb-run writes about a study and its runs (pb(7), Raw
 * stream), written and read here. */
#ifndef PB_STUDY_H
#define PB_STUDY_H

#include <stddef.h>
#include <stdint.h>

struct stream;

/* The head metadata that says what was measured and how (pb-run(1)):
 * shards of one study must agree on each (pb-pair(1) has this table);
 * NULL ends it. Not here, as they differ between shards of one study:
 * the machine (host, kernel, cpu, server_version), when and which runs
 * (start, first_run, runs, study), the order's seed, and where the
 * commands' output went (output). */
extern const char *const study_design_keys[];
/* The key of an arm's command or script: prefix "cmd_" or "sql_" and
 * the arm's letter in lower case (arm 2 is "cmd_c"). The keys of arms A
 * and B are in study_design_keys; those of C to Z are design keys too. */
void study_arm_key(char key[8], const char *prefix, int arm);

/* The head of a stream: the metadata before its header (pb(7)), copied
 * as read, in order. A head that gives a key twice counts its first
 * value; metadata among the rows, which what was measured could have
 * printed, is never in it. Every tool reads the design and the keys of
 * earlier tools through this. */
struct study_kv {
	char *key, *value;
};
struct study_head {
	struct study_kv *kv;
	size_t n, cap;
};
/* h = the head of file of s (an index into its names), or of every file
 * read so far, in order, when file < 0; after stream_header. A copy: it
 * outlives s. */
void study_head_read(struct study_head *h, const struct stream *s, int file);
void study_head_free(struct study_head *h);
/* The first value of key, or NULL. */
const char *study_head_str(const struct study_head *h, const char *key);
/* Of a key given once per subject, each value the subject's word and
 * then what is said of it ("# pb-logratio.column: lr a b"): the rest of
 * the first value whose first word is word ("a b"), or NULL. */
const char *study_head_for(const struct study_head *h, const char *key, const char *word);
/* The first value of key as a whole number (num_parse_i64) or as a
 * number (num_parse) in *v: 1; 0 when key is absent and -1 when its
 * first value is not such a number, *v untouched. */
int study_head_int(const struct study_head *h, const char *key, int64_t *v);
int study_head_num(const struct study_head *h, const char *key, double *v);
/* The arms and the reference the head gives: *arms 2 to 26 (2 without
 * "# arms:"), *ref the reference's index (0, arm A, without
 * "# reference:"). A value pb-run never writes is refused in one line
 * naming what (the file): "raw.tsv: '# reference: Z' is not one of the
 * arms (A to B)", exit 1; every reader of a study's arms goes by this. */
void study_head_arms(const struct study_head *h, const char *what, int *arms, int *ref);
/* Whether the head's order is duet (pb-run --duet): the arms of each
 * pair ran at once, each pinned to a CPU of its own, every row at pos 0. */
int study_head_duet(const struct study_head *h);
/* The two CPUs of "# duet_cpus: X,Y" in cpu: 1; 0 when the head has no
 * such line. A value pb-run never writes is refused in one line naming
 * what (the file), exit 1. */
int study_head_duet_cpus(const struct study_head *h, const char *what, int64_t cpu[2]);

/* The files of a study directory that more than one tool reads back
 * (pb-compare writes them, pb-compare and pb-tint --check read them). */

/* pb-plan's output: its costs (pb-plan.pair_cost, pb-plan.run_cost, in
 * ns; NAN when it gives none), the variances and runs of its row
 * "current" (NAN and 0 without one) and the pairs of "kalibera_jones"
 * (0 without one). */
struct study_plan {
	double pair_ns, run_ns;
	double sigma2_between, sigma2_within;
	long runs, kj_pairs;
};
/* A file that is not pb-plan's output is an error (file:line, exit 1). */
void study_plan_read(struct study_plan *p, const char *path);

/* pb-check's output (the check stream): the head's study, or NULL, and
 * every row; arm is "" without an arm column. */
struct study_check_row {
	char *arm, *check, *status, *note;
};
struct study_checks {
	char *study;
	struct study_check_row *row;
	size_t n, cap;
};
/* A stream without the columns check, status and note is refused:
 * "what: not pb-check's output (...)", exit 1. */
void study_checks_read(struct study_checks *c, const char *path, const char *what);
void study_checks_free(struct study_checks *c);

struct word {            /* a span of a metadata value; len 0: absent */
	const char *p;
	size_t len;
};

/* The value of "# run: R start=STAMP pid=N study=ID load=L psi=P
 * host=HOST". Older streams have no load= and psi=, older still no
 * study=, the oldest no host= either. */
struct run_comment {
	int64_t run;
	struct word number;  /* R as written */
	struct word start, pid, study;
	struct word host;    /* the last word: the rest of the value */
};

/* The span of the word "name=..." in a value of named words, such as
 * "# sequential: run R n=N ratio=X lo=L hi=H": what follows the '=', up
 * to a space or the end; len 0 (and p NULL) when there is none. Of a
 * name given twice, the first. */
struct word study_word(const char *value, const char *name);
/* The run of pb-run's comment of a failure or a stop among the rows
 * (pb(7)): "# failed: run R ...", "# run_ended: run R ...",
 * "# interrupted: SIGNAL in run R ...". R, or -1 when the value is not so. */
int64_t study_event_run(const char *value);

/* Write the comment: words (" load=L psi=P", or "") before host, and
 * host last, as the rest of the line, whatever it holds; start is a
 * clock_utc_stamp. */
void run_comment_out(long run, const char *start, long pid, uint64_t study,
                     const char *words, const char *host);
/* 0, or -1 when the value does not begin with a run number (a whole
 * number >= 0, then a space or the end). Words of other names are
 * skipped; of a name given twice, the first counts. */
int run_comment_parse(const char *value, struct run_comment *rc);
/* Its host as a field holds it: a copy, a raw TAB or CR (which no pb tool
 * writes) escaped as pb(7) writes them; NULL when it names none. */
char *run_comment_host(const struct run_comment *rc);

#endif
