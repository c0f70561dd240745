/* The tag modes' heaps as a leak scan sees them (base/leak_heap.h), so that
 * kmemleak checks programs built for software tags and programs run with
 * hardware tags as it checks generic mode's.
 *
 * No registry, as in generic mode: what the allocator keeps anyway says
 * where every object starts. Every small object has its 16-byte header
 * just before it, in a granule with the meta tag no object has (tags.c),
 * and its own granules carry its tag. With software tags the small objects
 * are in the C library's heap, and the tag shadow (1/16 of its size) shows
 * them: an object starts where a granule with an object's tag (or a short
 * granule's length) follows a meta-tagged one. With hardware tags they are
 * in hw_heap.c's blocks, which say which are allocated; the object in a
 * block starts at its first granule whose tag is not the meta tag. Large
 * objects, and the unsampled ones (roots), are every mode's (heap_walk.c).
 *
 * Pointers carry their object's tag in the top byte: the scan looks words
 * up with it cleared (.tagged), so that a pointer keeps its object whatever
 * its tag, as the kernel's kmemleak resets the tag before it looks a
 * pointer up. A stale pointer whose tag no longer matches keeps the new
 * object in its slot, as a stale pointer does in generic mode; a pointer
 * the program untagged, or tagged with the match-all tag, keeps it too;
 * and a conservative scan errs towards missing a leak, never towards
 * reporting a live object.
 *
 * Hardware tags: the CPU checks every access's tag, the scan's too, and
 * the scan reads every object with an untagged pointer. The scanning
 * thread's tag checks are off from scan_begin to scan_end (the thread's
 * tag check mode, through prctl, as hw_tags.c turns them off after a
 * report): PSTATE.TCO would do it without a system call, but Linux clears
 * it on entry to a signal handler and qemu-user does not take it back from
 * the signal frame, so a signal in the middle of the scan could turn the
 * checks back on under it. */
#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../kfence/kfence.h"
#include "../platform/mte.h"
#include "../platform/os.h"
#include "../platform/threads.h"
#include "../shadow/shadow.h"
#include "hw_heap.h"
#include "shared.h"
#include "tags.h"

typedef void (*each_fn)(struct leak_object *o, void *arg);

/* Small objects are below this (tags.c's LARGE_THRESHOLD). */
#define SMALL_MAX     4096
#define MAX_SPANS     65536
#define TAG_MATCH_ALL 0xff

/* Set by scan_begin: the meta tag, and (software tags) the spans that hold
 * small objects, sorted. */
static uint8_t meta;
static struct leak_span *spans;
static long nspans;

static struct leak_object *as_object(struct chunk *c)
{
	return (struct leak_object *)c;
}

/* Which spans the heap's regions (hardware tags' small-object heap, the
 * large objects') lie in: their objects are there, whatever else the
 * mappings hold. */
static void note_region(const struct leak_span *in, long n, uintptr_t *first, uintptr_t base,
                        size_t len)
{
	long i = walk_span_index(in, n, base);
	if (i < 0) /* the region starts inside no span: the first one after it */
		for (i = 0; i < n && in[i].end <= base; i++)
			;
	for (; i >= 0 && i < n && in[i].start < base + len; i++) {
		uintptr_t at = in[i].start > base ? in[i].start : base;
		if (!first[i] || at < first[i])
			first[i] = at;
	}
}

static void note_regions(const struct leak_span *in, long n, uintptr_t *first, uintptr_t *lo,
                         uintptr_t *hi)
{
	uintptr_t base;
	size_t len;
	for (int i = 0; large_region(i, &base, &len); i++)
		note_region(in, n, first, base, len);
	walk_large_begin(lo, hi);
}

static void each_root(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	walk_unsampled_roots(fn, arg);
}

/* From any thread, while others allocate and free: p is a live object's
 * start, whatever its tag. */
static int ignore(uintptr_t p)
{
	struct chunk *c = tags_object_at(untag(p));
	if (!c)
		return 0;
	walk_ignore(c);
	return 1;
}

/* ---- Software tags: the C library's heap, read through the tag shadow ---- */

static uintptr_t tag_memory_of(uintptr_t s)
{
	return (s - SHADOW_OFFSET) << TAG_SHADOW_SCALE;
}

/* The header c if it is a live small object's in span: its end as the tag
 * shadow marks it (its last granule short, holding its tag, or whole with
 * its tag). Memory that only looks like a header has an impossible size or
 * end, and the scan would read past the object. */
static struct chunk *sw_small_live(struct chunk *c, const struct leak_span *span)
{
	uintptr_t obj = (uintptr_t)(c + 1);
	if ((uintptr_t)c < span->start || c->state != CHUNK_LIVE || c->size >= SMALL_MAX)
		return NULL;
	size_t size = c->size;
	uintptr_t last = obj + (size ? ALIGN_DOWN(size - 1, TAG_GRANULE) : 0);
	if (last + TAG_GRANULE > span->end || !tag_shadow_mapped(last))
		return NULL;
	uint8_t first = *tag_shadow_of(obj), end = *tag_shadow_of(last);
	uint8_t tag = first < TAG_GRANULE ? *(const uint8_t *)(obj + TAG_GRANULE - 1) : first;
	if (size & (TAG_GRANULE - 1))
		return end == (size & (TAG_GRANULE - 1)) &&
		               *(const uint8_t *)(last + TAG_GRANULE - 1) == tag
		           ? c
		           : NULL;
	return end == tag && first >= TAG_GRANULE ? c : NULL;
}

static int sw_object_tag(uint8_t t)
{
	return t && t != meta && t != TAG_MATCH_ALL;
}

/* The small objects of span, up to max of them, from its tag shadow; their
 * count. Shadow chunks never mapped, and shadow pages never touched, hold no
 * tag and are skipped unread. */
static size_t sw_each_small(const struct leak_span *span, each_fn fn, void *arg, size_t max)
{
	const size_t page = 4096, block = 256 * page; /* within one shadow chunk */
	uintptr_t s0 = (uintptr_t)tag_shadow_of(span->start);
	uintptr_t s1 = (uintptr_t)tag_shadow_of(span->end);
	size_t found = 0;
	uint8_t prev = 0;
	unsigned char vec[256];
	for (uintptr_t sb = ALIGN_DOWN(s0, block); sb < s1; sb += block) {
		if (!tag_shadow_mapped(tag_memory_of(sb))) {
			prev = 0;
			continue;
		}
		if (os_resident(sb, block, vec) != 0)
			for (size_t i = 0; i < sizeof(vec); i++)
				vec[i] =
				    os_resident(sb + i * page, page, &vec[i]) == 0 && (vec[i] & 1);
		for (size_t i = 0; i < sizeof(vec); i++) {
			uintptr_t b = sb + i * page, e = b + page;
			if (e <= s0 || b >= s1)
				continue;
			if (!(vec[i] & 1)) {
				prev = 0;
				continue;
			}
			b = b < s0 ? s0 : b;
			e = e > s1 ? s1 : e;
			for (; b < e; b++) {
				/* A word of one tag holds no start but, after a
				 * header, at its first byte: passed at once
				 * otherwise (untouched memory, headers and freed
				 * memory, a large object's inside). */
				if (!(b & 7) && b + 8 <= e) {
					uint64_t w = *(const uint64_t *)b;
					if (w == 0x0101010101010101ull * (uint8_t)w &&
					    !(prev == meta && sw_object_tag((uint8_t)w))) {
						prev = (uint8_t)w;
						b += 7;
						continue;
					}
				}
				uint8_t t = *(const uint8_t *)b;
				if (prev == meta && sw_object_tag(t)) {
					uintptr_t obj = tag_memory_of(b);
					struct chunk *c =
					    sw_small_live((struct chunk *)obj - 1, span);
					if (c) {
						fn(as_object(c), arg);
						if (++found == max)
							return found;
					}
				}
				prev = t;
			}
		}
	}
	return found;
}

/* The small object of span whose requested bytes hold a, when live: the
 * run of granules with a's tag, walked left to the header's meta tag. */
static struct chunk *sw_small_find(uintptr_t a, const struct leak_span *span)
{
	uintptr_t g = ALIGN_DOWN(a, TAG_GRANULE);
	if (!tag_shadow_mapped(g))
		return NULL;
	uint8_t t = *tag_shadow_of(g);
	if (!sw_object_tag(t))
		return NULL;
	if (t < TAG_GRANULE) { /* a short granule: the object's last */
		if (a - g >= t)
			return NULL;
		t = *(const uint8_t *)(g + TAG_GRANULE - 1);
	}
	for (int i = 0; i <= SMALL_MAX / (int)TAG_GRANULE; i++, g -= TAG_GRANULE) {
		uintptr_t left = g - TAG_GRANULE;
		if (left < span->start)
			return NULL;
		if (!((uintptr_t)tag_shadow_of(g) & 4095) && !tag_shadow_mapped(left))
			return NULL;
		uint8_t l = *tag_shadow_of(left);
		if (l == meta) {
			struct chunk *c = sw_small_live((struct chunk *)g - 1, span);
			return c && (a < g + c->size || (a == g && !c->size)) ? c : NULL;
		}
		if (l != t)
			return NULL;
	}
	return NULL;
}

static void note_first(struct leak_object *o, void *arg)
{
	uintptr_t *first = arg;
	if (!*first || (uintptr_t)o < *first)
		*first = (uintptr_t)o;
}

/* Which spans hold small objects, from their tag shadow. Not the shadow
 * itself, nor the memory of other allocators of ours (large objects'
 * regions, KFENCE's pool). */
static int sw_scan_begin(const struct leak_span *in, long n, uintptr_t *first,
                         struct leak_span *bounds)
{
	if (!spans)
		spans = os_reserve(MAX_SPANS * sizeof(*spans), OS_PROT_RW);
	if (!spans)
		return -1;
	meta = tag_backend->meta;
	nspans = 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (long i = 0; i < n; i++) {
		const struct leak_span *s = &in[i];
		first[i] = 0;
		if (s->end > TAG_VA_END || (s->end > SHADOW_OFFSET && s->start < TAG_SHADOW_END) ||
		    large_owns(s->start) || kfence_owns((void *)s->start) || nspans >= MAX_SPANS)
			continue;
		if (sw_each_small(s, note_first, &first[i], 1)) {
			spans[nspans++] = *s;
			lo = s->start < lo ? s->start : lo;
			hi = s->end > hi ? s->end : hi;
		}
	}
	note_regions(in, n, first, &lo, &hi);
	bounds->start = lo < hi ? lo : 0;
	bounds->end = lo < hi ? hi : 0;
	return 0;
}

static struct leak_object *sw_find(uintptr_t a)
{
	long i = walk_span_index(spans, nspans, a);
	if (i >= 0)
		return as_object(sw_small_find(a, &spans[i]));
	return as_object(walk_large_find(a));
}

static void sw_each_live(each_fn fn, void *arg)
{
	for (long i = 0; i < nspans; i++)
		sw_each_small(&spans[i], fn, arg, SIZE_MAX);
	walk_large_each(fn, arg);
}

const struct leak_heap sw_tags_leak_heap = {
    .name = "sw_tags",
    .scan_begin = sw_scan_begin,
    .tagged = 1,
    .find = sw_find,
    .each_live = sw_each_live,
    .describe = walk_describe,
    .flags_update = walk_flags_update,
    .each_root = each_root,
    .ignore = ignore,
    .thread_ignore = walk_thread_ignore,
};

/* ---- Hardware tags: hw_heap.c's blocks ---- */

/* The scanning thread's tag check mode before the scan; -1: untouched. */
static int mode_before = -1;

/* The live object in the allocated block [start, start+size): at its first
 * granule not tagged meta, its header just before (tags.c puts the
 * alignment's padding and the header first, tagged meta). */
static struct chunk *hw_block_object(uintptr_t start, size_t size)
{
	for (uintptr_t g = start + TAG_GRANULE; g < start + size; g += TAG_GRANULE) {
		if (tag_backend->get(g) == meta)
			continue;
		struct chunk *c = (struct chunk *)g - 1;
		if (c->state != CHUNK_LIVE || (uintptr_t)c->offset * 16 != g - start ||
		    g + c->size > start + size)
			return NULL;
		return c;
	}
	return NULL;
}

struct hw_pass {
	each_fn fn;
	void *arg;
};

static void hw_block(uintptr_t start, size_t size, void *arg)
{
	struct hw_pass *p = arg;
	struct chunk *c = hw_block_object(start, size);
	if (c)
		p->fn(as_object(c), p->arg);
}

static int hw_scan_begin(const struct leak_span *in, long n, uintptr_t *first,
                         struct leak_span *bounds)
{
	meta = tag_backend->meta;
	int now = mte_mode_now();
	if (now > MTE_NONE) {
		if (mte_set_mode(MTE_NONE) != 0)
			return -1;
		mode_before = now;
	}
	uintptr_t lo = UINTPTR_MAX, hi = 0, base;
	size_t len;
	for (long i = 0; i < n; i++)
		first[i] = 0;
	for (int i = 0; hw_heap_region(i, &base, &len); i++)
		if (len) {
			note_region(in, n, first, base, len);
			lo = base < lo ? base : lo;
			hi = base + len > hi ? base + len : hi;
		}
	note_regions(in, n, first, &lo, &hi);
	bounds->start = lo < hi ? lo : 0;
	bounds->end = lo < hi ? hi : 0;
	return 0;
}

static void hw_scan_end(void)
{
	if (mode_before > MTE_NONE)
		mte_set_mode((enum mte_mode)mode_before);
	mode_before = -1;
}

static struct leak_object *hw_find(uintptr_t a)
{
	struct hw_heap_block b;
	if (hw_heap_block_of(a, &b) != 0)
		return as_object(walk_large_find(a));
	struct chunk *c = b.allocated ? hw_block_object(b.start, b.size) : NULL;
	if (!c)
		return NULL;
	uintptr_t obj = (uintptr_t)(c + 1);
	return a >= obj && (a < obj + c->size || (a == obj && !c->size)) ? as_object(c) : NULL;
}

static void hw_each_live(each_fn fn, void *arg)
{
	struct hw_pass p = {fn, arg};
	hw_heap_each_allocated(hw_block, &p);
	walk_large_each(fn, arg);
}

const struct leak_heap hw_tags_leak_heap = {
    .name = "hw_tags",
    .scan_begin = hw_scan_begin,
    .scan_end = hw_scan_end,
    .tagged = 1,
    .find = hw_find,
    .each_live = hw_each_live,
    .describe = walk_describe,
    .flags_update = walk_flags_update,
    .each_root = each_root,
    .ignore = ignore,
    .thread_ignore = walk_thread_ignore,
};
