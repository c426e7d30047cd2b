/* conninfo: a libpq connection string without its passwords, for the lines
 * pb writes and for what ps shows. Pure C (every tool links lib/, only
 * pb-run links libpq): the parse follows libpq's own, so that whatever
 * libpq would take as a password is found, in either form:
 *   keyword=value pairs: each pair whose keyword contains "password"
 *     (password, sslpassword; any case), the value bare or '...' quoted,
 *     with \ escapes; a pair libpq would refuse (no "=") is removed with
 *     the rest of the string;
 *   postgresql:// or postgres:// URIs: the ":password" of the user info,
 *     and each query parameter whose percent-decoded keyword contains
 *     "password" (or does not decode); a URI libpq would refuse keeps
 *     only its scheme.
 * Nothing else changes: the rest is the conninfo as written. */
#ifndef PB_CONNINFO_H
#define PB_CONNINFO_H

/* Write the redacted conninfo to dst, which may be conninfo itself and
 * needs strlen(conninfo) + 1 bytes: the result is never longer. Returns 1
 * when something was removed, else 0 (dst is then conninfo unchanged). */
int conninfo_redact(char *dst, const char *conninfo);

/* Redact conninfo in place and zero the bytes it no longer uses: for an
 * argument in argv, so that ps and /proc/PID/cmdline stop showing the
 * password (the provenance line, made from argv, then shows the rest). */
void conninfo_scrub(char *conninfo);

#endif
