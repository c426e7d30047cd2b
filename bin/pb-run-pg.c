/* pb-run's PostgreSQL executor: SQL over libpq, one fresh connection (a
 * fresh backend) per run, each observation one round trip of the script,
 * or of BEGIN; script; ROLLBACK with --rollback.
 * Every wait for the server goes through libpq's non-blocking calls and
 * poll(), with the --timeout deadline and the interrupt flag checked, so a
 * server that accepts and never answers, or a stopped backend, cannot
 * hang pb-run. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "pb-run-pq.h"

#include "clock.h"
#include "conninfo.h"
#include "err.h"
#include "out.h"
#include "pb-run.h"
#include "proc.h"
#include "stream.h"
#include "study.h"

/* Once a round trip has passed its deadline and is cancelled, the server
 * has this long to answer before the connection is given up. */
static const int64_t ANSWER_GRACE_NS = 2000000000;
/* The least time a connection attempt gets (libpq's own floor for
 * connect_timeout), whatever --timeout says. */
static const int64_t CONNECT_MIN_NS = 2000000000;

struct pg {
	const char *conninfo;
	PGconn *conn;
	int64_t timeout_ns;       /* --timeout, 0 = none */
	char *script[ORDER_ARMS_MAX];   /* what each arm sends */
	char *safe_conninfo;      /* password removed */
	char server_version[64];
};

/* Signals and poll: the handler (lib/proc.c) writes a byte here, so a
 * poll on the server's socket wakes up however the two race. */
static int wake_pipe[2] = { -1, -1 };

static void wake_on_interrupt(void)
{
	char b = 0;
	ssize_t r = write(wake_pipe[1], &b, 1);

	(void)r;
}

static void wake_init(void)
{
	int i;

	if (pipe(wake_pipe) < 0)
		die("pipe:");
	for (i = 0; i < 2; i++) {
		fcntl(wake_pipe[i], F_SETFD, FD_CLOEXEC);
		fcntl(wake_pipe[i], F_SETFL, O_NONBLOCK);
	}
	proc_on_interrupt = wake_on_interrupt;
}

static const char *signal_name(int sig)
{
	return sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP"
	                                                                             : "a signal";
}

enum { W_READY, W_DEADLINE, W_INTERRUPTED };

/* Wait until fd is ready for events, the deadline (clock_ns; 0 = none)
 * passes, or a signal comes. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd f[2] = { { fd, events, 0 }, { wake_pipe[0], POLLIN, 0 } };

	if (fd < 0)        /* no socket: libpq's next call says why */
		return W_READY;
	for (;;) {
		int ms = -1;

		if (proc_interrupted)
			return W_INTERRUPTED;
		if (deadline) {
			int64_t left = deadline - clock_ns();
			if (left <= 0)
				return W_DEADLINE;
			ms = left / 1000000 >= INT_MAX ? INT_MAX : (int)(left / 1000000) + 1;
		}
		if (poll(f, 2, ms) < 0 && errno != EINTR)
			die("poll:");
		if (f[0].revents)
			return W_READY;
	}
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
	PQconninfoOption *opts = pq.PQconninfoParse(conninfo, &err), *o;

	if (!opts) {
		char msg[512], *redacted = xstrdup(conninfo);
		int secret = conninfo_redact(redacted, conninfo);

		free(redacted);
		one_line(msg, sizeof msg, err ? err : "bad conninfo");
		pq.PQfreemem(err);
		/* libpq quotes the URI or a token of it, which may be the password. */
		if (secret)
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
	pq.PQconninfoFree(opts);
	return out;
}

/* Server notices (RAISE NOTICE, "terminating connection" warnings) would
 * go to stderr, where pb writes one line per failure. */
static void ignore_notice(void *arg, const char *message)
{
	(void)arg, (void)message;
}

/* connect_timeout's value in nanoseconds (0: not set, or 0 = none, as
 * libpq reads it); a usage error if it is not a whole number of seconds. */
static int64_t connect_timeout_ns(const char *val)
{
	char *end;
	long s;

	if (!val || !*val)
		return 0;
	errno = 0;
	s = strtol(val, &end, 10);
	while (*end == ' ' || *end == '\t' || *end == '\n')   /* as libpq allows */
		end++;
	if (errno || *end || end == val)
		die_usage("--pg: connect_timeout '%s' (of the conninfo, or PGCONNECT_TIMEOUT) "
		          "is not a whole number of seconds", val);
	if (s <= 0)
		return 0;
	return s > INT64_MAX / 1000000000 ? INT64_MAX / 2 : (int64_t)s * 1000000000;
}

/* A connect_timeout of the conninfo or of PGCONNECT_TIMEOUT that is not a
 * number is a usage error before any connection is opened (libpq opens
 * one at PQconnectStart, before its options can be read back). One from
 * a service file is found at the first connection. */
/* The value of connect_timeout among opts (a conninfo's, parsed), or
 * NULL when it is not set there. */
static const char *connect_timeout_of(const PQconninfoOption *opts)
{
	for (; opts && opts->keyword; opts++)
		if (strcmp(opts->keyword, "connect_timeout") == 0 && opts->val && *opts->val)
			return opts->val;
	return NULL;
}

static void check_connect_timeout(const char *conninfo)
{
	PQconninfoOption *opts = pq.PQconninfoParse(conninfo, NULL);
	const char *val = connect_timeout_of(opts);

	connect_timeout_ns(val ? val : getenv("PGCONNECT_TIMEOUT"));
	pq.PQconninfoFree(opts);
}

/* How long a connection attempt may take: connect_timeout of the conninfo
 * (or PGCONNECT_TIMEOUT) when set, else --timeout; at least 2 s either
 * way; 0 = no limit. libpq applies connect_timeout only in its blocking
 * calls, and per host: here it bounds the whole attempt. */
static int64_t connect_limit(const struct pg *p, PGconn *c, const char **source)
{
	PQconninfoOption *opts = pq.PQconninfo(c);
	int64_t ns = p->timeout_ns, set = connect_timeout_ns(connect_timeout_of(opts));

	*source = "--timeout";
	if (set > 0) {
		ns = set;
		*source = "connect_timeout";
	}
	pq.PQconninfoFree(opts);
	return ns > 0 && ns < CONNECT_MIN_NS ? CONNECT_MIN_NS : ns;
}

/* PQconnectPoll until the connection is made or has failed (W_READY),
 * or the deadline or a signal comes first. */
static int drive_connection(PGconn *c, int64_t deadline)
{
	PostgresPollingStatusType st = PGRES_POLLING_WRITING;   /* libpq's start */

	while (pq.PQstatus(c) != CONNECTION_BAD && st != PGRES_POLLING_OK &&
	       st != PGRES_POLLING_FAILED) {
		int w = wait_fd(pq.PQsocket(c), st == PGRES_POLLING_READING ? POLLIN : POLLOUT,
		                deadline);
		if (w != W_READY)
			return w;
		st = pq.PQconnectPoll(c);
	}
	return W_READY;
}

/* A connection, non-blocking from its start. NULL with msg on failure
 * (proc_interrupted set if a signal stopped it). */
static PGconn *connect_db(struct pg *p, char *msg, size_t n)
{
	const char *keys[] = { "dbname", "fallback_application_name", NULL };
	const char *vals[] = { p->conninfo, "pb-run", NULL };
	PGconn *c = pq.PQconnectStartParams(keys, vals, 1);
	const char *source;
	int64_t limit;
	char why[400];
	int w;

	if (!c)
		die("out of memory");
	limit = connect_limit(p, c, &source);
	w = drive_connection(c, limit ? clock_ns() + limit : 0);
	if (w == W_INTERRUPTED)
		snprintf(msg, n, "interrupted by %s while connecting to PostgreSQL",
		         signal_name(proc_interrupted));
	else if (w == W_DEADLINE)
		snprintf(msg, n, "cannot connect to PostgreSQL: no answer from the server "
		         "within %.6g s (%s)", (double)limit / 1e9, source);
	else if (pq.PQstatus(c) != CONNECTION_OK || pq.PQsetnonblocking(c, 1) != 0) {
		one_line(why, sizeof why, pq.PQerrorMessage(c));
		snprintf(msg, n, "cannot connect to PostgreSQL: %s", why);
	} else {
		pq.PQsetNoticeProcessor(c, ignore_notice, NULL);
		return c;
	}
	pq.PQfinish(c);
	return NULL;
}

/* Reap the child pid by the deadline, or kill it then. SIGCHLD is
 * blocked (by the caller), so that sigtimedwait sees it. */
static void reap_by(pid_t pid, int64_t deadline)
{
	sigset_t chld;
	int ws;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	while (waitpid(pid, &ws, WNOHANG) != pid) {
		int64_t left = deadline - clock_ns();
		struct timespec ts;

		if (left <= 0) {
			kill(pid, SIGKILL);
			while (waitpid(pid, &ws, 0) < 0 && errno == EINTR)
				;
			return;
		}
		ts.tv_sec = (time_t)(left / 1000000000);
		ts.tv_nsec = (long)(left % 1000000000);
		sigtimedwait(&chld, NULL, &ts);
	}
}

/* Ask the server to cancel the running statement, taking no longer than
 * the deadline. PQcancel blocks until the server has read the request,
 * which a server that does not answer never does: it runs in a child,
 * which is killed at the deadline (and by an alarm of its own, should
 * pb-run be killed first). */
static void cancel_by(PGconn *c, int64_t deadline)
{
	PGcancel *k = pq.PQgetCancel(c);
	sigset_t all, old, waiting;
	int64_t left = deadline - clock_ns();
	pid_t pid;

	if (!k)
		return;
	fflush(NULL);   /* the child's _exit flushes under valgrind (proc_floor_kib) */
	sigfillset(&all);
	sigprocmask(SIG_BLOCK, &all, &old);
	pid = fork();
	if (pid == 0) {
		char err[256];

		signal(SIGINT, SIG_IGN);
		signal(SIGTERM, SIG_IGN);
		signal(SIGHUP, SIG_IGN);
		signal(SIGALRM, SIG_DFL);
		sigdelset(&old, SIGALRM);
		sigprocmask(SIG_SETMASK, &old, NULL);
		alarm((unsigned)((left > 0 ? left : 0) / 1000000000) + 1);
		_exit(pq.PQcancel(k, err, sizeof err) ? 0 : 1);
	}
	waiting = old;
	sigaddset(&waiting, SIGCHLD);
	sigprocmask(SIG_SETMASK, &waiting, NULL);
	pq.PQfreeCancel(k);
	if (pid > 0)
		reap_by(pid, deadline);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

/* One round trip and how it went. */
struct trip {
	int64_t deadline;      /* clock_ns; 0 = none */
	PGresult *res;         /* the failed result, or the last one */
	int timed_out;         /* the deadline passed: cancelled */
	int gone;              /* the connection cannot be used again */
	int lost;              /* ... because it broke (PQerrorMessage says why) */
	int interrupted;
	char committed[32];    /* the command tag of a COMMIT in the script */
};

/* The trip's deadline passed: the statement is cancelled and the server
 * has ANSWER_GRACE_NS more; when that has passed too, the trip is over. */
static int deadline_passed(PGconn *c, struct trip *t)
{
	if (t->timed_out) {
		t->gone = 1;
		return -1;
	}
	t->timed_out = 1;
	t->deadline = clock_ns() + ANSWER_GRACE_NS;
	cancel_by(c, t->deadline);
	return 0;
}

/* A signal: the statement is stopped on the server too. */
static int interrupt_trip(PGconn *c, struct trip *t)
{
	t->interrupted = t->gone = 1;
	cancel_by(c, clock_ns() + ANSWER_GRACE_NS);
	return -1;
}

/* Wait for the server within the trip's time. */
static int await_server(PGconn *c, struct trip *t, short events)
{
	for (;;) {
		int w = wait_fd(pq.PQsocket(c), events, t->deadline);

		if (w == W_READY)
			return 0;
		if (w == W_INTERRUPTED)
			return interrupt_trip(c, t);
		if (deadline_passed(c, t) < 0)
			return -1;
	}
}

/* Between reads that did not wait: the deadline and signals count there
 * too, as a server may keep results or COPY data coming without a pause. */
static int keep_going(PGconn *c, struct trip *t)
{
	if (proc_interrupted)
		return interrupt_trip(c, t);
	if (t->deadline && clock_ns() >= t->deadline)
		return deadline_passed(c, t);
	return 0;
}

static int input(PGconn *c, struct trip *t)
{
	if (pq.PQconsumeInput(c))
		return 0;
	t->gone = t->lost = 1;
	return -1;
}

/* Send what libpq holds; reading too, as libpq asks, so that a server
 * answering early (an error) cannot deadlock it. */
static int flush_all(PGconn *c, struct trip *t)
{
	int f;

	while ((f = pq.PQflush(c)) == 1)
		if (await_server(c, t, POLLIN | POLLOUT) < 0 || input(c, t) < 0)
			return -1;
	if (f < 0)
		t->gone = t->lost = 1;
	return f < 0 ? -1 : 0;
}

/* Wait until PQgetResult will not block. */
static int await_result(PGconn *c, struct trip *t)
{
	while (pq.PQisBusy(c))
		if (await_server(c, t, POLLIN) < 0 || input(c, t) < 0)
			return -1;
	return 0;
}

/* COPY TO STDOUT: the data is read and dropped. */
static int drain_copy_out(PGconn *c, struct trip *t)
{
	char *buf;
	int n;

	while ((n = pq.PQgetCopyData(c, &buf, 1)) != -1) {
		if (n == -2) {
			t->gone = t->lost = 1;
			return -1;
		}
		if (n > 0) {
			pq.PQfreemem(buf);
			if (keep_going(c, t) < 0)
				return -1;
		} else if (await_server(c, t, POLLIN) < 0 || input(c, t) < 0) {
			return -1;
		}
	}
	return 0;
}

/* COPY FROM STDIN: pb-run has no data for it; the copy is ended with an
 * error (the server reports it as 57014, the code of a cancelled
 * statement; a timeout is told by the deadline, not by that code). */
static int refuse_copy_in(PGconn *c, struct trip *t)
{
	int r;

	while ((r = pq.PQputCopyEnd(c, "pb-run sends no COPY data")) == 0)
		if (await_server(c, t, POLLOUT) < 0)
			return -1;
	if (r < 0) {
		t->gone = t->lost = 1;
		return -1;
	}
	return flush_all(c, t);
}

static void keep_result(struct trip *t, PGresult *r)
{
	ExecStatusType s = pq.PQresultStatus(r);
	const char *tag = pq.PQcmdStatus(r);

	/* COMMIT, END, COMMIT AND CHAIN, COMMIT PREPARED; PREPARE TRANSACTION
	 * ends the transaction too. (Procedures and DO blocks cannot commit
	 * inside a transaction block: those fail.) */
	if (!t->committed[0] && (strncmp(tag, "COMMIT", 6) == 0 ||
	                         strcmp(tag, "PREPARE TRANSACTION") == 0))
		snprintf(t->committed, sizeof t->committed, "%s", tag);
	if (t->res && pq.PQresultStatus(t->res) == PGRES_FATAL_ERROR && s != PGRES_FATAL_ERROR) {
		pq.PQclear(r);   /* the first error is the one to report */
		return;
	}
	pq.PQclear(t->res);
	t->res = r;
}

/* Send sql and read every result (through COPY) up to the end, within the
 * deadline. */
static void round_trip(PGconn *c, const char *sql, int64_t deadline, struct trip *t)
{
	PGresult *r;

	memset(t, 0, sizeof *t);
	t->deadline = deadline;
	if (!pq.PQsendQuery(c, sql)) {
		t->gone = t->lost = 1;
		return;
	}
	if (flush_all(c, t) < 0)
		return;
	while (await_result(c, t) == 0 && (r = pq.PQgetResult(c)) != NULL) {
		ExecStatusType s = pq.PQresultStatus(r);

		keep_result(t, r);
		if (keep_going(c, t) < 0)
			return;
		if ((s == PGRES_COPY_OUT && drain_copy_out(c, t) < 0) ||
		    (s == PGRES_COPY_IN && refuse_copy_in(c, t) < 0))
			return;
		if (s == PGRES_COPY_BOTH) {   /* replication: nothing pb-run speaks */
			t->gone = 1;
			return;
		}
	}
	if (pq.PQstatus(c) == CONNECTION_BAD)   /* libpq's last result said so */
		t->gone = t->lost = 1;
}

static int ok_status(ExecStatusType s)
{
	return s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK || s == PGRES_EMPTY_QUERY ||
	       s == PGRES_COPY_OUT || s == PGRES_COPY_IN;
}

static int trip_ok(const struct trip *t)
{
	return !t->gone && !t->timed_out && t->res && ok_status(pq.PQresultStatus(t->res));
}

/* SQLSTATE and primary message of a failed result, on one line. */
static void describe_error(PGconn *c, PGresult *r, char *msg, size_t n)
{
	const char *state = r ? pq.PQresultErrorField(r, PG_DIAG_SQLSTATE) : NULL;
	const char *text = r ? pq.PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY) : NULL;
	char line[400];

	one_line(line, sizeof line, text ? text : pq.PQerrorMessage(c));
	snprintf(msg, n, "SQL error %s: %s", state ? state : "(no SQLSTATE)", line);
}

/* Why a trip that is not ok failed, for messages. */
static void describe_trip(PGconn *c, const struct trip *t, int64_t timeout_ns,
                          char *msg, size_t n)
{
	char why[400];

	if (t->interrupted)
		snprintf(msg, n, "interrupted by %s", signal_name(proc_interrupted));
	else if (t->timed_out && t->gone)
		snprintf(msg, n, "timed out after %.6g s (--timeout), and the server did not "
		         "answer the cancel within %.6g s: connection closed",
		         (double)timeout_ns / 1e9, (double)ANSWER_GRACE_NS / 1e9);
	else if (t->timed_out)
		snprintf(msg, n, "timed out after %.6g s (--timeout): cancelled",
		         (double)timeout_ns / 1e9);
	else if (t->lost) {
		one_line(why, sizeof why, pq.PQerrorMessage(c));
		snprintf(msg, n, "connection lost: %s", why);
	} else if (t->gone)
		snprintf(msg, n, "the server answered with COPY BOTH (replication), "
		         "which pb-run does not speak");
	else
		describe_error(c, t->res, msg, n);
}

static int64_t deadline_after(int64_t start, int64_t timeout_ns)
{
	return timeout_ns ? start + timeout_ns : 0;
}

/* End a transaction the script left open after an error, so that the
 * next observation starts clean. -1 when the connection is unusable. */
static int end_open_transaction(struct pg *p)
{
	PGTransactionStatusType s = pq.PQtransactionStatus(p->conn);
	struct trip t;
	int ok;

	if (s == PQTRANS_IDLE)
		return 0;
	if (s != PQTRANS_INERROR && s != PQTRANS_INTRANS)
		return -1;
	round_trip(p->conn, "ROLLBACK", deadline_after(clock_ns(), p->timeout_ns), &t);
	ok = trip_ok(&t) && pq.PQtransactionStatus(p->conn) == PQTRANS_IDLE;
	pq.PQclear(t.res);
	return ok ? 0 : -1;
}

/* Where a script may leave the session: no transaction open. */
static const char *transaction_left_open(PGconn *c)
{
	PGTransactionStatusType s = pq.PQtransactionStatus(c);

	return s == PQTRANS_IDLE ? NULL : s == PQTRANS_INTRANS ? "open" : "in an unknown state";
}

static int run_setup_sql(struct pg *p, const char *sql, char *msg, size_t n)
{
	struct trip t;
	char why[400];
	const char *open;
	int ok;

	round_trip(p->conn, sql, deadline_after(clock_ns(), p->timeout_ns), &t);
	ok = trip_ok(&t);
	if (!ok) {
		describe_trip(p->conn, &t, p->timeout_ns, why, sizeof why);
		snprintf(msg, n, "--setup-sql failed: %s", why);
	} else if ((open = transaction_left_open(p->conn)) != NULL) {
		snprintf(msg, n, "--setup-sql left a transaction %s: the warm-up would run "
		         "inside it; end the transaction in the setup", open);
		ok = 0;
	}
	pq.PQclear(t.res);
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
	if (c->setup_sql && run_setup_sql(p, c->setup_sql, msg, n) < 0) {
		pq.PQfinish(p->conn);
		p->conn = NULL;
		return -1;
	}
	return 0;
}

static void pg_end(struct executor *ex, const struct config *c)
{
	struct pg *p = ex->state;

	(void)c;
	if (p->conn)
		pq.PQfinish(p->conn);
	p->conn = NULL;
}

/* A failed observation: status and message; after an SQL error the
 * transaction the script left is rolled back (outside the timed window). */
static void failed(struct pg *p, const struct config *c, struct trip *t, struct obs *o)
{
	describe_trip(p->conn, t, c->timeout_ns, o->msg, sizeof o->msg);
	o->status = t->interrupted ? ST_INTERRUPTED : t->timed_out ? ST_TIMEOUT
	          : t->lost ? ST_CONN_LOST : ST_SQL_ERROR;
	o->fatal = t->gone;
	if (t->gone)
		return;
	if (end_open_transaction(p) < 0) {
		o->fatal = 1;
		strncat(o->msg, "; the transaction could not be rolled back: connection closed",
		        sizeof o->msg - strlen(o->msg) - 1);
	} else if (c->rollback) {
		strncat(o->msg, " (transaction rolled back)", sizeof o->msg - strlen(o->msg) - 1);
	}
}

static void pg_work(struct executor *ex, const struct config *c, int arm, long run,
                    long pair, struct obs *o)
{
	struct pg *p = ex->state;
	struct trip t;
	const char *open;

	(void)run, (void)pair;
	o->t0 = clock_ns();
	round_trip(p->conn, p->script[arm], deadline_after(o->t0, c->timeout_ns), &t);
	o->t1 = clock_ns();
	if (c->rollback && t.committed[0] && !t.interrupted) {
		/* the study's premise is broken: stop, even with --ignore-failure */
		o->status = ST_SQL_ERROR;
		o->stop = 1;
		snprintf(o->msg, sizeof o->msg, "--rollback, but the script ran %s%s: its "
		         "changes are committed, not rolled back; take the transaction "
		         "control out of the script", t.committed,
		         strcmp(t.committed, "COMMIT") == 0 ? " (COMMIT, END or COMMIT AND CHAIN)"
		                                            : "");
	} else if (!trip_ok(&t)) {
		failed(p, c, &t, o);
	} else if ((open = transaction_left_open(p->conn)) != NULL) {
		o->status = ST_SQL_ERROR;
		o->stop = 1;
		snprintf(o->msg, sizeof o->msg, "the script left a transaction %s (a BEGIN "
		         "without COMMIT?): the next observation, of either arm, would run "
		         "inside it; end the transaction in the script, or use --rollback "
		         "without it", open);
	}
	pq.PQclear(t.res);
}

static void pg_metadata(struct executor *ex, const struct config *c)
{
	struct pg *p = ex->state;
	char key[8];
	int arm;

	if (*p->safe_conninfo)
		out_meta("conninfo", "%s (password, if any, removed)", p->safe_conninfo);
	else
		out_meta("conninfo", "(empty: libpq defaults and PG* environment variables)");
	out_meta("server_version", "%s", p->server_version);
	for (arm = 0; arm < c->arms; arm++) {
		study_arm_key(key, "sql_", arm);
		out_meta(key, "%s", c->sql[arm]);
	}
	out_meta("rollback", "%s", c->rollback ? "yes: each observation is BEGIN; "
	         "script; ROLLBACK, all timed" : "no");
	if (c->setup_sql)
		out_meta("setup_sql", "%s", c->setup_sql);
}

static pid_t pg_pid(struct executor *ex)
{
	struct pg *p = ex->state;

	return p->conn ? pq.PQbackendPID(p->conn) : 0;
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

static const struct executor pg_ops = {
	"pg",
	"the round trip of the script (with BEGIN and ROLLBACK under --rollback): "
	"from just before it is sent to just after its last result arrives",
	NULL, pg_begin, pg_work, pg_end, pg_metadata, pg_pid, NULL, NULL, NULL, NULL,
};

void exec_pg_init(struct executor *ex, const struct config *c)
{
	static const char note[] = " (password, if any, removed)";
	struct pg *p = xcalloc(1, sizeof *p);
	char msg[512];
	const char *v;
	PGconn *probe;
	int arm;

	pq_load();
	p->conninfo = c->pg;
	p->timeout_ns = c->timeout_ns;
	p->safe_conninfo = safe_conninfo(c->pg);
	if (out_meta_len("conninfo", p->safe_conninfo) + strlen(note) > STREAM_LINE_MAX)
		die("--pg: the conninfo is too long for one metadata line of the stream "
		    "(%u bytes)", STREAM_LINE_MAX);
	for (arm = 0; arm < c->arms; arm++)
		p->script[arm] = script_for(c->sql[arm], c->rollback);
	check_connect_timeout(c->pg);
	wake_init();
	/* A probe connection: fail before any output, learn the version. */
	probe = connect_db(p, msg, sizeof msg);
	if (!probe && proc_interrupted) {
		fprintf(stderr, "%s: %s\n", pb_prog, msg);
		exit(128 + (int)proc_interrupted);
	}
	if (!probe)
		die("%s", msg);
	v = pq.PQparameterStatus(probe, "server_version");
	snprintf(p->server_version, sizeof p->server_version, "%s", v ? v : "unknown");
	pq.PQfinish(probe);
	*ex = pg_ops;
	ex->state = p;
}
