/* KASAN's core, what every mode shares (the kernel's mm/kasan/common.c):
 * the mode is chosen here, once, and the allocator's entry points, fork
 * handling, purge and the checks' exported ABI pass on to it through
 * kasan_ops (mode.h). Below: the modes (generic*.c, tags.c with sw_tags.c
 * and hw_tags.c), the report pipeline (report.c), and what their
 * allocators share (chunk.c, large.c, quarantine.c, page_sample.c). */
#define _GNU_SOURCE
#include <errno.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kfence/kfence.h"
#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "../report/json_report.h"
#include "../report/report.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "shared.h"

/* Defined by the small objects ukasan-cc links into instrumented programs:
 * which mode they were built for. */
extern const int __ukasan_generic_mode __attribute__((weak));
extern const int __ukasan_sw_tags_mode __attribute__((weak));

/* The mode: from how the program was built, or, for any other program,
 * ukasan.generic=on (instrumented libraries it will load: their code needs
 * the shadow before they are loaded) or kasan=on (hardware tags). */
void kasan_init(void)
{
	const struct kasan_ops *ops;
	if (&__ukasan_generic_mode && &__ukasan_sw_tags_mode)
		kasan_mixed_modes();
	if (&__ukasan_generic_mode || opt.generic) {
		ops = generic_init();
	} else if (&__ukasan_sw_tags_mode) {
		ops = sw_tags_init();
		if (!ops) {
			log_printf(
			    "ukasan: this program was built with ukasan-cc UKASAN_MODE=sw_tags "
			    "and cannot run without software tags\n");
			os_exit(1);
		}
	} else if (opt.kasan_on) {
		ops = hw_tags_init(); /* NULL: it said why, KFENCE only */
	} else {
		ops = NULL;
	}
	if (!ops)
		return;
	kasan_alloc_checks_init();
	__atomic_store_n(&kasan_ops, ops, __ATOMIC_RELEASE);
	kasan_enabled = 1;
	json_report_set_mode(ops->name);
}

const struct leak_heap *kasan_leak_heap(void)
{
	const struct kasan_ops *ops = __atomic_load_n(&kasan_ops, __ATOMIC_ACQUIRE);
	return kasan_enabled && ops ? ops->leak_heap : NULL;
}

/* An aligned new's alignment goes in its header, for the aligned delete's
 * check (CHUNK_ALIGN_CODE). */
void *kasan_malloc(size_t size, size_t align, int api, int zero)
{
	if (unlikely(align) && api >= API_NEW)
		api |= (int)chunk_align_code(align) << 4;
	void *p = kasan_ops->malloc(size, align, api, zero);
	if (p && !zero)
		kasan_fill_new(p, size);
	return p;
}

/* ASan's malloc_fill_byte and max_malloc_fill_size: a new object's first
 * bytes hold a known byte, not the zeros of fresh pages, so that a program
 * which reads what it never wrote (a length, a terminator) goes wrong the
 * same way on every run, where the checks see it: libxml2's CVE-2015-8317,
 * an unterminated string scanned past its end, shows only so. calloc's
 * objects are zero. The kernel has no such fill; the modes modelled on its
 * tags leave memory as the allocator gives it. */
void kasan_fill_new(void *p, size_t size)
{
	const struct kasan_ops *ops = kasan_ops;
	if (!ops || !ops->fill_new || !opt.max_malloc_fill_size)
		return;
	rt_fill(p, (int)opt.malloc_fill_byte,
	        size < opt.max_malloc_fill_size ? size : opt.max_malloc_fill_size);
}

void kasan_free(void *p)
{
	kasan_free_as(p, API_MALLOC, 0, 0);
}

int kasan_owns(const void *p)
{
	return !kasan_ops->owns || kasan_ops->owns((uintptr_t)p);
}

size_t kasan_usable_size(const void *p)
{
	struct chunk *c = kasan_ops->chunk_of((uintptr_t)p);
	if (!c)
		return unsampled_size((uintptr_t)p);
	if ((c->state & ~CHUNK_LARGE) != CHUNK_LIVE)
		return (size_t)-1;
	return chunk_size(c);
}

/* The object is found once, and freed through what was found. */
void *kasan_realloc(void *p, size_t size, int api, void *(*alloc)(size_t size, int api))
{
	struct chunk *c = kasan_ops->chunk_of((uintptr_t)p);
	size_t old = !c                                        ? unsampled_size((uintptr_t)p)
	             : (c->state & ~CHUNK_LARGE) == CHUNK_LIVE ? chunk_size(c)
	                                                       : (size_t)-1;
	if (old == (size_t)-1) {
		/* As the kernel's krealloc: a freed object is a use after free
		 * (a read of its first byte); anything else an invalid free. The
		 * tag modes know only live objects: theirs is a double free. */
		if (c)
			kasan_report((uintptr_t)p, 1, 0, RET_IP);
		else
			kasan_free(p);
		errno = ENOMEM;
		return NULL;
	}
	if (size == 0) {
		kasan_free_chunk(p, c, API_MALLOC, 0, 0);
		return NULL;
	}
	/* Always move: the old object goes to the quarantine, so a stale
	 * pointer to it is caught, and the new one's redzone starts right at
	 * the new size. */
	void *q = alloc(size, api);
	if (!q)
		return NULL;
	rt_memcpy(q, p, old < size ? old : size);
	kasan_free_chunk(p, c, API_MALLOC, 0, 0);
	return q;
}

/* Never ukasan's own memory: a program's bad munmap of it is not a reason
 * to lose the marks of objects that still live there. */
void kasan_forget_range(uintptr_t addr, size_t len)
{
	if (!len || large_owns(addr) || large_owns(addr + len - 1))
		return;
	if (kasan_ops && kasan_ops->forget_range) /* hardware tags go with the pages */
		kasan_ops->forget_range(addr, len);
}

/* The program mapped [addr, addr+len) anew (mmap, mremap, shmat) or
 * unmapped it: whatever was there is gone, ukasan's large objects too
 * (large_taken), and the new memory starts accessible, as under ASan
 * since LLVM 17, which clears the shadow of every mapping. */
void kasan_mapping_changed(uintptr_t addr, size_t len)
{
	if (!len)
		return;
	large_taken(addr, len);
	if (kasan_ops && kasan_ops->forget_range)
		kasan_ops->forget_range(addr, len);
}

void kasan_clear_stack_marks(uintptr_t lo, size_t size)
{
	if (kasan_ops && kasan_ops->forget_range)
		kasan_ops->forget_range(lo, size);
}

/* A thread's stack, at its start and end: marks of frames that never
 * returned (longjmp, exceptions, the thread's exit) must not outlive it. */
void kasan_thread_stack_clear(void)
{
	if (kasan_ops && kasan_ops->thread_stack_clear)
		kasan_ops->thread_stack_clear();
}

/* KFENCE knows no KASAN: the mode sets its pages' marks where it must see
 * them (tag modes leave its untagged pages at tag 0, which its untagged
 * pointers match), and its first sample waits one interval, so that a
 * short program's first objects get KASAN's checks and reports. */
void kasan_kfence_hooks(struct kfence_hooks *h)
{
	if (kasan_ops) {
		h->object_placed = kasan_ops->kfence_placed;
		h->object_freed = kasan_ops->kfence_freed;
	}
	h->delay_first_sample = kasan_enabled;
}

/* Before the mode is chosen every range passes. */
int kasan_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	const struct kasan_ops *ops = kasan_ops;
	return !ops || ops->check_range(addr, size, write, ip);
}

/* For the interceptors linked into instrumented programs: 0 when the range
 * is bad, so they skip the operation, as the kernel's checked memcpy does. */
UKASAN_EXPORT int __ukasan_check_range(uintptr_t a, size_t n, int write, uintptr_t ip)
{
	const struct kasan_ops *ops = kasan_ops;
	return !ops || ops->check_range(a, n, write, ip);
}

/* For the program's __memcpy_chk/__memmove_chk/__memset_chk interposers:
 * the runtime's own copies (rt_memcpy...) call those names, and the program
 * exports its definitions to every library that refers to them, this one
 * included. Shadow memory is not program memory to check. */
UKASAN_EXPORT int __ukasan_runtime_ip(uintptr_t ip)
{
	return dl_own_text(ip);
}

/* The quarantine's lock first: releasing from it takes the others. */
void kasan_fork_prepare(void)
{
	quarantine_fork_prepare();
	large_fork_prepare();
	page_sample_fork_prepare();
	if (kasan_ops && kasan_ops->fork_prepare)
		kasan_ops->fork_prepare();
}

void kasan_fork_parent(void)
{
	if (kasan_ops && kasan_ops->fork_parent)
		kasan_ops->fork_parent();
	page_sample_fork_parent();
	large_fork_parent();
	quarantine_fork_parent();
}

void kasan_fork_child(void)
{
	if (kasan_ops && kasan_ops->fork_child)
		kasan_ops->fork_child();
	page_sample_fork_child();
	large_fork_child();
	quarantine_fork_child();
}

void kasan_purge(void)
{
	quarantine_drain();
	large_quarantine_drain();
	large_purge();
}
