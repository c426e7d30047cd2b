/* report: the HTML page of a study directory (pb-report(1)). */
#ifndef PB_REPORT_H
#define PB_REPORT_H

/* Write the page of dir to out (NULL: dir/report.html; "-": stdout),
 * making what dir lacks unless derive is 0; argv (argc words) is named
 * in the page's footer, and argv[0] finds the tools beside us. Exits
 * on an error, as the tools do. */
void report_write(const char *dir, const char *out, int derive, int argc, char **argv);

#endif
