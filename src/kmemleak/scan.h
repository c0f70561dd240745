/* Between kmemleak.c's scan and kmemleak_report.c's report. */
#ifndef UKASAN_KASAN_KMEMLEAK_SCAN_H
#define UKASAN_KASAN_KMEMLEAK_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "kmemleak.h"
#include "../kasan/object.h"

/* An unreferenced object found by the scan, for the report. */
typedef void (*leak_fn)(struct chunk *c, void *arg);
/* Marks what the roots reach, then calls fn for every live object left
 * unmarked and not ignored, with the other threads still stopped; 0, or -1
 * (said why) when the scan could not be made. */
int kmemleak_scan(const struct kmemleak_caller *self, leak_fn fn, void *arg);

#endif
