/* sysinfo: the facts about the machine that a raw stream records. */
#ifndef PB_SYSINFO_H
#define PB_SYSINFO_H

#include <stddef.h>

void sysinfo_host(char *buf, size_t n);      /* node name */
void sysinfo_kernel(char *buf, size_t n);    /* "Linux 6.1.0 #1 SMP ..." */
void sysinfo_cpu(char *buf, size_t n);       /* model name, else machine */

#endif
