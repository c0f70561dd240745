/* Between kmemleak's two halves, during a scan only: scan.c (the heaps,
 * marking, the check, the scan from outside) and roots.c (which memory is
 * read for pointers, and how another process's is read). Nothing outside
 * src/kmemleak/ includes it. */
#ifndef UKASAN_KMEMLEAK_SCAN_PRIVATE_H
#define UKASAN_KMEMLEAK_SCAN_PRIVATE_H

#include <stdint.h>

#include "../base/compiler.h"
#include "../platform/os.h"
#include "../platform/threads.h"
#include "scan.h"

/* scan.c's state of the scan in progress. */
extern RT_HIDDEN struct os_map *scan_maps; /* the process's mappings, ascending */
extern RT_HIDDEN long scan_nmaps;
extern RT_HIDDEN uint8_t *scan_map_has_heap;     /* per mapping: a heap keeps objects there */
extern RT_HIDDEN struct os_thread *scan_threads; /* the stopped threads */
extern RT_HIDDEN uint64_t scan_own_path;         /* the runtime's file */
extern RT_HIDDEN const struct kmemleak_target *scan_remote; /* set while scanning from outside */
extern RT_HIDDEN int scan_untracked_roots;                  /* the program's heap is not tracked */
extern RT_HIDDEN struct os_range scan_own_ranges[];
extern RT_HIDDEN long scan_nown; /* ukasan's own reservations, in no order */

/* scan.c: the words of [lo, hi) (readable), and one value (a register),
 * each marking the live object it points into. */
void scan_words(uintptr_t lo, uintptr_t hi);
void scan_value(uintptr_t v);
void scan_values(const uintptr_t *v, size_t n); /* words read, or copied from another process */

/* roots.c */
long scan_map_of(uintptr_t a);
int roots_read_self(void *dst, uintptr_t addr, size_t len);
void roots_find_own(uintptr_t at);
void scan_range(uintptr_t lo, uintptr_t hi);
void scan_not_own(uintptr_t lo, uintptr_t hi);
int roots_follows_module(long i);
int roots_in_linker(uintptr_t pc);
int roots_is_module_data(long i);
uintptr_t roots_module_data_end(long i);
void scan_untracked(uintptr_t self_sp, long nthreads);
void scan_thread(uintptr_t sp, uintptr_t tp, const uintptr_t *regs, int nregs, size_t below);
void roots_remote_begin(void);                      /* forgets the window read last */
void scan_words_remote(uintptr_t lo, uintptr_t hi); /* scan_words, from outside */

#endif
