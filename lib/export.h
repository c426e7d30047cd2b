/* export: what a script reads of studies read back (lib/studydir): CSV
 * and JSON, every digit (lib/num). */
#ifndef PB_EXPORT_H
#define PB_EXPORT_H

#include <stdio.h>

#include "studydir.h"

void write_csv(FILE *f, const struct study *const *s, const struct live *const *l,
               size_t n, const char *param);
void write_json(FILE *f, const struct study *const *s, const struct live *const *l,
                size_t n, const char *param);
#endif
