/* Fast x86-64 stack unwinding by the DWARF call frame information (.eh_frame)
 * of the loaded objects, for programs built without frame pointers. The rule
 * to step over each frame is computed once per pc and kept in a global cache;
 * a cached step costs a few nanoseconds where libgcc's _Unwind_Backtrace
 * interprets the CFI again each time (~110 ns per frame).
 *
 * Safe in the allocator and in fault handlers, in any thread and after fork:
 * no malloc, no locks, no loader calls but the lock-free _dl_find_object; it
 * reads only the loaded objects' .eh_frame data and the part of this thread's
 * stack above its own frame. */
#ifndef UKASAN_STACK_UNWIND_H
#define UKASAN_STACK_UNWIND_H

#include <stdint.h>

/* Return addresses of the current call stack, from the caller of the function
 * that called unwind_fast (skip = number of extra innermost frames to drop),
 * exactly as _Unwind_Backtrace would give them. Returns the number stored:
 * fewer than max where the stack ends, or where a frame's saved registers
 * would have to be read outside this thread's stack above our own frame
 * (a corrupt stack, or a switch to another stack: libgcc might go on).
 *
 * Returns -1, and the caller should then use libgcc, when it cannot start
 * (the thread's stack bounds are unknown, or it runs on another stack, such
 * as a signal handler on sigaltstack or a coroutine), or when a frame on the
 * way has unwind information it does not implement (CFI expressions other
 * than GCC's stack realignment and glibc's signal frame, DW_CFA_set_loc,
 * an unsorted .eh_frame_hdr, ...) or is in no loaded object (JIT code,
 * whose CFI libgcc may have from __register_frame): libgcc does better.
 *
 * The caller must not tail-call it: its own frame is dropped by position. */
int unwind_fast(uintptr_t *pcs, int max, int skip);
/* The same, with each frame's stack pointer in sps. */
int unwind_fast_sp(uintptr_t *pcs, uintptr_t *sps, int max, int skip);

/* Forget every cached rule: to be called after an object is unloaded, since
 * other code may be loaded later at the same addresses. */
void unwind_cache_flush(void);

/* Few stacks will be captured (the preload sampling by time): the cache
 * uses a small part of itself, so that little of it becomes resident, and
 * the pages of the objects' unwind tables a walk reads are given back
 * after it. */
void unwind_cache_few(void);

#endif
