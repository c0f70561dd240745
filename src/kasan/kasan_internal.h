/* KASAN's internals: what kasan/'s files call of each other across
 * tiers, and no file outside kasan/ may include (tests/layers/
 * check_layers.py). The public face, for runtime/, is kasan.h. */
#ifndef UKASAN_KASAN_KASAN_INTERNAL_H
#define UKASAN_KASAN_KASAN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "kasan.h"

/* Says that code built for two modes is mixed, and ends the program. */
__attribute__((noreturn)) void kasan_mixed_modes(void);
void kasan_free(void *p);
void kasan_alloc_checks_init(void);

/* A bad access, from a check: the stack starts at the caller. */
void kasan_report(uintptr_t addr, size_t size, int write, uintptr_t ip);
/* The same, from a fault or trap: the stack starts at its pc. */
void kasan_report_at(uintptr_t addr, size_t size, int write, const void *uctx);
/* Hardware tags' asynchronous fault: no address, no access (the
 * kernel's kasan_report_async). */
void kasan_report_async(const void *uctx);
/* After a report in code built without recovery (UKASAN_RECOVER=0, or
 * clang's non-recovering tag checks): says so and ends the run as a panic
 * does (report_end_run). */
__attribute__((noreturn)) void kasan_halt_unrecoverable(void);
/* A double or invalid free: type is the kernel's "double-free" or
 * "invalid-free". */
void kasan_report_free(uintptr_t addr, const char *type);
/* Two ranges (or, of size 0, pointers) that must not go together, each
 * described: ASan's memcpy-param-overlap and invalid-pointer-pair. ip is
 * the return address into the program. */
void kasan_report_pair(const char *type, uintptr_t a, size_t an, uintptr_t b, size_t bn,
                       uintptr_t ip);
/* A free's own check failed, with a line saying what the free got wrong
 * (ASan's classes: "alloc-dealloc-mismatch", "new-delete-type-mismatch").
 * The free has retired the object already (ASan's order), so it reads as
 * freed; it is described as the live object the free was given. */
void kasan_report_free_detail(uintptr_t addr, const char *type, const char *detail);
/* An access to the shadow itself. */
void kasan_report_wild_fault(uintptr_t shadow_addr, const void *uctx);
/* Fatal hook (platform/signals.h) of the modes that report an oops ("unable
 * to handle page fault", "general protection fault") for a fault that is
 * not KASAN's and will end the program. 1 when reported. */
struct fatal_fault;
int kasan_report_oops(const struct fatal_fault *f, void *uctx);

#endif
