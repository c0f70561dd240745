/* What ASan's public interface (runtime/asan_api.c and its neighbours) asks
 * of KASAN: describing an address, the last report, the contiguous
 * container annotations, C++ array cookies and the fake stacks. Each
 * answers "nothing" when KASAN is off or the mode has no shadow. */
#ifndef UKASAN_KASAN_ASAN_INTERFACE_H
#define UKASAN_KASAN_ASAN_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

struct kasan_report_info;

/* Fill r with what addr belongs to (r->where), as a report would, without
 * a report; 0 when KASAN is off. */
int kasan_describe(uintptr_t addr, struct kasan_report_info *r);
/* Print that description, with the allocation and free stacks of a heap
 * object and the memory around addr, to the report destination. */
void kasan_print_description(uintptr_t addr);
/* The parts of a report after its stack (report_text.c). */
void kasan_print_where(const struct kasan_report_info *r);
/* The last KASAN report's record; NULL before the first (report.c). */
const struct kasan_report_info *kasan_last_report(void);

/* The live heap object that holds addr takes this stack as its
 * allocation's; 0 when there is none. */
int kasan_update_alloc_context(uintptr_t addr);
/* Bytes in live objects, in the quarantine, and free in large regions. */
void kasan_heap_counts(size_t *live, size_t *quarantined, size_t *free_pool);

/* Generic mode's registered global holding addr: its name, file, line,
 * start and size; 0 when none (user_poison.c). */
int kasan_global_at(uintptr_t addr, const char **name, const char **file, int *line, uintptr_t *beg,
                    size_t *size);

/* Contiguous containers: [sb, se) is the storage, of which [cb, ce) is in
 * use; the rest becomes a container overflow. */
void kasan_container_mark(uintptr_t sb, uintptr_t se, uintptr_t cb, uintptr_t ce);
/* The first byte whose shadow disagrees with that, or 0. */
uintptr_t kasan_container_bad(uintptr_t sb, uintptr_t se, uintptr_t cb, uintptr_t ce);

/* Clang's array cookies (new T[n] of a type with a destructor). */
void kasan_poison_cookie(uintptr_t p);
uintptr_t kasan_load_cookie(const uintptr_t *p);

/* The fake stacks (fake_stack.c): this thread's (NULL when there is
 * none); for a live frame of fs that holds addr, the real stack pointer it
 * stands for and its bounds, else NULL. */
void *kasan_fake_stack_current(void);
void *kasan_fake_stack_frame(void *fs, uintptr_t addr, uintptr_t *beg, uintptr_t *end);
/* A fiber switch: leave returns the fake stack to keep for the fiber
 * being left (and destroys it when keep is 0); the switch then runs with
 * none until enter gives the new fiber's (NULL: a new one on demand). */
void *kasan_fake_stack_leave(int keep);
void kasan_fake_stack_enter(void *fs);

#endif
