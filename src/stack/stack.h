/* Stack capture and the stack depot: stacks stored once, named by a 32-bit
 * handle, as the kernel's stackdepot. */
#ifndef UKASAN_STACK_STACK_H
#define UKASAN_STACK_STACK_H

#include <stdint.h>

#define STACK_MAX_FRAMES 64

typedef uint32_t depot_handle_t; /* 0 means "no stack" */

/* Capture return addresses, leaving out ukasan's own frames at the top. */
int stack_capture(uintptr_t *pcs, int max);
/* Drop the frames above ip when ip is among the first few: for checks
 * whose own frames are not all in libukasan.so (the callbacks linked into
 * executables); put ip first when it is nowhere on the stack (pcs has room
 * for max). Returns the new count. */
int stack_trim_to(uintptr_t *pcs, int n, uintptr_t ip, int max);
/* Capture from a signal's context (a ucontext_t): frame 0 is its pc,
 * where the frame stopped (exact) or, after fault_context_to_caller, a
 * return address. Only the context's registers and the stack are read
 * (under a guard), not the signal frames in between. */
int stack_capture_context(const void *uctx, int exact, uintptr_t *pcs, int max);
uint32_t stack_hash(const uintptr_t *pcs, int n);

depot_handle_t depot_save(const uintptr_t *pcs, int n);
/* Only sampled allocations will save stacks: a smaller table. Call before
 * the first save (at start, while one thread runs). */
void depot_samples_only(void);
/* Returns the frame count and points *pcs at the stored frames. */
int depot_fetch(depot_handle_t h, const uintptr_t **pcs);
/* For a reader outside the process (ukasan leaks, base/leak_remote.h): the
 * address of the depot's pointer (NULL until the first stack is saved), and
 * the depot's size in *bytes. A handle is an offset into it of a record
 * {uint32_t n; uint32_t pad; uintptr_t pcs[n]}. */
uintptr_t depot_remote_location(uint32_t *bytes);

/* Fast capture by frame pointers, for the generic allocator's hot paths;
 * falls back to the unwinder where frames cannot be trusted. */
int stack_capture_fast(uintptr_t *pcs, int max);

/* The runtime's allocation and free paths note a frame of theirs near the
 * program's call (runtime/malloc.c says which) around the work that may
 * capture the stack: a fast capture under it starts there, not at its own
 * frame, and does not walk up through the runtime's frames between (half
 * the frames an allocation's stack walk read). A nested allocation notes
 * its own and puts back the one before; a frame no longer live above the
 * capture, or whose return address changed (an exception thrown through
 * it), is not used. */
struct stack_entry {
	uintptr_t fp, ret;
};
extern __thread struct stack_entry stack_entry_now __attribute__((tls_model("initial-exec")));
static inline struct stack_entry stack_entry_enter(void *frame)
{
	struct stack_entry was = stack_entry_now;
	stack_entry_now.fp = (uintptr_t)frame;
	stack_entry_now.ret = ((const uintptr_t *)frame)[1];
	return was;
}
static inline void stack_entry_leave(struct stack_entry was)
{
	stack_entry_now = was;
}
/* Code was unloaded: forget what was learnt about it. */
void stack_forget_code(void);
/* This thread's stack, cached per thread. */
int stack_bounds(uintptr_t *lo, uintptr_t *hi);
/* A fiber switch: the thread runs on [lo, hi) now; the old bounds back. */
void stack_switch(uintptr_t lo, uintptr_t hi, uintptr_t *old_lo, uintptr_t *old_hi);

/* Set at init: the address range of libukasan itself, to skip our frames. */
void stack_init(void);
int stack_is_ours(uintptr_t pc);

#endif
