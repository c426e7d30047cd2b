/* summary: what a person reads of a study read back (lib/studydir): the
 * summary, report.md and the markdown table of several studies. Numbers
 * for a person have 4 significant digits (lib/human). */
#ifndef PB_SUMMARY_H
#define PB_SUMMARY_H

#include <stdio.h>

#include "human.h"   /* for the callers: sig4 and safe_text, as the summary shows numbers and text */
#include "studydir.h"

/* How the summary is said: coloured or not, and how much of it. */
enum { SAY_QUIET = -1, SAY_ANSWER = 0, SAY_ALL = 1 };
struct style {
	int color;
	int say;             /* SAY_ANSWER: the answer and a line per warning;
	                        SAY_QUIET: the answer alone; SAY_ALL: everything */
	const char *dir;     /* the study's directory, said on the answer's last
	                        line (NULL: not said) */
	int plan_said;       /* the plan was said before the runs: not again */
};

/* The summary: to f, coloured or not. The answer comes first: for each
 * candidate its verdict in words and its time ratio as a percentage with
 * the interval, then what it rests on (runs x pairs, time, directory);
 * then a line per warning; SAY_ALL adds the plan, the arms, the CPU time
 * and memory, the design and pb-tint's findings (summary.txt's form). */
void write_summary(FILE *f, const struct study *s, const struct live *l,
                   const struct style *st);
/* One line of CPU time (k = USE_CPU) or peak memory of comparison c, in
 * plain text after lead, as the summary and report.md say it; pb-report's
 * page shows it too. */
void write_use_line(FILE *f, const char *lead, const struct study *s,
                    const struct cmp_result *c, int k);
/* A scan's answers, one row per value and candidate, aligned: the value,
 * the candidate, its time ratio, the interval and the verdict; a study
 * that failed says so. After the studies' summaries, and in summary.txt. */
void write_scan_table(FILE *f, const struct study *const *s, const struct live *const *l,
                      size_t n, const char *param, const struct style *st);
/* report.md: a function of the directory alone, so that make redoes it. */
void write_report(FILE *f, const struct study *s);
void write_markdown_table(FILE *f, const struct study *const *s,
                          const struct live *const *l, size_t n, const char *param);
/* After the table of a scan: each study that could not be made, its value
 * and why (a line of its own each). */
void write_markdown_failed(FILE *f, const struct study *const *s,
                           const struct live *const *l, size_t n);

#endif
