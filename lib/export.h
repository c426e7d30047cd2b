/* export: what a script or a CI system reads of studies read back
 * (lib/studydir): CSV, JSON and JUnit XML, every digit (lib/num). */
#ifndef PB_EXPORT_H
#define PB_EXPORT_H

#include <stdio.h>

#include "studydir.h"

void write_csv(FILE *f, const struct study *const *s, const struct live *const *l,
               size_t n, const char *param);
void write_json(FILE *f, const struct study *const *s, const struct live *const *l,
                size_t n, const char *param);
/* One <testsuite> per study in <testsuites>, one <testcase> per
 * candidate: passed, <failure> or <skipped> as lib/gate has it. */
void write_junit(FILE *f, const struct study *const *s, const struct live *const *l,
                 size_t n, const char *param);
#endif
