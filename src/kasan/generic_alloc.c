/* The generic mode's allocator: every object between redzones whose shadow
 * says so, freed objects in the quarantine. Chunks come from glibc's malloc
 * (or, when large, from large.c's regions):
 *
 *   [glibc hdr][pad][struct chunk | object ......... | right redzone ][next hdr]
 *                    left redzone   ^ returned pointer
 *
 * The request is sized so that glibc's usable size is exactly what was
 * asked (n = 8 mod 16 on x86-64; now and then a little more: glibc_tail),
 * and the next chunk's 8-byte size field, which no instrumented code
 * touches, is poisoned with our right redzone: the redzones cost what
 * AddressSanitizer's do, not more. For some sizes (17-24 bytes, 33-40) the
 * field is all the right redzone: a reported write over it, which a
 * program that runs on makes, is undone before glibc reads the field
 * (generic_heap.c, far_keep_fields).
 *
 * glibc keeps its per-thread arenas and tcache, so threads do not share a
 * lock. What glibc has not handed out reads as heap redzone, as ASan's
 * unallocated memory does (generic_heap.c). */
#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/libc_alloc.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "shared.h"

/* A page and more: from large.c's regions. Below glibc's 128 KiB mmap
 * threshold, so small chunks always come from an arena. */
#define LARGE_THRESHOLD 4096u

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
	else /* the next chunk's size field may be all of the right redzone */
		want = lead + ALIGN_UP(size, 8) + (rz > 8 ? rz : 8) - 8;
	return ALIGN_UP(want + 8, 16) - 8;
}

static size_t small_span(size_t size, size_t lead)
{
	return small_request(size, lead) + 8;
}

/* glibc gives a free chunk whole when what would be left is too small to
 * be one: up to 16 bytes more than asked (32 after memalign). They are the
 * right redzone too: left out, the shadow showed a redzone ending there,
 * where kmemleak's heap walk takes an object to start and reads the 16
 * bytes before it, stale, as its header (a false leak when they read as a
 * live one). A small chunk's offset field keeps its lead in 16-byte units
 * (4096 / 16 at most: 9 bits), and these bytes above it. */
#define LEAD_BITS 9
#define TAIL_MAX  ((0xffffu >> LEAD_BITS) * 16)

static size_t chunk_lead(const struct chunk *c)
{
	return (size_t)(c->offset & ((1u << LEAD_BITS) - 1)) * 16;
}

/* Its usable memory and the next chunk's size field, all of whose shadow
 * it owns. */
static size_t chunk_span(const struct chunk *c)
{
	return small_span(c->size, chunk_lead(c)) + (size_t)(c->offset >> LEAD_BITS) * 16;
}

/* What glibc gave beyond the request, in whole granule pairs. Past
 * TAIL_MAX (an mmapped chunk, under a tiny M_MMAP_THRESHOLD) the rest is
 * fresh memory of that chunk's own, which reads as no header. */
static size_t glibc_tail(void *raw, size_t request)
{
	size_t (*usable)(void *) = libc_alloc()->usable_size;
	size_t n = usable ? usable(raw) : request;
	n = n > request ? ALIGN_DOWN(n - request, 16) : 0;
	return n < TAIL_MAX ? n : TAIL_MAX;
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

/* Memory a live object holds beyond its size. */
static size_t object_span(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return ((const struct large_meta *)c)->pages * os_page_size();
	return chunk_span(c) + 8;
}

static void count_alloc(const struct chunk *c, size_t size)
{
	if (!opt.kasan_stats)
		return;
	count_stat(&heap_stats.live_objects, 1);
	count_stat(&heap_stats.live_bytes, (long)size);
	count_stat(&heap_stats.redzone_bytes, (long)(object_span(c) - size));
}

/* The shadow's marking of the allocator's memory. */
static void poison_redzone(uintptr_t addr, size_t size, int large)
{
	shadow_poison(addr, size, large ? SHADOW_PAGE_REDZONE : SHADOW_SLAB_REDZONE);
}

static void *large_malloc(size_t size, size_t align, int api, int zero)
{
	void *p;
	if (!page_alloc_sampled(size) && unsampled_alloc(size, align, zero, &p)) {
		kasan_libc_handed(p);
		return p;
	}
	size_t colour = size >= (64u << 10) ? large_colour(align) : 0;
	struct large_extent g;
	struct large_meta *m = large_alloc(size, align, (uint16_t)colour, &g);
	if (!m)
		return NULL;
	uintptr_t obj = m->obj;
	if (obj > g.extent)
		poison_redzone(g.extent, obj - g.extent, 1);
	/* Shadow released since the last purge reads 00 already; shadow still
	 * resident is cheaper to clear than to give back and fault in again. */
	if (g.marks_clear)
		shadow_unpoison(obj + ALIGN_DOWN(size, KASAN_GRANULE), size & (KASAN_GRANULE - 1));
	else
		shadow_unpoison_resident(obj, size);
	uintptr_t end = ALIGN_UP(obj + size, KASAN_GRANULE);
	poison_redzone(end, g.end - end, 1);
	if (zero && !g.zeroed)
		rt_memset((void *)obj, 0, size);
	chunk_fill(&m->c, size, api, CHUNK_LARGE, 0);
	count_alloc(&m->c, size);
	return (void *)obj;
}

/* Chunks out of the quarantine, kept by each thread by glibc request size
 * for its next allocation of that size (as glibc's tcache, but big enough
 * for a quarantine batch, which comes out a megabyte at once): glibc's free
 * would merge each cold chunk with its cold neighbours and its malloc cut
 * them up again, a fifth of the CPU time of allocator churn. A cached chunk
 * is glibc's, to the rest of ukasan: its shadow reads as glibc's free
 * memory and its header no object. Bounded; past the bound, and at the
 * thread's end, they go back. */
#define CACHE_MAX_REQUEST 4216u /* small_request() of the largest small object */
#define CACHE_BYTES       (2ul << 20)

static __thread struct {
	void *head[CACHE_MAX_REQUEST / 16 + 1]; /* requests are 8 mod 16 */
	size_t bytes;
} cache __attribute__((tls_model("initial-exec")));

static char *cache_get(size_t request)
{
	if (request > CACHE_MAX_REQUEST)
		return NULL;
	void **slot = &cache.head[request / 16], *raw = *slot;
	if (raw) {
		*slot = *(void **)raw;
		cache.bytes -= request;
		/* Cold since it was freed: the next one of this size is read
		 * while the program works. */
		if (*slot)
			__builtin_prefetch(*slot, 1);
	}
	return raw;
}

static int cache_put(void *raw, size_t request)
{
	if (request > CACHE_MAX_REQUEST || cache.bytes + request > CACHE_BYTES)
		return 0;
	void **slot = &cache.head[request / 16];
	*(void **)raw = *slot;
	*slot = raw;
	cache.bytes += request;
	return 1;
}

/* At a thread's end, closed for good: nothing would drain it again. */
static void cache_drain(int exiting)
{
	for (size_t i = 0; i < sizeof(cache.head) / sizeof(cache.head[0]); i++)
		while (cache.head[i]) {
			void *raw = cache.head[i];
			cache.head[i] = *(void **)raw;
			libc_alloc()->free(raw);
		}
	cache.bytes = exiting ? CACHE_BYTES : 0;
}

void *generic_malloc(size_t size, size_t align, int api, int zero)
{
	far_mend();
	if (align < 16)
		align = 16;
	if (size >= LARGE_THRESHOLD || align > 4096)
		return large_malloc(size, align, api, zero);
	size_t lead = ALIGN_UP(sizeof(struct chunk), align);
	size_t request = small_request(size, lead);
	char *raw = align > 16 ? NULL : cache_get(request);
	size_t tail = 0; /* a cached chunk is of this request exactly */
	if (!raw) {
		raw = align > 16 ? libc_alloc()->memalign(align, request)
		                 : libc_alloc()->malloc(request);
		if (!raw)
			return NULL;
		tail = glibc_tail(raw, request);
		far_heap_take((uintptr_t)raw, (uintptr_t)raw + small_span(size, lead) + tail);
	}
	uintptr_t obj = (uintptr_t)raw + lead;
	/* From glibc's size field of this chunk, which no instrumented code
	 * touches: an underwrite of up to 24 bytes is caught even when the
	 * chunk before is free in glibc and its shadow clear. */
	poison_redzone((uintptr_t)raw - 8, lead + 8, 0);
	shadow_unpoison(obj, size);
	uintptr_t end = ALIGN_UP(obj + size, KASAN_GRANULE);
	poison_redzone(end, (uintptr_t)raw + small_span(size, lead) + tail - end, 0);
	if (zero)
		rt_fill((void *)obj, 0, size);
	struct chunk *c = (struct chunk *)obj - 1;
	chunk_fill(c, size, api, 0, (uint16_t)(lead / 16 | tail / 16 << LEAD_BITS));
	count_alloc(c, size);
	if (!size)
		__atomic_add_fetch(&generic_empty_live, 1, __ATOMIC_RELAXED);
	return (void *)obj;
}

long generic_empty_live;

/* Inside our free(): a report's first frame is its caller. */
struct chunk *generic_retire(uintptr_t p, struct chunk *c)
{
	if (!c)
		c = generic_chunk_of(p);
	if (!c) {
		if (!unsampled_free(p))
			kasan_report_free(p, "invalid-free");
		return NULL;
	}
	uint8_t large = c->state & CHUNK_LARGE, expect = (uint8_t)(CHUNK_LIVE | large);
	if (!__atomic_compare_exchange_n(&c->state, &expect, (uint8_t)(CHUNK_QUARANTINED | large),
	                                 0, __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		kasan_report_free(p, "double-free");
		return NULL;
	}
	return c;
}

void generic_free(struct chunk *c, uintptr_t p)
{
	far_mend();
	size_t size = chunk_size(c);
	chunk_fill_free(c);
	int large = c->state & CHUNK_LARGE;
	if (!size && !large)
		__atomic_sub_fetch(&generic_empty_live, 1, __ATOMIC_RELAXED);
	shadow_poison(p, size ? size : 1, large ? SHADOW_PAGE_FREE : SHADOW_SLAB_FREETRACK);
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
static void release_chunk(struct chunk *c)
{
	far_mend(); /* far_give_back reads its glibc size field */
	uintptr_t obj = chunk_object(c);
	if (opt.kasan_stats) {
		count_stat(&heap_stats.quarantined_objects, -1);
		count_stat(&heap_stats.quarantined_bytes, -(long)object_span(c));
	}
	size_t lead = chunk_lead(c), span = chunk_span(c);
	uintptr_t raw = obj - lead;
	c->state = 0;
	/* Its own size field and usable memory; the next chunk's size field,
	 * under this one's redzone, is that chunk's to clear. */
	far_give_back(raw, span);
	/* From libc's malloc (memalign's have a longer lead): its usable size,
	 * the request it fits exactly. */
	if (lead == 16 && cache_put((void *)raw, span - 8))
		return;
	libc_alloc()->free((void *)raw);
}

/* The chunk header of p if p is the start of one of our objects, live or
 * quarantined; NULL for anything else (interior, foreign, wild pointers). */
struct chunk *generic_chunk_of(uintptr_t p)
{
	if (large_owns(p)) {
		struct large_meta *m = large_meta_of(p);
		return m ? &m->c : NULL;
	}
	if ((p & 15) || !shadow_covers(p) || !shadow_covers(p - 16) || p < 4096)
		return NULL;
	uint8_t left = (uint8_t)*shadow_of(p - 1), head = (uint8_t)*shadow_of(p - 16);
	uint8_t here = (uint8_t)*shadow_of(p);
	if ((left != SHADOW_SLAB_REDZONE && left != SHADOW_PAGE_REDZONE) || head != left)
		return NULL;
	struct chunk *c = (struct chunk *)p - 1;
	uint8_t st = c->state & ~CHUNK_LARGE;
	if (st != CHUNK_LIVE && st != CHUNK_QUARANTINED)
		return NULL;
	/* Only an empty object starts with redzone shadow. */
	if ((here == SHADOW_SLAB_REDZONE || here == SHADOW_PAGE_REDZONE) && chunk_size(c) != 0)
		return NULL;
	return c;
}

/* Reports: the object addr belongs to, or the one whose redzone it is in. */
struct chunk *generic_find_chunk(uintptr_t addr)
{
	if (large_owns(addr)) {
		struct large_meta *m = large_find(addr);
		return m ? &m->c : NULL;
	}
	if (!shadow_covers(addr))
		return NULL;
	uintptr_t a = ALIGN_DOWN(addr, GRANULE);
	uint8_t s = (uint8_t)*shadow_of(a);
	/* Large objects are large.c's, found above: an object here is smaller
	 * than LARGE_THRESHOLD, and its start no further back. Accessible
	 * shadow further than that is not a heap object's (a wild pointer's
	 * shadow reads 00 for gigabytes). */
	const size_t limit = LARGE_THRESHOLD;
	if (s == SHADOW_SLAB_FREETRACK || s == SHADOW_PAGE_FREE || s < 0x80) {
		/* Inside an object: walk left to its start. */
		for (size_t walked = 0; walked < limit && shadow_covers(a - GRANULE); walked += 8) {
			uint8_t l = (uint8_t)*shadow_of(a - GRANULE);
			if (l == SHADOW_SLAB_REDZONE || l == SHADOW_PAGE_REDZONE)
				return generic_chunk_of(a);
			if (l != s && !(s < 0x80 && l < 0x80))
				return NULL;
			a -= GRANULE;
		}
		return NULL;
	}
	if (s != SHADOW_SLAB_REDZONE && s != SHADOW_PAGE_REDZONE)
		return NULL;
	/* In a redzone: the nearest object on either side. */
	struct chunk *left = NULL, *right = NULL;
	uintptr_t l = a, r = a;
	size_t dl = 0, dr = 0;
	/* An empty object is all redzone in the shadow: only its header finds it. */
	struct chunk *here = generic_chunk_of(ALIGN_DOWN(addr, 16));
	if (here && chunk_size(here) == 0)
		return here;
	for (; dl < (64u << 10) && shadow_covers(l - GRANULE); dl += GRANULE, l -= GRANULE) {
		if (!(l & 15) && (left = generic_chunk_of(l)) && chunk_size(left) == 0)
			break;
		left = NULL;
		uint8_t v = (uint8_t)*shadow_of(l - GRANULE);
		if (v != SHADOW_SLAB_REDZONE && v != SHADOW_PAGE_REDZONE) {
			left = generic_find_chunk(l - GRANULE);
			break;
		}
	}
	for (; dr < (64u << 10) && shadow_covers(r + GRANULE); dr += GRANULE, r += GRANULE) {
		if (!((r + GRANULE) & 15) && (right = generic_chunk_of(r + GRANULE)) &&
		    chunk_size(right) == 0)
			break;
		right = NULL;
		uint8_t v = (uint8_t)*shadow_of(r + GRANULE);
		if (v != SHADOW_SLAB_REDZONE && v != SHADOW_PAGE_REDZONE) {
			right = generic_chunk_of(r + GRANULE);
			break;
		}
	}
	if (left && right)
		return addr - (chunk_object(left) + chunk_size(left)) <= chunk_object(right) - addr
		           ? left
		           : right;
	return left ? left : right;
}

/* Where glibc's next chunk starts (its prev_size field: the arena's
 * pointers to a free chunk point there), the last 8 bytes of an object
 * whose right redzone is only the next size field. */
uintptr_t generic_next_glibc_chunk(const struct chunk *c)
{
	return chunk_object(c) - chunk_lead(c) + chunk_span(c) - 16;
}

/* A write a check reported, which a program that runs on makes next. */
static void reported_write(uintptr_t addr, size_t size)
{
	struct chunk *c = generic_find_chunk(addr);
	if (c && !(c->state & CHUNK_LARGE))
		far_keep_fields(chunk_object(c) - chunk_lead(c), addr, size);
}

const struct kasan_ops generic_ops = {
    .name = "generic",
    .malloc = generic_malloc,
    .retire = generic_retire,
    .free = generic_free,
    .chunk_of = generic_chunk_of,
    .fill_new = 1,
    .poison_redzone = poison_redzone,
    .release = shadow_release,
    .forget_range = generic_forget_range,
    .thread_stack_clear = generic_thread_stack_clear,
    .kfence_placed = generic_kfence_placed,
    .kfence_freed = generic_kfence_freed,
    .check_range = generic_check_range,
    .has_metadata = generic_has_metadata,
    .first_bad = generic_first_bad,
    .bug_type = generic_bug_type,
    .describe = generic_describe,
    .row_granule = GRANULE,
    .fetch_row = generic_fetch_row,
    .reported_write = reported_write,
    .leak_heap = &generic_leak_heap,
    .fork_prepare = far_fork_prepare,
    .fork_parent = far_fork_parent,
    .fork_child = far_fork_child,
};

/* After the shadow is set up (generic_abi.c). */
void generic_alloc_init(void)
{
	quarantine_init(release_chunk, cache_drain);
	far_heap_init();
}
