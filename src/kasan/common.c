/* The allocator core every KASAN mode shares: object headers, redzones,
 * the quarantine hookup, alloc and free hooks. How memory is marked (shadow
 * bytes in generic mode) is the mode's (object.h).
 *
 * Chunks come from glibc's malloc (or, when large, straight from mmap):
 *
 *   [glibc hdr][pad][struct chunk | object ......... | right redzone ][next hdr]
 *                    left redzone   ^ returned pointer
 *
 * The request is sized so that glibc's usable size is exactly what was
 * asked (n = 8 mod 16 on x86-64), and the next chunk's 8-byte size field,
 * which no instrumented code touches, is poisoned with our right redzone:
 * the redzones cost what AddressSanitizer's do, not more.
 *
 * glibc keeps its per-thread arenas and tcache, so threads do not share a
 * lock, and shadow is only ever poisoned over memory ukasan owns: a chunk's
 * shadow returns to 00 when the chunk goes back to glibc. */
#define _GNU_SOURCE
#include "object.h"

#include <errno.h>
#include <string.h>

#include "../base/common.h"
#include "../config/options.h"
#include "../config/log.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "kasan.h"
#include "tags.h"

extern void *__libc_malloc(size_t size);
extern void __libc_free(void *p);
extern void *__libc_memalign(size_t align, size_t size);

/* A page and more: from large.c's regions. Below glibc's 128 KiB mmap
 * threshold, so small chunks always come from an arena. */
#define LARGE_THRESHOLD 4096u

int kasan_enabled;
int kasan_mode;
/* Defined by the small objects ukasan-cc links into instrumented programs:
 * which mode they were built for. */
extern const int __ukasan_generic_mode __attribute__((weak));
extern const int __ukasan_sw_tags_mode __attribute__((weak));

/* The mode: from how the program was built, or, for any other program,
 * kasan=on (hardware tags). */
/* Code instrumented for one mode cannot run under another's shadow. */
__attribute__((noreturn)) void kasan_mixed_modes(void)
{
	log_printf("ukasan: this program mixes code built by ukasan-cc for generic KASAN and "
	           "for software tags (UKASAN_MODE=sw_tags); build all of it in one mode\n");
	os_exit(1);
}

void kasan_init(void)
{
	if (&__ukasan_generic_mode && &__ukasan_sw_tags_mode)
		kasan_mixed_modes();
	if (&__ukasan_generic_mode) {
		generic_init();
		kasan_mode = KASAN_GENERIC;
		return;
	}
	if (&__ukasan_sw_tags_mode) {
		if (sw_tags_init() != 0) {
			log_printf(
			    "ukasan: this program was built with ukasan-cc UKASAN_MODE=sw_tags "
			    "and cannot run without software tags\n");
			os_exit(1);
		}
		kasan_mode = KASAN_SW_TAGS;
	} else if (opt.kasan_on) {
		if (hw_tags_init() != 0)
			return; /* it said why: KFENCE only */
		kasan_mode = KASAN_HW_TAGS;
	} else {
		return;
	}
	tags_ring_init();
	kasan_enabled = 1;
}

/* The mode's marking, for the core and large.c. Tag modes tag a new
 * object whole once it is placed (tags.c), so unpoisoning is theirs. */
void kasan_poison_redzone(uintptr_t addr, size_t size, int large)
{
	if (kasan_mode == KASAN_GENERIC)
		generic_poison_redzone(addr, size, large);
}

void kasan_unpoison(uintptr_t addr, size_t size)
{
	if (kasan_mode == KASAN_GENERIC)
		generic_unpoison(addr, size);
}

void kasan_unpoison_resident(uintptr_t addr, size_t size)
{
	if (kasan_mode == KASAN_GENERIC)
		generic_unpoison_resident(addr, size);
}

void kasan_release(uintptr_t addr, size_t size)
{
	if (kasan_mode == KASAN_GENERIC)
		generic_release(addr, size);
	else
		tags_release(addr, size);
}

struct chunk *kasan_chunk_of(uintptr_t p)
{
	return kasan_mode == KASAN_GENERIC ? generic_chunk_of(p) : tags_chunk_of(p);
}

struct chunk *kasan_find_chunk(uintptr_t addr)
{
	return kasan_mode == KASAN_GENERIC ? generic_find_chunk(addr) : NULL;
}

/* Never ukasan's own memory: a program's bad munmap of it is not a reason
 * to lose the marks of objects that still live there. */
void kasan_forget_range(uintptr_t addr, size_t len)
{
	if (!len || large_owns(addr) || large_owns(addr + len - 1))
		return;
	if (kasan_mode == KASAN_GENERIC)
		shadow_forget(addr, len);
	else if (kasan_mode == KASAN_SW_TAGS)
		tag_shadow_forget(addr, len);
	/* Hardware tags go with the pages (MADV_DONTNEED clears them). */
}

/* A thread's stack, at its start and end: tags of frames that never
 * returned (longjmp, exceptions, the thread's exit) must not outlive it. */
void kasan_thread_stack_clear(void)
{
	uintptr_t lo, hi;
	if (kasan_mode == KASAN_GENERIC)
		generic_thread_stack_clear();
	else if (kasan_mode == KASAN_SW_TAGS && stack_bounds(&lo, &hi) == 0)
		tag_shadow_release(lo, hi - lo);
}

int kasan_owns(const void *p)
{
	return kasan_mode != KASAN_HW_TAGS || tags_owns((uintptr_t)p);
}

int kasan_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	if (kasan_mode == KASAN_GENERIC)
		return generic_check_range(addr, size, write, ip);
	return tags_check_range(addr, size, write, ip);
}

/* Right redzone by object size: AddressSanitizer's table, as the kernel's. */
static size_t redzone(size_t size)
{
	return size <= 48      ? 16
	       : size <= 96    ? 32
	       : size <= 448   ? 64
	       : size <= 3968  ? 128
	       : size <= 16128 ? 256
	       : size <= 32256 ? 512
	       : size <= 64512 ? 1024
	                       : 2048;
}

/* What is asked of glibc for a small object, and the span of memory whose
 * shadow the chunk owns (its usable size plus the next chunk's size field). */
static size_t small_request(size_t size, size_t lead)
{
	size_t rz = redzone(size) - 16; /* the header is part of the budget */
	size_t want;
	if (size < sizeof(struct free_meta)) /* the free record goes after the object: */
		want = lead + ALIGN_UP(size, 8) + (rz > 16 ? rz : 16); /* keep it in our memory */
	else
		want = lead + ALIGN_UP(size, 8) + (rz > 8 ? rz : 8) - 8;
	return ALIGN_UP(want + 8, 16) - 8;
}

static size_t small_span(size_t size, size_t lead)
{
	return small_request(size, lead) + 8;
}

/* Where in its first page a large object starts: a random cache line, as
 * jemalloc's cache-oblivious large allocations. Page-aligned arrays put their
 * hot lines, and their shadow's, in the same few cache sets (a binary search
 * over 4 MiB ran 6% slower page-aligned than at 2 KiB into the page). */
static size_t large_colour(size_t align)
{
	static uint64_t seq;
	size_t page = os_page_size();
	if (align >= page)
		return 0;
	uint64_t x = __atomic_add_fetch(&seq, 0x9e3779b97f4a7c15ull, __ATOMIC_RELAXED);
	x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull; /* splitmix64's finaliser */
	x ^= x >> 27;
	size_t line = align > 64 ? align : 64;
	return (size_t)(x % (page / line)) * line;
}

size_t chunk_size(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return ((const struct large_meta *)c)->size;
	return c->size;
}

struct free_meta *chunk_free_meta(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return &((struct large_meta *)c)->fm;
	size_t size = chunk_size(c);
	uintptr_t obj = chunk_object(c);
	return (struct free_meta *)(size >= sizeof(struct free_meta) ? obj
	                                                             : ALIGN_UP(obj + size, 8));
}

struct heap_stats heap_stats;

/* Memory a live object holds beyond its size. */
static size_t object_span(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return ((const struct large_meta *)c)->pages * os_page_size();
	return small_span(c->size, (size_t)c->offset * 16) + 8;
}

static void count_alloc(const struct chunk *c, size_t size)
{
	if (!opt.kasan_stats)
		return;
	count_stat(&heap_stats.live_objects, 1);
	count_stat(&heap_stats.live_bytes, (long)size);
	count_stat(&heap_stats.redzone_bytes, (long)(object_span(c) - size));
}

void chunk_fill(struct chunk *c, size_t size, int api, uint8_t large, uint16_t offset)
{
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = opt.kasan_stacktrace ? stack_capture_fast(pcs, STACK_MAX_FRAMES) : 0;
	c->alloc_stack = depot_save(pcs, n);
	c->alloc_tid = (uint32_t)kasan_current_tid();
	c->size = (uint32_t)size;
	c->api = (uint8_t)api;
	c->offset = offset;
	__atomic_store_n(&c->state, CHUNK_LIVE | large, __ATOMIC_RELEASE);
}

static void fill_header(struct chunk *c, size_t size, int api, uint8_t large, uint16_t offset)
{
	chunk_fill(c, size, api, large, offset);
	count_alloc(c, size);
}

void *kasan_malloc(size_t size, size_t align, int api, int zero)
{
	if (kasan_mode != KASAN_GENERIC)
		return tags_malloc(size, align, api, zero);
	if (align < 16)
		align = 16;
	if (size >= LARGE_THRESHOLD || align > 4096) {
		void *p;
		if (!page_alloc_sampled(size) && unsampled_alloc(size, align, zero, &p))
			return p;
		size_t colour = size >= (64u << 10) ? large_colour(align) : 0;
		int zeroed;
		struct large_meta *m = large_alloc(size, align, (uint16_t)colour, &zeroed);
		if (!m)
			return NULL;
		if (zero && !zeroed)
			rt_memset((void *)m->obj, 0, size);
		fill_header(&m->c, size, api, CHUNK_LARGE, 0);
		return (void *)m->obj;
	}
	size_t lead = ALIGN_UP(sizeof(struct chunk), align);
	size_t request = small_request(size, lead);
	char *raw = align > 16 ? __libc_memalign(align, request) : __libc_malloc(request);
	if (!raw)
		return NULL;
	uintptr_t obj = (uintptr_t)raw + lead;
	/* From glibc's size field of this chunk, which no instrumented code
	 * touches: an underwrite of up to 24 bytes is caught even when the
	 * chunk before is free in glibc and its shadow clear. */
	kasan_poison_redzone((uintptr_t)raw - 8, lead + 8, 0);
	kasan_unpoison(obj, size);
	uintptr_t end = ALIGN_UP(obj + size, KASAN_GRANULE);
	kasan_poison_redzone(end, (uintptr_t)raw + small_span(size, lead) - end, 0);
	if (zero)
		rt_memset((void *)obj, 0, size);
	fill_header((struct chunk *)obj - 1, size, api, 0, (uint16_t)(lead / 16));
	return (void *)obj;
}

void kasan_free(void *ptr)
{
	uintptr_t p = (uintptr_t)ptr;
	if (kasan_mode != KASAN_GENERIC) {
		tags_free(p, (uintptr_t)__builtin_return_address(0));
		return;
	}
	struct chunk *c = kasan_chunk_of(p);
	uint8_t expect = c ? (uint8_t)(CHUNK_LIVE | (c->state & CHUNK_LARGE)) : 0;
	if (!c && unsampled_free(p))
		return;
	if (!c || !__atomic_compare_exchange_n(
	              &c->state, &expect, (uint8_t)(CHUNK_QUARANTINED | (expect & CHUNK_LARGE)), 0,
	              __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		kasan_report_free(p, c != NULL, (uintptr_t)__builtin_return_address(0));
		return;
	}
	size_t size = chunk_size(c);
	struct free_meta *fm = chunk_free_meta(c);
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = opt.kasan_stacktrace ? stack_capture_fast(pcs, STACK_MAX_FRAMES) : 0;
	fm->free_stack = depot_save(pcs, n);
	fm->free_tid = (uint32_t)kasan_current_tid();
	fm->next = NULL;
	int large = c->state & CHUNK_LARGE;
	generic_poison_free(p, size ? size : 1, large);
	/* The quarantine bound counts the memory held, as the kernel's does. */
	size_t held = object_span(c);
	if (opt.kasan_stats) {
		count_stat(&heap_stats.live_objects, -1);
		count_stat(&heap_stats.live_bytes, -(long)size);
		count_stat(&heap_stats.redzone_bytes, -(long)(held - size));
		count_stat(&heap_stats.quarantined_objects, 1);
		count_stat(&heap_stats.quarantined_bytes, (long)held);
	}
	if (large)
		large_quarantine_put((struct large_meta *)c);
	else
		quarantine_put(c, held);
}

/* Out of the quarantine: give the memory back, and its shadow with it. */
void quarantine_release_chunk(struct chunk *c)
{
	uintptr_t obj = chunk_object(c);
	if (opt.kasan_stats) {
		count_stat(&heap_stats.quarantined_objects, -1);
		count_stat(&heap_stats.quarantined_bytes, -(long)object_span(c));
	}
	size_t lead = (size_t)c->offset * 16;
	uintptr_t raw = obj - lead;
	size_t span = small_span(c->size, lead);
	c->state = 0;
	/* Its own size field and usable memory; the next chunk's size field,
	 * under this one's redzone, is that chunk's to clear. */
	kasan_release(raw - 8, span);
	__libc_free((void *)raw);
}

size_t kasan_usable_size(const void *p)
{
	struct chunk *c = kasan_chunk_of((uintptr_t)p);
	if (!c)
		return unsampled_size((uintptr_t)p);
	if ((c->state & ~CHUNK_LARGE) != CHUNK_LIVE)
		return (size_t)-1;
	return chunk_size(c);
}

void *kasan_realloc(void *p, size_t size, int api, void *(*alloc)(size_t size, int api))
{
	size_t old = kasan_usable_size(p);
	if (old == (size_t)-1) {
		/* As the kernel's krealloc: a freed object is a use after free
		 * (a read of its first byte); anything else an invalid free. */
		struct chunk *c = kasan_chunk_of((uintptr_t)p);
		if (kasan_mode != KASAN_GENERIC)
			kasan_free(p); /* a double or an invalid free */
		else if (c)
			kasan_report((uintptr_t)p, 1, 0, (uintptr_t)__builtin_return_address(0));
		else
			kasan_free(p);
		errno = ENOMEM;
		return NULL;
	}
	if (size == 0) {
		kasan_free(p);
		return NULL;
	}
	/* Always move: the old object goes to the quarantine, so a stale
	 * pointer to it is caught, and the new one's redzone starts right at
	 * the new size. */
	void *q = alloc(size, api);
	if (!q)
		return NULL;
	rt_memcpy(q, p, old < size ? old : size);
	kasan_free(p);
	return q;
}
