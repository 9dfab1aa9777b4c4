#ifndef NAPKIN_JEMALLOC_H
#define NAPKIN_JEMALLOC_H
/* jemalloc's run-time settings for the process (jemalloc_conf.c). */
extern const char *malloc_conf;
#endif
