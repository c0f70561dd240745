/* The tag-based modes' allocator core (the kernel's mm/kasan/tags.c and the
 * tag parts of common.c): every object gets a random tag, in its pointer's
 * top byte and on its memory, and a freed object's memory gets the invalid
 * tag. An access whose pointer tag differs from the memory's is a bug. No
 * quarantine and no redzones, as in the kernel: a freed slot is reused at
 * once, under a new tag, and objects sit side by side.
 *
 * Small objects come from the back end's chunk allocator (glibc's for
 * software tags, a PROT_MTE heap for hardware tags):
 *
 *   [chunk hdr][struct chunk | object ........ |pad to 16][next chunk]
 *               ^ tag meta     ^ tag T (pointer tag T)
 *
 * The header granule carries the meta tag, which no object has, so a
 * contiguous overflow in either direction always lands on a wrong tag.
 * Large objects come from large.c's regions, with their quarantine (which
 * is also how their pages go back lazily).
 *
 * Allocations and frees are recorded in the stack ring
 * (kasan.stack_ring_size entries), from which reports tell a use after
 * free from an out-of-bounds access and find the stacks, as the kernel's
 * report_tags.c does. */
#include "shared.h"

#include <errno.h>

#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "tags.h"

const struct tag_backend *tag_backend;

/* ---- The stack ring ---- */

static struct ring_entry *ring;
static size_t ring_size;
static uint64_t ring_pos;

static void ring_init(void)
{
	ring_size = opt.kasan_stack_ring_size;
	if (ring_size)
		ring = os_reserve(ring_size * sizeof(*ring), OS_PROT_RW);
	if (!ring)
		ring_size = 0;
}

void tags_init(const struct tag_backend *b)
{
	tag_backend = b;
	ring_init();
}

/* As the kernel's: with kasan.stacktrace=off nothing is recorded, and
 * reports cannot tell a use after free from an out-of-bounds access. */
static void ring_record(uintptr_t ptr, size_t size, int is_free, int api)
{
	if (!ring_size || !opt.kasan_stacktrace)
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture_fast(pcs, STACK_MAX_FRAMES);
	uint64_t i = __atomic_fetch_add(&ring_pos, 1, __ATOMIC_RELAXED);
	struct ring_entry *e = &ring[i % ring_size];
	/* Readers (reports) check ptr last-written-first: a torn entry is
	 * best effort, as the kernel's. */
	__atomic_store_n(&e->ptr, 0, __ATOMIC_RELAXED);
	e->size = size;
	e->tid = (uint32_t)os_tid();
	e->stack = depot_save(pcs, n);
	e->is_free = (uint8_t)is_free;
	e->api = (uint8_t)api;
	__atomic_store_n(&e->ptr, ptr, __ATOMIC_RELEASE);
}

/* Newest first. fn returns nonzero to stop. */
void tags_ring_walk(int (*fn)(const struct ring_entry *e, void *arg), void *arg)
{
	if (!ring_size)
		return;
	uint64_t pos = __atomic_load_n(&ring_pos, __ATOMIC_ACQUIRE);
	for (uint64_t k = 0; k < ring_size && k < pos; k++) {
		const struct ring_entry *e = &ring[(pos - 1 - k) % ring_size];
		struct ring_entry copy = *e;
		if (__atomic_load_n(&e->ptr, __ATOMIC_ACQUIRE) != copy.ptr || !copy.ptr)
			continue;
		if (fn(&copy, arg))
			return;
	}
}

/* The header of the object that would start at a (untagged), whatever its
 * state: large objects from their region's side table, small ones from
 * the granule before them, which carries the meta tag no object has. */
static struct chunk *header_at(uintptr_t a)
{
	if ((a & (TAG_GRANULE_SIZE - 1)) || a < 4096 || a >= TAG_VA_END)
		return NULL;
	if (large_owns(a)) {
		struct large_meta *m = large_meta_of(a);
		return m ? &m->c : NULL;
	}
	if (!tag_backend->chunk_owns(a) ||
	    tag_backend->get(a - TAG_GRANULE_SIZE) != tag_backend->meta)
		return NULL;
	return (struct chunk *)a - 1;
}

/* The live object that starts at addr (untagged), from its header,
 * whatever the pointer's tag: for reports whose stack ring has no record
 * under that tag. */
struct chunk *tags_object_at(uintptr_t a)
{
	struct chunk *c = header_at(a);
	if (c && !(c->state & CHUNK_LARGE) && tag_backend->get(a) == tag_backend->meta)
		return NULL;
	return c && (c->state & ~CHUNK_LARGE) == CHUNK_LIVE ? c : NULL;
}

/* ---- Tagging ---- */

void tags_mark(uintptr_t addr, size_t size, uint8_t tag)
{
	if (size)
		tag_backend->set(ALIGN_DOWN(addr, TAG_GRANULE_SIZE),
		                 ALIGN_UP(addr + size, TAG_GRANULE_SIZE) -
		                     ALIGN_DOWN(addr, TAG_GRANULE_SIZE),
		                 tag);
}

void tags_release(uintptr_t addr, size_t size)
{
	if (tag_backend->release)
		tag_backend->release(addr, size);
}

/* The header of the live object p points to the start of, with p's tag;
 * NULL otherwise. *why: "double-free" when p's memory has the invalid tag
 * (freed), "invalid-free" for anything else. */
static struct chunk *live_chunk(uintptr_t p, const char **why)
{
	uintptr_t a = untag(p);
	uint8_t pt = ptr_tag(p);
	*why = "invalid-free";
	struct chunk *c = header_at(a);
	if (!c)
		return NULL;
	uint8_t mt = tag_backend->get(a);
	/* The kernel's rule: an object start whose memory the pointer's tag
	 * cannot access is freed already (or the pointer is stale). */
	if (pt != mt && (mt == tag_backend->invalid || mt != tag_backend->meta)) {
		*why = "double-free";
		return NULL;
	}
	if (mt != pt || (c->state & ~CHUNK_LARGE) != CHUNK_LIVE)
		return NULL;
	return c;
}

int tags_owns(uintptr_t p)
{
	uintptr_t a = untag(p);
	return large_owns(a) || tag_backend->chunk_owns(a) || unsampled_size(a) != (size_t)-1;
}

struct chunk *tags_chunk_of(uintptr_t p)
{
	const char *why;
	return live_chunk(p, &why);
}

/* kasan.stats: what an object holds beyond its size is its header and
 * granule padding (large: the rest of its pages). */
static void count(long objects, size_t size, size_t held)
{
	if (!opt.kasan_stats)
		return;
	count_stat(&heap_stats.live_objects, objects);
	count_stat(&heap_stats.live_bytes, objects * (long)size);
	count_stat(&heap_stats.redzone_bytes, objects * (long)(held - size));
}

static size_t held_small(size_t size, size_t lead)
{
	return lead + ALIGN_UP(size ? size : 1, TAG_GRANULE_SIZE);
}

#define LARGE_THRESHOLD 4096u

static void *large_tagged(size_t size, size_t align, int api, int zero)
{
	void *p;
	if (!page_alloc_sampled(size) && unsampled_alloc(size, align, zero, &p))
		return p;
	struct large_extent g;
	struct large_meta *m = large_alloc(size, align, 0, &g);
	if (!m)
		return NULL;
	uintptr_t obj = m->obj, page = os_page_size();
	uintptr_t start = ALIGN_DOWN(obj, page); /* past an aligned object's slack */
	uintptr_t end = ALIGN_UP(obj + size, TAG_GRANULE_SIZE);
	uint8_t tag = tag_backend->random_tag();
	tags_mark(start, obj - start, tag_backend->invalid);
	tag_backend->mark_object(obj, size, tag);
	tags_mark(end, g.guard - end, tag_backend->invalid);
	uintptr_t tagged = with_ptr_tag(obj, tag);
	if (zero && !g.zeroed)
		rt_memset((void *)tagged, 0, size);
	chunk_fill(&m->c, size, api, CHUNK_LARGE, 0);
	count(1, size, (size_t)m->pages * page);
	ring_record(tagged, size, 0, api);
	return (void *)tagged;
}

void *tags_malloc(size_t size, size_t align, int api, int zero)
{
	if (tag_backend->rearm)
		tag_backend->rearm();
	if (align < TAG_GRANULE_SIZE)
		align = TAG_GRANULE_SIZE;
	size_t lead = ALIGN_UP(sizeof(struct chunk), align);
	size_t span = ALIGN_UP(size ? size : 1, TAG_GRANULE_SIZE);
	/* Page-aligned and big aligned requests (valloc) are large objects. */
	if (size >= LARGE_THRESHOLD || lead + span > LARGE_THRESHOLD + TAG_GRANULE_SIZE)
		return large_tagged(size, align, api, zero);
	char *raw = tag_backend->chunk_alloc(align, lead + span);
	if (!raw) /* no size class fits this alignment (hw_heap.c) */
		return large_tagged(size, align, api, zero);
	uintptr_t obj = (uintptr_t)raw + lead;
	uint8_t tag = tag_backend->random_tag();
	tags_mark((uintptr_t)raw, lead, tag_backend->meta);
	tag_backend->mark_object(obj, size, tag);
	uintptr_t tagged = with_ptr_tag(obj, tag);
	if (zero)
		rt_memset((void *)tagged, 0, size);
	chunk_fill((struct chunk *)obj - 1, size, api, 0, (uint16_t)(lead / 16));
	count(1, size, held_small(size, lead));
	ring_record(tagged, size, 0, api);
	return (void *)tagged;
}

/* Inside our free(): a report's first frame is its caller. */
struct chunk *tags_retire(uintptr_t p, struct chunk *c)
{
	if (tag_backend->rearm)
		tag_backend->rearm();
	const char *why = "invalid-free";
	if (!c)
		c = live_chunk(p, &why);
	if (!c && unsampled_free(untag(p)))
		return NULL;
	uint8_t expect = c ? (uint8_t)(CHUNK_LIVE | (c->state & CHUNK_LARGE)) : 0;
	if (!c || !__atomic_compare_exchange_n(
	              &c->state, &expect, (uint8_t)(CHUNK_QUARANTINED | (expect & CHUNK_LARGE)), 0,
	              __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
		kasan_report_free(p, c ? "double-free" : why);
		return NULL;
	}
	return c;
}

void tags_free(struct chunk *c, uintptr_t p)
{
	uintptr_t obj = untag(p);
	size_t size = chunk_size(c);
	ring_record(p, size, 1, c->api);
	tags_mark(obj, size ? size : 1, tag_backend->invalid);
	if (c->state & CHUNK_LARGE) {
		/* Its free stack is in the ring, not in its free record. */
		struct large_meta *m = (struct large_meta *)c;
		count(-1, size, (size_t)m->pages * os_page_size());
		if (opt.kasan_stats) { /* large.c takes them out at eviction */
			count_stat(&heap_stats.quarantined_objects, 1);
			count_stat(&heap_stats.quarantined_bytes,
			           (long)m->pages * (long)os_page_size());
		}
		large_quarantine_put(m);
		return;
	}
	size_t lead = (size_t)c->offset * 16;
	count(-1, size, held_small(size, lead));
	c->state = 0;
	tag_backend->chunk_free((void *)(obj - lead));
}

/* The first granule of [addr, addr+size) the pointer's tag does not match
 * (untagged), or 0: the back end's own test when it has one (software
 * tags: eight tags a load, and short granules). */
static uintptr_t first_mismatch(uintptr_t addr, size_t size)
{
	uint8_t pt = ptr_tag(addr);
	uintptr_t a = untag(addr), end = a + size;
	if (pt == tag_backend->match_all && tag_backend->match_all)
		return 0;
	if (tag_backend->mismatch)
		return tag_backend->mismatch(a, size, pt);
	for (uintptr_t g = ALIGN_DOWN(a, TAG_GRANULE_SIZE); g < end; g += TAG_GRANULE_SIZE)
		if (tag_backend->get(g) != pt)
			return g < a ? a : g;
	return 0;
}

/* The first granule of [addr, addr+size) whose tag differs from the
 * pointer's (untagged), or addr untagged when none does. */
uintptr_t tags_first_bad(uintptr_t addr, size_t size)
{
	uintptr_t bad = size ? first_mismatch(addr, size) : 0;
	return bad ? bad : untag(addr);
}

int tags_access_ok(uintptr_t addr, size_t size)
{
	uintptr_t a = untag(addr);
	return !size || (a + size >= a && a + size <= TAG_VA_END && !first_mismatch(addr, size));
}

static int check_range(uintptr_t addr, size_t size, int write, uintptr_t ip, int from_ip)
{
	if (!size || !kasan_enabled || !tag_backend)
		return 1;
	if (!tags_access_ok(addr, size)) {
		if (from_ip)
			kasan_report_from(addr, size, write, ip);
		else
			kasan_report(addr, size, write, ip);
		return 0;
	}
	return 1;
}

int tags_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	return check_range(addr, size, write, ip, 0);
}

int tags_check_range_from(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	return check_range(addr, size, write, ip, 1);
}
