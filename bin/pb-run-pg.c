/* pb-run's PostgreSQL executor: SQL over libpq, one fresh connection (a
 * fresh backend) per run, each observation one round trip of the script,
 * or of BEGIN; script; ROLLBACK with --rollback. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "clock.h"
#include "err.h"
#include "pb-run.h"
#include "proc.h"
#include "stream.h"

struct pg {
	const char *conninfo;
	PGconn *conn;
	PGcancel *volatile cancel;
	char *script[2];          /* what each arm sends */
	char *safe_conninfo;      /* password removed */
	char server_version[64];
};

static struct pg *the_pg;     /* for the signal handler */

/* Called from the SIGINT/SIGTERM handler: PQcancel is signal-safe. */
static void cancel_query(void)
{
	char err[256];

	if (the_pg && the_pg->cancel)
		PQcancel(the_pg->cancel, err, sizeof err);
}

/* libpq's messages run over several lines; pb's are one line: line ends
 * become "; ", runs of blanks one space. */
static void one_line(char *dst, size_t n, const char *src)
{
	size_t i = 0;

	for (; *src && i + 1 < n; src++) {
		int blank = *src == ' ' || *src == '\t' || *src == '\r';

		if (*src == '\n') {
			while (i > 0 && dst[i - 1] == ' ')
				i--;
			if (src[1] && i > 0 && i + 3 < n)
				dst[i++] = ';', dst[i++] = ' ';
			continue;
		}
		if (blank && (i == 0 || dst[i - 1] == ' '))
			continue;
		dst[i++] = blank ? ' ' : *src;
	}
	while (i > 0 && dst[i - 1] == ' ')
		i--;
	dst[i] = '\0';
}

static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s);

	xgrow(buf, cap, *len + n + 1, 1);
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

/* The conninfo as keyword='value' pairs, without the password. */
static char *safe_conninfo(const char *conninfo)
{
	char *err = NULL, *out = NULL;
	size_t len = 0, cap = 0;
	PQconninfoOption *opts = PQconninfoParse(conninfo, &err), *o;

	if (!opts) {
		char msg[512];
		one_line(msg, sizeof msg, err ? err : "bad conninfo");
		PQfreemem(err);
		/* libpq quotes the URI or a token of it, which may be the password. */
		if (strstr(conninfo, "password") || (strstr(conninfo, "://") && strchr(conninfo, '@')))
			die_usage("--pg: malformed conninfo (libpq's message not shown: "
			          "it may quote the password)");
		die_usage("--pg: %s", msg);
	}
	append(&out, &len, &cap, "");
	for (o = opts; o->keyword; o++) {
		const char *v;

		if (!o->val || strcmp(o->keyword, "password") == 0 ||
		    strcmp(o->keyword, "sslpassword") == 0)
			continue;
		if (len)
			append(&out, &len, &cap, " ");
		append(&out, &len, &cap, o->keyword);
		append(&out, &len, &cap, "='");
		for (v = o->val; *v; v++) {
			char c[3] = { *v, 0, 0 };
			if (*v == '\'' || *v == '\\')
				c[0] = '\\', c[1] = *v;
			append(&out, &len, &cap, c);
		}
		append(&out, &len, &cap, "'");
	}
	PQconninfoFree(opts);
	return out;
}

/* Server notices (RAISE NOTICE, "terminating connection" warnings) would
 * go to stderr, where pb writes one line per failure. */
static void ignore_notice(void *arg, const char *message)
{
	(void)arg, (void)message;
}

static PGconn *connect_db(struct pg *p, char *msg, size_t n)
{
	const char *keys[] = { "dbname", "fallback_application_name", NULL };
	const char *vals[] = { p->conninfo, "pb-run", NULL };
	PGconn *c = PQconnectdbParams(keys, vals, 1);

	if (PQstatus(c) != CONNECTION_OK) {
		char why[400];
		one_line(why, sizeof why, PQerrorMessage(c));
		snprintf(msg, n, "cannot connect to PostgreSQL: %s", why);
		PQfinish(c);
		return NULL;
	}
	PQsetNoticeProcessor(c, ignore_notice, NULL);
	return c;
}

/* SQLSTATE and primary message of a failed result, on one line. */
static void describe_error(PGconn *c, PGresult *r, char *msg, size_t n)
{
	const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *text = r ? PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char line[400];

	one_line(line, sizeof line, text ? text : PQerrorMessage(c));
	snprintf(msg, n, "SQL error %s: %s", state ? state : "(no SQLSTATE)", line);
}

static int ok_status(ExecStatusType s)
{
	return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY ||
	       s == PGRES_COPY_OUT || s == PGRES_COPY_IN;
}

/* Set when the last script met COPY FROM STDIN, which pb-run refuses by
 * ending the copy with an error (the server reports it as 57014, the
 * code of a cancelled statement, so it must not pass for a timeout). */
static int refused_copy_in;

/* PQexec, carried on through COPY: the data of COPY TO STDOUT is read and
 * dropped, COPY FROM STDIN gets none and fails. PQexec stops at a COPY,
 * and left there the connection would answer PQgetResult for ever. */
static PGresult *exec_script(PGconn *c, const char *sql)
{
	PGresult *r = PQexec(c, sql), *next;
	char *buf;

	refused_copy_in = 0;
	for (;;) {
		ExecStatusType s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;

		if (s == PGRES_COPY_OUT)
			while (PQgetCopyData(c, &buf, 0) > 0)
				PQfreemem(buf);
		else if (s == PGRES_COPY_IN)
			refused_copy_in = 1, PQputCopyEnd(c, "pb-run sends no COPY data");
		else
			return r;
		PQclear(r);
		r = NULL;
		while ((next = PQgetResult(c)) != NULL) {
			PQclear(r);
			r = next;
			s = PQresultStatus(r);
			if (s == PGRES_COPY_IN || s == PGRES_COPY_OUT || s == PGRES_COPY_BOTH ||
			    PQstatus(c) == CONNECTION_BAD)
				break;
		}
	}
}

static int run_setup_sql(PGconn *c, const char *what, const char *sql, char *msg, size_t n)
{
	PGresult *r = exec_script(c, sql);
	int ok = r && ok_status(PQresultStatus(r));

	if (!ok) {
		char why[400];
		describe_error(c, r, why, sizeof why);
		snprintf(msg, n, "%s failed: %s", what, why);
	}
	PQclear(r);
	return ok ? 0 : -1;
}

static int pg_begin(struct executor *ex, const struct config *c, long run,
                    char *msg, size_t n)
{
	struct pg *p = ex->state;

	(void)run;
	p->conn = connect_db(p, msg, n);
	if (!p->conn)
		return -1;
	if (c->timeout_ns) {   /* --timeout: the server cancels a long statement */
		char set[64];
		snprintf(set, sizeof set, "SET statement_timeout = %lld",
		         (long long)((c->timeout_ns + 999999) / 1000000));
		if (run_setup_sql(p->conn, "setting statement_timeout for --timeout", set, msg, n) < 0)
			goto fail;
	}
	if (c->setup_sql && run_setup_sql(p->conn, "--setup-sql", c->setup_sql, msg, n) < 0)
		goto fail;
	p->cancel = PQgetCancel(p->conn);
	return 0;
fail:
	PQfinish(p->conn);
	p->conn = NULL;
	return -1;
}

static void pg_end(struct executor *ex, const struct config *c)
{
	struct pg *p = ex->state;
	PGcancel *cancel = p->cancel;

	(void)c;
	p->cancel = NULL;
	if (cancel)
		PQfreeCancel(cancel);
	if (p->conn)
		PQfinish(p->conn);
	p->conn = NULL;
}

/* After a failed script inside BEGIN ... ROLLBACK the transaction is in an
 * error state; end it so the next observation starts clean. */
static void end_open_transaction(PGconn *c)
{
	PGTransactionStatusType t = PQtransactionStatus(c);

	if (t == PQTRANS_INERROR || t == PQTRANS_INTRANS)
		PQclear(PQexec(c, "ROLLBACK"));
}

static void pg_work(struct executor *ex, const struct config *c, int arm, long run,
                    long pair, struct obs *o)
{
	struct pg *p = ex->state;
	PGresult *r;
	ExecStatusType s;

	(void)run, (void)pair;
	o->t0 = clock_ns();
	r = exec_script(p->conn, p->script[arm]);
	o->t1 = clock_ns();
	s = r ? PQresultStatus(r) : PGRES_FATAL_ERROR;
	if (ok_status(s)) {
		PQclear(r);
		return;
	}
	if (proc_interrupted) {
		PQclear(r);
		o->status = ST_INTERRUPTED;
		return;
	}
	if (PQstatus(p->conn) != CONNECTION_OK) {
		char why[400];
		one_line(why, sizeof why, PQerrorMessage(p->conn));
		o->status = ST_CONN_LOST;
		o->fatal = 1;
		snprintf(o->msg, sizeof o->msg, "connection lost: %s", why);
	} else {
		const char *state = r ? PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;

		describe_error(p->conn, r, o->msg, sizeof o->msg);
		o->status = ST_SQL_ERROR;
		if (c->timeout_ns && state && strcmp(state, "57014") == 0 && !refused_copy_in) {
			o->status = ST_TIMEOUT;
			snprintf(o->msg, sizeof o->msg, "statement timed out after %.6g s "
			         "(statement_timeout, SQLSTATE 57014)", (double)c->timeout_ns / 1e9);
		}
		end_open_transaction(p->conn);
		if (c->rollback)
			strncat(o->msg, " (transaction rolled back)",
			        sizeof o->msg - strlen(o->msg) - 1);
	}
	PQclear(r);
}

static void pg_metadata(struct executor *ex, const struct config *c)
{
	struct pg *p = ex->state;

	if (*p->safe_conninfo)
		out_meta("conninfo", "%s (password, if any, removed)", p->safe_conninfo);
	else
		out_meta("conninfo", "(empty: libpq defaults and PG* environment variables)");
	out_meta("server_version", "%s", p->server_version);
	out_meta("sql_a", "%s", c->sql[0]);
	out_meta("sql_b", "%s", c->sql[1]);
	out_meta("rollback", "%s", c->rollback ? "yes: each observation is BEGIN; "
	         "script; ROLLBACK, all timed" : "no");
	if (c->setup_sql)
		out_meta("setup_sql", "%s", c->setup_sql);
}

static pid_t pg_pid(struct executor *ex)
{
	struct pg *p = ex->state;

	return p->conn ? PQbackendPID(p->conn) : 0;
}

/* One round trip per observation: with --rollback the script travels
 * wrapped in one simple-query message. Newlines keep a trailing "--"
 * comment in the script from swallowing the ROLLBACK. */
static char *script_for(const char *sql, int rollback)
{
	size_t n = strlen(sql) + 32;
	char *s = xmalloc(n);

	if (rollback)
		snprintf(s, n, "BEGIN;\n%s\n;ROLLBACK", sql);
	else
		snprintf(s, n, "%s", sql);
	return s;
}

/* The provenance line repeats argv: give it the conninfo without its
 * password ("--pg X" or "--pg=X"). */
static void redact_argv(const char *conninfo, const char *safe)
{
	char **v = xmalloc(((size_t)pb_argc + 1) * sizeof *v);
	int i;

	for (i = 0; i < pb_argc; i++) {
		const char *a = pb_argv[i];

		v[i] = pb_argv[i];
		if (a == conninfo) {
			v[i] = (char *)safe;
		} else if (conninfo > a && conninfo <= a + strlen(a)) {
			size_t n = (size_t)(conninfo - a) + strlen(safe) + 1;
			v[i] = xmalloc(n);
			snprintf(v[i], n, "%.*s%s", (int)(conninfo - a), a, safe);
		}
	}
	v[pb_argc] = NULL;
	pb_argv = v;
}

static const struct executor pg_ops = {
	"pg",
	"the round trip of the script (with BEGIN and ROLLBACK under --rollback): "
	"from just before it is sent to just after its last result arrives",
	NULL, pg_begin, pg_work, pg_end, pg_metadata, pg_pid,
};

void exec_pg_init(struct executor *ex, const struct config *c)
{
	struct pg *p = xcalloc(1, sizeof *p);
	char msg[512];
	const char *v;
	PGconn *probe;

	p->conninfo = c->pg;
	p->safe_conninfo = safe_conninfo(c->pg);
	redact_argv(c->pg, p->safe_conninfo);
	p->script[0] = script_for(c->sql[0], c->rollback);
	p->script[1] = script_for(c->sql[1], c->rollback);
	/* A probe connection: fail before any output, learn the version. */
	probe = connect_db(p, msg, sizeof msg);
	if (!probe)
		die("%s", msg);
	v = PQparameterStatus(probe, "server_version");
	snprintf(p->server_version, sizeof p->server_version, "%s", v ? v : "unknown");
	PQfinish(probe);
	the_pg = p;
	proc_on_interrupt = cancel_query;
	*ex = pg_ops;
	ex->state = p;
}

