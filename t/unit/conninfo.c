/* Unit tests of lib/conninfo.c: each spelling of a password libpq reads
 * is removed, and nothing else changes. What libpq itself reads from the
 * results is checked by t/0720-run-pg-secrets.t. */
#include <stdio.h>
#include <string.h>

#include "conninfo.h"
#include "tap.h"

static void redacts(const char *in, const char *want, int want_removed)
{
	char out[512], inplace[512];
	int removed = conninfo_redact(out, in);

	snprintf(inplace, sizeof inplace, "%s", in);
	conninfo_redact(inplace, inplace);
	if (!ok(strcmp(out, want) == 0 && removed == want_removed && strcmp(inplace, want) == 0,
	        "'%s'", in))
		fprintf(stderr, "# got '%s' (%d), in place '%s'; want '%s' (%d)\n", out, removed,
		        inplace, want, want_removed);
}

int main(void)
{
	char argv1[] = "user=u password=sekrit dbname=d";
	size_t i;

	/* keyword=value */
	redacts("", "", 0);
	redacts("user=u dbname=d", "user=u dbname=d", 0);
	redacts("  host = /tmp   user=u  ", "  host = /tmp   user=u  ", 0);
	redacts("password=sekrit", "", 1);
	redacts("user=u password=sekrit dbname=d", "user=u dbname=d", 1);
	redacts("password=sekrit user=u", "user=u", 1);
	redacts("user=u password = sekrit", "user=u", 1);
	redacts("user=u password='a b' dbname=d", "user=u dbname=d", 1);
	redacts("user=u password='it\\'s a b' dbname=d", "user=u dbname=d", 1);
	redacts("user=u password=a\\ b dbname=d", "user=u dbname=d", 1);
	redacts("user=u password='unterminated dbname=d", "user=u", 1);
	redacts("user=u sslpassword=k dbname=d", "user=u dbname=d", 1);
	redacts("user=u PASSWORD=k", "user=u", 1);
	redacts("user='pass word=x' dbname=d", "user='pass word=x' dbname=d", 0);
	redacts("password=a password=b", "", 1);
	redacts("user=u password", "user=u", 1);
	redacts("host", "host", 0);
	/* a URI libpq does not know (upper case) is a keyword it refuses */
	redacts("POSTGRESQL://u:sekrit@h/d?x=y", "", 1);
	redacts("dbname=d POSTGRES://u:sekrit@h", "dbname=d", 1);
	/* URIs */
	redacts("postgresql://", "postgresql://", 0);
	redacts("postgresql://u@h/d", "postgresql://u@h/d", 0);
	redacts("postgresql://u:sekrit@h/d", "postgresql://u@h/d", 1);
	redacts("postgres://u:sekrit@h:5432/d", "postgres://u@h:5432/d", 1);
	redacts("postgresql://:sekrit@/d", "postgresql://@/d", 1);
	redacts("postgresql://u:se:k@r?it@h/d", "postgresql://u@r", 1);
	redacts("postgresql://h/d?password=sekrit", "postgresql://h/d", 1);
	redacts("postgresql://h/d?user=u&password=sekrit", "postgresql://h/d?user=u", 1);
	redacts("postgresql://h/d?password=sekrit&user=u", "postgresql://h/d?user=u", 1);
	redacts("postgresql://h/d?a=1&password=s&b=2&sslpassword=t", "postgresql://h/d?a=1&b=2", 1);
	redacts("postgresql://h/d?pass%77ord=sekrit&a=1", "postgresql://h/d?a=1", 1);
	redacts("postgresql://h/d?pass%7word=sekrit&a=1", "postgresql://h/d?a=1", 1);
	redacts("postgresql:///d?host=/tmp&port=5432", "postgresql:///d?host=/tmp&port=5432", 0);
	redacts("postgresql://h?", "postgresql://h?", 0);
	redacts("postgresql://u:p@h1:1,h2:2/d?password=x",
	        "postgresql://u@h1:1,h2:2/d", 1);
	redacts("postgresql://[::1]:5432/d?password=x", "postgresql://[::1]:5432/d", 1);
	redacts("postgresql://[::1/d?password=x", "postgresql://", 1);
	redacts("postgresql://[::1]x/d", "postgresql://", 1);
	/* scrub: in place, the bytes after the result zeroed */
	conninfo_scrub(argv1);
	for (i = strlen(argv1); i < sizeof argv1 && argv1[i] == '\0'; i++)
		;
	ok(strcmp(argv1, "user=u dbname=d") == 0 && i == sizeof argv1,
	   "scrub: redacted in place, the rest zeroed");
	return done_testing();
}
