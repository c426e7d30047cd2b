/* libpq, loaded when --pg asks for it (dlopen), not at pb-run's start:
 * linked, it maps OpenSSL, Kerberos and LDAP into every pb-run, whose
 * relocated pages a forked command starts with (7.7 MiB where 0.8 is
 * pb-run's own), so no command could be measured below them. pq holds
 * the functions pb-run-pg.c calls, typed as libpq-fe.h declares them. */
#ifndef PB_RUN_PQ_H
#define PB_RUN_PQ_H

#include <libpq-fe.h>

#define PQ_FUNCTIONS(X) \
	X(PQbackendPID) X(PQcancel) X(PQclear) X(PQcmdStatus) X(PQconnectPoll) \
	X(PQconnectStartParams) X(PQconninfo) X(PQconninfoFree) X(PQconninfoParse) \
	X(PQconsumeInput) X(PQerrorMessage) X(PQfinish) X(PQflush) X(PQfreeCancel) \
	X(PQfreemem) X(PQgetCancel) X(PQgetCopyData) X(PQgetResult) X(PQisBusy) \
	X(PQparameterStatus) X(PQputCopyEnd) X(PQresultErrorField) X(PQresultStatus) \
	X(PQsendQuery) X(PQsetNoticeProcessor) X(PQsetnonblocking) X(PQsocket) X(PQstatus) \
	X(PQtransactionStatus)

#define PQ_POINTER(name) __typeof__(name) *name;
struct pq_api {
	PQ_FUNCTIONS(PQ_POINTER)
};
#undef PQ_POINTER
extern struct pq_api pq;

/* Load libpq and fill pq, or die with one line naming the package. */
void pq_load(void);

#endif
