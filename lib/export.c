/* export: CSV, JSON and JUnit XML of studies read back, for a script
 * or a CI system: every digit (lib/num), every text escaped as its
 * format wants. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "err.h"
#include "export.h"
#include "gate.h"
#include "html.h"
#include "human.h"
#include "num.h"

#ifndef PB_VERSION
#define PB_VERSION "0.0.0"
#endif

/* --- CSV -------------------------------------------------------------- */

/* A field as the summary shows its text (lib/human's safe_text: no
 * control byte, valid UTF-8, so that no spreadsheet or terminal that
 * shows the file takes an escape from it), quoted where it holds a
 * comma or a quote. */
static void csv_field(FILE *f, const char *s, int last)
{
	char *t = safe_text(s), *p;

	if (strpbrk(t, ",\"")) {
		fputc('"', f);
		for (p = t; *p; p++) {
			if (*p == '"')
				fputc('"', f);
			fputc(*p, f);
		}
		fputc('"', f);
	} else
		fputs(t, f);
	fputc(last ? '\n' : ',', f);
	free(t);
}

/* x as the shortest number that reads back, or none when it is not
 * finite: what the CSV (an empty field) and JSON (null) exports share. */
static void put_num(FILE *f, double x, const char *none, const char *after)
{
	char b[NUM_BUFSZ];

	if (isfinite(x)) {
		num_format(b, x);
		fputs(b, f);
	} else
		fputs(none, f);
	fputs(after, f);
}

static void csv_num(FILE *f, double x)
{
	put_num(f, x, "", ",");
}

/* The medians of CPU time and peak memory, then each ratio and its
 * interval (empty where not measured; the reference's ratio is 1). */
static void csv_use(FILE *f, const struct study *s, const struct arm_result *a,
                    const struct cmp_result *c)
{
	int k;

	for (k = 0; k < NUSE_PROCESS; k++)   /* wait4's: the tree's are in the JSON */
		csv_num(f, a->use_median[k]);
	for (k = 0; k < NUSE_PROCESS; k++) {
		const struct ratio_ci *u = c ? &c->use[k] : NULL;
		int have = u ? u->have : !isnan(a->use_median[k]);

		csv_num(f, !have ? NAN : u ? u->ratio : 1);
		csv_num(f, u && have ? u->lo : NAN);
		csv_num(f, u && have ? u->hi : NAN);
	}
	/* 1: the arm's peak memory is pb-run's own, what it uses not measured */
	csv_field(f, isnan(a->use_median[USE_MEMORY]) ? "" : study_arm_at_floor(s, a) ? "1" : "0", 1);
}

void write_csv(FILE *f, const struct study *const *s, const struct live *const *l,
               size_t n, const char *param)
{
	size_t i;
	int k;

	if (param) {
		fputs("parameter_", f);
		csv_field(f, param, 0);
	}
	fputs("arm,command,median_ns,q1_ns,q3_ns,ratio,ratio_lo,ratio_hi,reduction,verdict,"
	      "cpu_median_ns,memory_median_kib,cpu_ratio,cpu_ratio_lo,cpu_ratio_hi,"
	      "memory_ratio,memory_ratio_lo,memory_ratio_hi,memory_at_floor\n", f);
	for (i = 0; i < n; i++)
		for (k = 0; k < s[i]->narms; k++) {
			const struct arm_result *a = &s[i]->arm[k];
			const struct cmp_result *c = study_cmp(s[i], a->letter);
			char arm[2] = { a->letter, '\0' };

			if (param)
				csv_field(f, l[i]->value, 0);
			csv_field(f, arm, 0);
			csv_field(f, a->what, 0);
			csv_num(f, a->median);
			csv_num(f, a->q1);
			csv_num(f, a->q3);
			csv_num(f, c ? c->ratio : 1);
			csv_num(f, c ? c->lo : NAN);
			csv_num(f, c ? c->hi : NAN);
			csv_num(f, c ? c->reduction : NAN);
			csv_field(f, c ? cmp_words(c) : "reference", 0);
			csv_use(f, s[i], a, c);
		}
}

/* --- JSON ------------------------------------------------------------- */

/* A JSON string: quotes, backslashes and control characters escaped,
 * bytes that are not UTF-8 as U+FFFD. */
static void json_str(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	if (!s) {
		fputs("null", f);
		return;
	}
	fputc('"', f);
	while (*p) {
		size_t n = utf8_len(p);

		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p == '\n')
			fputs("\\n", f);
		else if (*p == '\t')
			fputs("\\t", f);
		else if (*p < 0x20 || *p == 0x7f)
			fprintf(f, "\\u%04x", *p);
		else if (n == 0)
			fputs("\\ufffd", f);
		else
			fwrite(p, 1, n, f);
		p += n ? n : 1;
	}
	fputc('"', f);
}

static void json_num(FILE *f, double x)
{
	put_num(f, x, "null", "");
}

/* "key": value pairs, with the commas and indentation of one object */
struct json {
	FILE *f;
	int depth, first;
};

static void json_key(struct json *j, const char *key)
{
	fprintf(j->f, "%s\n%*s", j->first ? "" : ",", 2 * j->depth, "");
	j->first = 0;
	if (key)
		fprintf(j->f, "\"%s\": ", key);
}

/* "key": null, for what was not measured or made. */
static void json_null(struct json *j, const char *key)
{
	json_key(j, key);
	fputs("null", j->f);
}

static void json_open(struct json *j, const char *key, int brace)
{
	json_key(j, key);
	fputc(brace, j->f);
	j->depth++;
	j->first = 1;
}

static void json_close(struct json *j, int brace)
{
	j->depth--;
	if (!j->first)
		fprintf(j->f, "\n%*s", 2 * j->depth, "");
	fputc(brace, j->f);
	j->first = 0;
}

static void jnum(struct json *j, const char *key, double x)
{
	json_key(j, key);
	json_num(j->f, x);
}

static void jstr(struct json *j, const char *key, const char *s)
{
	json_key(j, key);
	json_str(j->f, s);
}

static void jbool(struct json *j, const char *key, int b)
{
	json_key(j, key);
	fputs(b ? "true" : "false", j->f);
}

static void json_arms(struct json *j, const struct study *s)
{
	int k;

	json_open(j, "arms", '[');
	for (k = 0; k < s->narms; k++) {
		const struct arm_result *a = &s->arm[k];
		char arm[2] = { a->letter, '\0' };

		json_open(j, NULL, '{');
		jstr(j, "arm", arm);
		jstr(j, "command", a->what);
		jnum(j, "median_ns", a->median);
		jnum(j, "q1_ns", a->q1);
		jnum(j, "q3_ns", a->q3);
		jnum(j, "run_min_ns", a->run_lo);
		jnum(j, "run_max_ns", a->run_hi);
		jnum(j, "pairs", (double)a->n);
		jnum(j, "cpu_median_ns", a->use_median[USE_CPU]);
		jnum(j, "memory_median_kib", a->use_median[USE_MEMORY]);
		if (isnan(a->use_median[USE_MEMORY])) {
			json_null(j, "memory_at_floor");
		} else
			jbool(j, "memory_at_floor", study_arm_at_floor(s, a));
		if (s->have_tree) {
			jnum(j, "tree_cpu_median_ns", a->use_median[USE_TREE_CPU]);
			jnum(j, "tree_memory_median_kib", a->use_median[USE_TREE_MEMORY]);
		}
		json_close(j, '}');
	}
	json_close(j, ']');
}

/* "cpu": {...}, "memory": {...}, or null where not measured; the whole
 * tree's where it was (--resources tree). */
static void json_use(struct json *j, const struct study *s, const struct cmp_result *c)
{
	int k;

	for (k = 0; k < NUSE; k++) {
		const struct ratio_ci *u = &c->use[k];

		if (k >= NUSE_PROCESS && !s->have_tree)
			continue;
		if (!u->have) {
			json_null(j, use_kinds[k].key);
			continue;
		}
		json_open(j, use_kinds[k].key, '{');
		jnum(j, "ratio", u->ratio);
		jnum(j, "ratio_lo", u->lo);
		jnum(j, "ratio_hi", u->hi);
		jstr(j, "verdict", use_words(u));
		json_close(j, '}');
	}
}

static void json_cmps(struct json *j, const struct study *s, const struct live *l)
{
	int k;

	json_open(j, "comparisons", '[');
	for (k = 0; k < s->ncmp; k++) {
		const struct cmp_result *c = &s->cmp[k];
		char ref[2] = { c->ref, '\0' }, cand[2] = { c->cand, '\0' };

		json_open(j, NULL, '{');
		jstr(j, "reference", ref);
		jstr(j, "candidate", cand);
		jnum(j, "ratio", c->ratio);
		jnum(j, "ratio_lo", c->lo);
		jnum(j, "ratio_hi", c->hi);
		jnum(j, "reduction", c->reduction);
		jnum(j, "level", s->level);
		jstr(j, "interval", s->sequence ? "confidence sequence" : "t interval");
		jstr(j, "verdict", cmp_words(c));
		jnum(j, "threshold", s->threshold);
		jstr(j, "threshold_verdict", *c->verdict && !(s->tolerance > 0) ? c->verdict : NULL);
		jnum(j, "tolerance", s->tolerance > 0 ? s->tolerance : NAN);
		jstr(j, "tolerance_verdict", *c->verdict && s->tolerance > 0 ? c->verdict : NULL);
		jbool(j, "slower_than_fail", !isnan(l->fail_if_slower) &&
		                             cmp_slower_than(c, l->fail_if_slower));
		jstr(j, "finding", c->finding);
		json_use(j, s, c);
		json_close(j, '}');
	}
	json_close(j, ']');
}

static void json_design(struct json *j, const struct study *s)
{
	json_open(j, "design", '{');
	jstr(j, "mode", s->mode);
	jnum(j, "runs", (double)s->runs);
	jnum(j, "runs_max", (double)s->runs_max);
	jnum(j, "pairs", (double)s->pairs);
	jnum(j, "warmup", (double)s->warmup);
	jnum(j, "pairs_measured", (double)s->pairs_total);
	jstr(j, "order", s->order);
	jstr(j, "seed", s->seed);
	jstr(j, "until", s->until);
	jstr(j, "statistic", s->stat);
	jstr(j, "stop", s->stop);
	jnum(j, "maxrss_floor_kib", s->maxrss_floor_kib);
	json_close(j, '}');
	if (isnan(s->tighter_total_ns)) {
		json_null(j, "tighter");
	} else {   /* tighter.tsv: what an interval half as wide would take */
		json_open(j, "tighter", '{');
		jnum(j, "bound", s->tighter_bound);
		jnum(j, "target_lr", s->tighter_target);
		jnum(j, "runs", s->tighter_runs);
		jnum(j, "pairs", s->tighter_pairs);
		jnum(j, "runs_ns", s->tighter_total_ns);
		json_close(j, '}');
	}
	if (!s->hosts.have) {
		json_null(j, "hosts");
	} else {   /* hosts.tsv: hosts as a level (pb-tint --unit host) */
		json_open(j, "hosts", '{');
		jnum(j, "hosts", (double)s->hosts.n);
		jnum(j, "ratio", s->hosts.ratio);
		jnum(j, "ratio_lo", s->hosts.lo);
		jnum(j, "ratio_hi", s->hosts.hi);
		jnum(j, "ratio_pred_lo", s->hosts.pred_lo);
		jnum(j, "ratio_pred_hi", s->hosts.pred_hi);
		jnum(j, "i2", s->hosts.i2);
		jstr(j, "finding", s->hosts.finding);
		json_close(j, '}');
	}
	if (!s->have_pilot) {
		json_null(j, "pilot");
	} else {
		json_open(j, "pilot", '{');
		jnum(j, "runs", (double)s->pilot_runs);
		jnum(j, "pairs", (double)s->pilot_pairs);
		jnum(j, "warmup", (double)s->pilot_warmup);
		jnum(j, "pair_cost_ns", s->pair_cost);
		jnum(j, "run_cost_ns", s->run_cost);
		jnum(j, "sd_between", s->sd_between);
		jnum(j, "sd_within", s->sd_within);
		jnum(j, "kalibera_jones_pairs", s->kj_pairs ? (double)s->kj_pairs : NAN);
		json_close(j, '}');
	}
}

static void json_study(struct json *j, const struct study *s, const struct live *l)
{
	size_t w;
	double med = study_reference_median(s);

	if (l->value)
		jstr(j, "value", l->value);
	jstr(j, "dir", s->dir);
	jbool(j, "partial", s->interrupted || s->failed);
	jstr(j, "interrupted", s->interrupted);
	jstr(j, "failed", s->failed);
	jnum(j, "budget_ns", l->budget_ns);
	jnum(j, "wall_ns", l->wall_ns);
	jstr(j, "plan", l->plan);
	json_design(j, s);
	json_arms(j, s);
	json_cmps(j, s, l);
	json_open(j, "warnings", '[');
	for (w = 0; w < s->nwarn; w++)
		jstr(j, NULL, s->warnings[w]);
	json_close(j, ']');
	if (!s->have_sense) {
		json_null(j, "calibration");
	} else {
		json_open(j, "calibration", '{');
		jnum(j, "resolves_ns", s->resolves_ns);
		jnum(j, "resolves_share", s->resolves_ns / med);
		jnum(j, "largest_delay_ns", s->sense_max_ns);
		json_close(j, '}');
	}
	jstr(j, "host", s->host);
	jstr(j, "cpu", s->cpu);
	jstr(j, "kernel", s->kernel);
	jstr(j, "start", s->start);
}

void write_json(FILE *f, const struct study *const *s, const struct live *const *l,
                size_t n, const char *param)
{
	struct json j = { f, 0, 1 };
	size_t i;
	int status = 0;

	for (i = 0; i < n; i++)
		if (l[i]->exit_status > status)
			status = l[i]->exit_status;
	json_open(&j, NULL, '{');
	jnum(&j, "schema", 1);
	jstr(&j, "version", PB_VERSION);
	jnum(&j, "exit_status", status);
	jnum(&j, "fail_if_slower", n ? l[0]->fail_if_slower : NAN);
	jbool(&j, "bisect", n && l[0]->bisect);
	if (!param && n == 1)
		json_study(&j, s[0], l[0]);
	else {
		jstr(&j, "parameter", param);
		json_open(&j, "studies", '[');
		for (i = 0; i < n; i++) {
			json_open(&j, NULL, '{');
			json_study(&j, s[i], l[i]);
			json_close(&j, '}');
		}
		json_close(&j, ']');
	}
	json_close(&j, '}');
	fputc('\n', f);
}

/* --- JUnit XML -------------------------------------------------------- */

/* Text in XML, in an attribute or an element: & < > " ' as references
 * (lib/html's), and what the summary shows as \xNN (a control byte, a
 * byte that is not UTF-8) as \xNN, with U+FFFE and U+FFFF, which XML 1.0
 * has no place for: whatever a command's bytes, the file is XML. */
static void xml_text(FILE *f, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	while (*p) {
		size_t n = utf8_len(p), k = n ? n : 1, i;
		int esc = text_unsafe(p, n) || (n == 3 && p[0] == 0xef && p[1] == 0xbf && p[2] >= 0xbe);

		for (i = 0; esc && i < k; i++)
			fprintf(f, "\\x%02x", p[i]);
		if (!esc)
			html_textn(f, (const char *)p, k);
		p += k;
	}
}

/* An attribute, name="text" after a space. */
static void xml_attr(FILE *f, const char *name, const char *text)
{
	fprintf(f, " %s=\"", name);
	xml_text(f, text);
	fputc('"', f);
}

/* pb-run's start, "2026-12-01T12:24:11.556Z", when it is one (a
 * timestamp that is an xs:dateTime, or none). */
static int is_timestamp(const char *t)
{
	static const char form[] = "dddd-dd-ddTdd:dd:dd";
	size_t i;

	if (!t || strlen(t) < sizeof form)
		return 0;
	for (i = 0; form[i]; i++)
		if (form[i] == 'd' ? t[i] < '0' || t[i] > '9' : t[i] != form[i])
			return 0;
	t += i;
	if (*t == '.' && t[1] >= '0' && t[1] <= '9')
		for (t++; *t >= '0' && *t <= '9'; t++)
			;
	return strcmp(t, "Z") == 0;
}

static void junit_property(FILE *f, char letter, int prefix, const char *name, const char *value)
{
	fputs("      <property name=\"", f);
	if (prefix)
		fprintf(f, "%c.", letter);
	fprintf(f, "%s\"", name);
	xml_attr(f, "value", value);
	fputs("/>\n", f);
}

static void junit_num_property(FILE *f, char letter, int prefix, const char *name, double x)
{
	char b[NUM_BUFSZ] = "";

	if (isfinite(x))
		num_format(b, x);
	junit_property(f, letter, prefix, name, b);
}

/* The study's: its level, runs, pairs and gate; each candidate's ratio
 * and interval (named "B.ratio" ... where there are several). */
static void junit_properties(FILE *f, const struct study *s, const struct live *l)
{
	char g[160];
	int i, several = s->ncmp > 1;

	fputs("    <properties>\n", f);
	if (l->value)
		junit_property(f, 0, 0, "value", l->value);
	junit_num_property(f, 0, 0, "level", s->level);
	junit_num_property(f, 0, 0, "runs", (double)s->runs);
	junit_num_property(f, 0, 0, "pairs", (double)s->pairs_total);
	junit_property(f, 0, 0, "gate", gate_words(g, sizeof g, s, l));
	junit_num_property(f, 0, 0, "exit_status", l->exit_status);
	for (i = 0; i < s->ncmp; i++) {
		const struct cmp_result *c = &s->cmp[i];

		junit_num_property(f, c->cand, several, "ratio", c->ratio);
		junit_num_property(f, c->cand, several, "ci_lo", c->lo);
		junit_num_property(f, c->cand, several, "ci_hi", c->hi);
	}
	fputs("    </properties>\n", f);
}

/* One test case: the candidate's command; failed, skipped or passed as
 * the gate has it (lib/gate: what the exit status says), or an error
 * where the study failed; the sentence and pb-tint's finding beside. */
static void junit_case(FILE *f, const struct study *s, const struct live *l,
                       const struct cmp_result *c)
{
	const struct arm_result *a = study_arm(s, c->cand);
	char why[400];

	gate_why(why, sizeof why, s, l, c);
	fputs("    <testcase", f);
	xml_attr(f, "name", a && a->what ? a->what : "");
	fputs(" classname=\"pb-compare\">\n", f);
	if (s->failed) {
		fputs("      <error", f);
		xml_attr(f, "message", s->failed);
		fputs(" type=\"failed\"/>\n", f);
	} else if (gate_of(s, l, c) == GATE_FAILED) {
		fputs("      <failure", f);
		xml_attr(f, "message", why);
		fputs(" type=\"slower\"/>\n", f);
	} else if (gate_of(s, l, c) == GATE_OPEN) {
		fputs("      <skipped", f);
		xml_attr(f, "message", why);
		fputs("/>\n", f);
	}
	fputs("      <system-out>", f);
	xml_text(f, why);
	if (c->finding) {
		fputs("&#10;", f);
		xml_text(f, c->finding);
	}
	fputs("</system-out>\n    </testcase>\n", f);
}

/* What the test cases of a study count: tests, failures, skipped, errors. */
static void junit_counts(const struct study *s, const struct live *l, int n[4])
{
	int i;

	n[0] = s->narms ? s->ncmp : 1;
	n[1] = n[2] = 0;
	n[3] = s->failed ? n[0] : 0;
	for (i = 0; i < s->ncmp && !s->failed; i++) {
		enum gate_state g = gate_of(s, l, &s->cmp[i]);

		n[1] += g == GATE_FAILED;
		n[2] += g == GATE_OPEN;
	}
}

static void junit_suite(FILE *f, const struct study *s, const struct live *l)
{
	int n[4], i;

	junit_counts(s, l, n);
	fprintf(f, "  <testsuite name=\"pb-compare\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
	        "skipped=\"%d\"", n[0], n[1], n[3], n[2]);
	if (isfinite(l->wall_ns))
		fprintf(f, " time=\"%.3f\"", l->wall_ns / 1e9);
	if (is_timestamp(s->start))
		xml_attr(f, "timestamp", s->start);
	if (s->host)
		xml_attr(f, "hostname", s->host);
	fputs(">\n", f);
	junit_properties(f, s, l);
	for (i = 0; i < s->ncmp; i++)
		junit_case(f, s, l, &s->cmp[i]);
	if (!s->narms) {   /* a study of a scan that could not be made */
		fputs("    <testcase", f);
		xml_attr(f, "name", l->value ? l->value : "pb-compare");
		fputs(" classname=\"pb-compare\">\n      <error", f);
		xml_attr(f, "message", s->failed ? s->failed : "nothing was measured");
		fputs(" type=\"failed\"/>\n    </testcase>\n", f);
	}
	fputs("  </testsuite>\n", f);
}

void write_junit(FILE *f, const struct study *const *s, const struct live *const *l,
                 size_t n, const char *param)
{
	int total[4] = { 0, 0, 0, 0 }, k;
	double wall = 0;
	size_t i;

	(void)param;   /* each study's value is its suite's property */
	for (i = 0; i < n; i++) {
		int c[4];

		junit_counts(s[i], l[i], c);
		for (k = 0; k < 4; k++)
			total[k] += c[k];
		wall += l[i]->wall_ns;
	}
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", f);
	fprintf(f, "<testsuites name=\"pb-compare\" tests=\"%d\" failures=\"%d\" errors=\"%d\"",
	        total[0], total[1], total[3]);
	if (n && isfinite(wall))
		fprintf(f, " time=\"%.3f\"", wall / 1e9);
	fputs(">\n", f);
	for (i = 0; i < n; i++)
		junit_suite(f, s[i], l[i]);
	fputs("</testsuites>\n", f);
}
