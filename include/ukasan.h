/* ukasan: the Linux kernel's KASAN and KFENCE for user-space programs.
 *
 * Every function here is declared weak, so a program can call them when it
 * runs under ukasan and test for them (a null address) when it does not:
 *
 *     if (ukasan_is_kfence_address)
 *             ... ukasan_is_kfence_address(p) ...
 */
#ifndef UKASAN_H
#define UKASAN_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Nonzero when p lies in the KFENCE pool (an object or a guard page), as the
 * kernel's is_kfence_address(). */
int ukasan_is_kfence_address(const void *p) __attribute__((weak));

/* Print the KFENCE counters, in the kernel's debugfs "stats" format, to the
 * report destination. */
void ukasan_kfence_print_stats(void) __attribute__((weak));

/* How many reports (KASAN and KFENCE) this process has printed so far: for
 * test harnesses and fuzzers that want to know whether a run found
 * anything, as AddressSanitizer's __asan_report_present(). A child made by
 * fork() starts from its parent's count. */
unsigned long ukasan_report_count(void) __attribute__((weak));

/* Generic mode: empty the quarantine (all of it but what other threads hold
 * in their own unfinished batches), and give the memory of freed objects,
 * and its shadow, back to the system. For a program that wants to see its
 * memory use return after a phase, as AddressSanitizer's
 * __sanitizer_purge_allocator(); freed objects are no longer caught on use
 * after free afterwards. A no-op in KFENCE mode. */
void ukasan_purge(void) __attribute__((weak));

/* Generic mode: kmemleak's scan now. Reports heap objects nothing points to
 * (each object once, as the kernel's kmemleak), in the kernel's format, and
 * returns 1 when there are unreferenced objects, 0 otherwise; the program
 * runs on. As LSan's __lsan_do_recoverable_leak_check(). 0 in KFENCE mode,
 * with kmemleak=off, and when __lsan_is_turned_off() says so. */
int ukasan_leak_check(void) __attribute__((weak));

#ifdef __cplusplus
}
#endif

#endif
