/* Between kmemleak's scan (scan.c) and its report (report.c). */
#ifndef UKASAN_KMEMLEAK_SCAN_H
#define UKASAN_KMEMLEAK_SCAN_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "kmemleak.h"

/* The heaps the composition root handed over, in its order, and the
 * regions the program registered as roots (heaps.c). */
#define KMEMLEAK_MAX_HEAPS 4
extern RT_HIDDEN const struct leak_heap *kmemleak_heaps[KMEMLEAK_MAX_HEAPS];
extern RT_HIDDEN int kmemleak_nheaps;
#define KMEMLEAK_MAX_ROOTS 256
struct kmemleak_root {
	uintptr_t p;
	size_t size;
};
extern RT_HIDDEN struct kmemleak_root kmemleak_roots[KMEMLEAK_MAX_ROOTS];
extern RT_HIDDEN int kmemleak_nroots;
/* [*own_lo, *own_hi): the writable PT_LOAD segments of the image whose
 * ELF header is at ehdr, read through rd. */
void kmemleak_own_data(uintptr_t ehdr, int (*rd)(void *, uintptr_t, size_t), uintptr_t *own_lo,
                       uintptr_t *own_hi);

/* An unreferenced object found by the scan, for the report; indirect when
 * another unreferenced object points to it (LSan's "Indirect leak"). */
typedef void (*leak_fn)(const struct leak_heap *h, struct leak_object *o, int indirect, void *arg);
/* Marks what the roots reach, then calls fn for every live object left
 * unmarked and not ignored, with the other threads still stopped; 0, or -1
 * (said why) when the scan could not be made. */
int kmemleak_scan(const struct kmemleak_caller *self, leak_fn fn, void *arg);

/* A process scanned from outside (`ukasan leaks PID`, src/leaks/), every
 * thread of it stopped by the caller: its memory is read through read, its
 * allocation stacks fetched through fetch_stack (both 0 on success), its
 * mappings from maps_path; own is an address in its runtime, whose data is
 * no root. Its heaps are those handed to kmemleak_add_heap, which read the
 * process in turn. */
struct os_thread;
struct kmemleak_target {
	int (*read)(void *dst, uintptr_t addr, size_t len);
	int (*fetch_stack)(uint32_t handle, const uintptr_t **pcs);
	/* Prints one frame of an allocation stack, as report_stack_pcs does. */
	void (*print_frame)(uintptr_t pc, const char *indent);
	const char *maps_path;
	uintptr_t own;
	const struct os_thread *threads;
	long nthreads;
	const char *comm; /* the process's name, for the report */
};
int kmemleak_scan_remote(const struct kmemleak_target *t, leak_fn fn, void *arg);
/* kmemleak_check's scan and report, of that process: the number of new
 * unreferenced objects (0: none), or -1 when the scan could not be made. */
long kmemleak_check_remote(const struct kmemleak_target *t);

#endif
