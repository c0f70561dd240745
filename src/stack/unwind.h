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
 * (a corrupt stack, or a switch to another stack).
 *
 * Returns -1 when it cannot start (the thread's stack bounds are unknown,
 * or it runs on another stack, such as a signal handler on sigaltstack or
 * a coroutine: the caller then uses unwind_anywhere), or when a frame on
 * the way has unwind information it does not implement (CFI expressions
 * other than GCC's stack realignment and glibc's signal frame,
 * DW_CFA_set_loc, an unsorted .eh_frame_hdr, ...) or is in no loaded
 * object (JIT code).
 *
 * The caller must not tail-call it: its own frame is dropped by position. */
int unwind_fast(uintptr_t *pcs, int max, int skip);
/* The same, with each frame's stack pointer in sps. */
int unwind_fast_sp(uintptr_t *pcs, uintptr_t *sps, int max, int skip);

/* For callers that run it under signals_guarded (a load may fault), and
 * take the frames it stored even then (pcs zeroed before: no frame is 0).
 * A frame the rules do not cover ends the stack there.
 *
 * unwind_anywhere: from its caller, as unwind_fast, on any stack (a signal
 * stack, a coroutine's), read up to hi; -1 where it has no rules.
 * unwind_from_regs: from a signal's registers (arch_context_regs), frame 0
 * at regs' pc, which is where the frame stopped (exact) or a return
 * address; the stack read from regs' sp up to hi. */
int unwind_anywhere(uintptr_t *pcs, int max, uintptr_t hi);
int unwind_from_regs(const uintptr_t regs[4], int exact, uintptr_t hi, uintptr_t *pcs, int max);

/* Forget every cached rule: to be called after an object is unloaded, since
 * other code may be loaded later at the same addresses. */
void unwind_cache_flush(void);

/* Few stacks will be captured (the preload sampling by time): the cache
 * uses a small part of itself, so that little of it becomes resident, and
 * the pages of the objects' unwind tables a walk reads are given back
 * after it. */
void unwind_cache_few(void);

#endif
