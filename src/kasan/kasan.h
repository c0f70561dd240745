/* KASAN's public face, for the composition root (runtime/): the
 * allocator's entry points, the checks' ABI, the reports the root asks for.
 * What only kasan/'s own files call is in kasan_internal.h. */
#ifndef UKASAN_KASAN_KASAN_H
#define UKASAN_KASAN_KASAN_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"

struct leak_heap;

/* Set at initialisation when the program was built with ukasan-cc, or
 * runs with hardware tags (kasan=on). */
extern RT_HIDDEN int kasan_enabled;
/* The CPU checks the heap's pointer tags (hardware tags). */
extern RT_HIDDEN int kasan_cpu_tag_checks;

/* Chooses the mode, once. */
void kasan_init(void);
/* The heap of the mode in force as a leak scan reads it (base/leak_heap.h),
 * for kmemleak; NULL when KASAN is off. */
const struct leak_heap *kasan_leak_heap(void);
/* The program is exiting: kasan.check_initialization_order ends, every
 * global it had poisoned is accessible again (generic mode). */
void kasan_init_order_stop(void);

/* The allocator, for the interposed entry points. */
void *kasan_malloc(size_t size, size_t align, int api, int zero);
/* A new object not from calloc, in whichever allocator: ASan's fill. */
void kasan_fill_new(void *p, size_t size);
/* The same, for a family (alloc_checks.c): api is API_MALLOC for free,
 * API_NEW for delete, API_NEW_ARRAY for delete[]; size and align what a
 * sized or aligned delete passed, else 0. Retires the object, reports a
 * mismatch with its allocation, then frees (ASan's order). */
void kasan_free_as(void *p, int api, size_t size, size_t align);
/* The same for an object whose header c the caller found (realloc). */
struct chunk;
void kasan_free_chunk(void *p, struct chunk *c, int api, size_t size, size_t align);
/* Requests the allocator refuses (ASan's classes): each reports unless
 * allocator_may_return_null, and sets errno; the caller returns NULL. */
extern RT_HIDDEN size_t kasan_max_allocation;
void kasan_refuse_size(size_t size);
/* type: "calloc-overflow" or "reallocarray-overflow". */
void kasan_refuse_count(const char *type, size_t n, size_t size);
void kasan_refuse_pvalloc(size_t size);
/* type: ASan's "invalid-allocation-alignment",
 * "invalid-posix-memalign-alignment" or "invalid-aligned-alloc-alignment";
 * what: the function. */
void kasan_refuse_alignment(const char *type, const char *what, size_t align);
/* alloc: where the new object comes from (KFENCE first, the root's
 * choice). */
void *kasan_realloc(void *p, size_t size, int api, void *(*alloc)(size_t size, int api));
/* Whether p is in memory KASAN's allocator hands out (hardware tags can
 * tell; the other modes answer 1). */
int kasan_owns(const void *p);
/* (size_t)-1 when p is not the start of a live object. */
size_t kasan_usable_size(const void *p);

/* The program unmapped or discarded [addr, addr+len): its shadow goes. */
void kasan_forget_range(uintptr_t addr, size_t len);
/* The program mapped [addr, addr+len) anew or unmapped it, ukasan's own
 * large objects' memory included: their pages are the program's now. */
void kasan_mapping_changed(uintptr_t addr, size_t len);
/* Every mode's marks of a stack [lo, lo+size) go (generic stack redzones,
 * tags): unlike kasan_forget_range, also where a large heap object holds
 * it, as a coroutine's stack often is. */
void kasan_clear_stack_marks(uintptr_t lo, size_t size);

/* Generic mode (generic_alloc.c, glibc's heap not handed out yet): glibc
 * memory at p goes to the program as it is, not as one of KASAN's objects
 * (the program's own __libc_malloc); the program moved the break from
 * `from` to `to` itself (sbrk, brk). */
void kasan_libc_handed(void *p);
void kasan_brk_moved(uintptr_t from, uintptr_t to);

/* What `ukasan leaks` needs to read the generic heap from outside
 * (base/leak_remote.h), filled from the real structures (generic_walk.c). */
struct leak_remote_generic;
void kasan_leak_remote_layout(struct leak_remote_generic *g);

/* Empty the quarantine and give free memory and its shadow back. */
void kasan_purge(void);

/* kasan.stats=1: the heap's and the shadow's memory, at exit. */
void kasan_print_stats(void);

/* Around fork: the allocator's locks. */
void kasan_fork_prepare(void);
void kasan_fork_parent(void);
void kasan_fork_child(void);

/* Check [addr, addr+size) and report at most once per call; 0 when bad. */
int kasan_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);

/* A bad access, for checks whose frames are not all in libukasan.so: the
 * stack starts at ip, the access. */
void kasan_report_from(uintptr_t addr, size_t size, int write, uintptr_t ip);
/* An allocation request refused (ASan's "calloc-overflow",
 * "allocation-size-too-big"...): detail says what was asked. */
void kasan_report_alloc(const char *type, const char *detail);

/* Fatal hook (platform/signals.h), for a fault that is not KASAN's and
 * will end the program (any mode): the kernel's "stack guard page was
 * hit", or its oops for a fault in ukasan's own code. 1 when reported. */
struct fatal_fault;
int kasan_report_unseen_fault(const struct fatal_fault *f, void *uctx);

/* KFENCE's hooks (struct kfence_hooks), filled for the mode in force. */
struct kfence_hooks;
void kasan_kfence_hooks(struct kfence_hooks *h);
/* Clear this thread's stack marks (at its start and its end). */
void kasan_thread_stack_clear(void);

/* Stack use after return: the fake stacks (fake_stack.c). */
void kasan_fake_stack_thread_exit(void);

#endif
