/* kmemleak for generic mode's heap (kmemleak.c scans, kmemleak_report.c
 * reports): the composition root's entry points. */
#ifndef UKASAN_KASAN_KMEMLEAK_H
#define UKASAN_KASAN_KMEMLEAK_H

#include <stddef.h>
#include <stdint.h>

/* Whether leak checks can run: kmemleak=on in generic mode. */
int kmemleak_active(void);
/* Scan and report objects nothing points to (each once): the number of
 * unreferenced objects found, reported now or before; -1 when the scan
 * could not be made. */
long kmemleak_check(void);
/* Allocations of this thread are not leaks while disabled (nested). */
void kmemleak_disable(void);
void kmemleak_enable(void);
void kmemleak_ignore(const void *p);
void kmemleak_root_region(const void *p, size_t size, int add);

#endif
