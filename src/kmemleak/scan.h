/* Between kmemleak's scan (scan.c) and its report (report.c). */
#ifndef UKASAN_KMEMLEAK_SCAN_H
#define UKASAN_KMEMLEAK_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "../base/leak_heap.h"
#include "kmemleak.h"

/* An unreferenced object found by the scan, for the report. */
typedef void (*leak_fn)(const struct leak_heap *h, struct leak_object *o, void *arg);
/* Marks what the roots reach, then calls fn for every live object left
 * unmarked and not ignored, with the other threads still stopped; 0, or -1
 * (said why) when the scan could not be made. */
int kmemleak_scan(const struct kmemleak_caller *self, leak_fn fn, void *arg);

#endif
