/* What ASan's public interface (runtime/asan_api.c and its neighbours) asks
 * of KASAN: describing an address, the last report, the contiguous
 * container annotations, C++ array cookies and the fake stacks. Each
 * answers "nothing" when KASAN is off or the mode has no shadow. */
#ifndef UKASAN_KASAN_ASAN_INTERFACE_H
#define UKASAN_KASAN_ASAN_INTERFACE_H

#include <stddef.h>
#include <stdint.h>

#include "../stack/stack.h"

/* What KASAN knows of an address, without a report (kasan_place_of). */
enum kasan_region { KASAN_REGION_NONE, KASAN_REGION_HEAP, KASAN_REGION_STACK, KASAN_REGION_OTHER };
struct kasan_track {
	int present;
	uint32_t tid;
	depot_handle_t stack;
};
struct kasan_place {
	enum kasan_region region;
	/* HEAP: the object that holds the address, live or freed, and its
	 * stacks. STACK: the variable of the frame that holds it, by the
	 * compiler's description of the frame (size 0, name "": none). */
	uintptr_t start;
	size_t size;
	int freed;
	struct kasan_track alloc, free;
	char name[128];
};
/* Fill p for addr as a report would describe it; 0, p zeroed
 * (KASAN_REGION_NONE), when KASAN is off. Globals: kasan_global_at. */
int kasan_place_of(uintptr_t addr, struct kasan_place *p);

/* The last KASAN report's access, for ASan's __asan_get_report_*: pc 0
 * when the report had no stack; 0 before the first report. */
struct kasan_last_access {
	uintptr_t pc, addr;
	int write;
	size_t size;
	const char *bug_type; /* the kernel's words, as the report's title */
};
int kasan_last_access(struct kasan_last_access *a);

struct kasan_report_info;
/* Print that description, with the allocation and free stacks of a heap
 * object and the memory around addr, to the report destination. */
void kasan_print_description(uintptr_t addr);
/* The parts of a report after its stack (report_text.c). */
void kasan_print_where(const struct kasan_report_info *r);

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
