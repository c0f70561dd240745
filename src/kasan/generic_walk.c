/* The generic mode's heap as a leak scan sees it (base/leak_heap.h): its
 * live objects, the object an address falls in, and the memory it holds
 * that is to be scanned as roots.
 *
 * No registry of live objects is kept: the allocator's shadow already says
 * where every small object starts (its left redzone ends there), so they
 * are found by reading the shadow of the mappings glibc's arenas live in,
 * 1/8 of their size, and the allocation path pays nothing. The object an
 * address falls in is found by walking the shadow left to the redzone;
 * large objects are in large.c's regions and records (heap_walk.c, as for
 * the tag modes). The three bits kmemleak keeps per object are the top of
 * the header's alloc_tid.
 *
 * Roots that only the heap knows of: every thread's live fake frames
 * (kasan.stack_use_after_return keeps address-taken locals there), and the
 * unsampled large objects, which have no header and are not tracked. */
#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../base/leak_remote.h"
#include "../kfence/kfence.h"
#include "../platform/os.h"
#include "../platform/threads.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "generic_shadow.h"
#include "kasan.h"
#include "shared.h"

typedef void (*each_fn)(struct leak_object *o, void *arg);

#define MAX_SPANS 65536

/* Set by scan_begin, read by the scan: the spans that hold small objects,
 * sorted, and whether there are objects of size 0 to look for. */
static struct leak_span *spans;
static long nspans;
static int empties;

static struct leak_object *as_object(struct chunk *c)
{
	return (struct leak_object *)c;
}

/* A live small object's header. Memory that only looks like one (a run
 * of bytes equal to CHUNK_LIVE where the shadow happens to end a redzone:
 * a fuzzer's repeated bytes) has an impossible size, and the scan would
 * read gigabytes past the heap. */
static int small_live(const struct chunk *c)
{
	if (!c || c->state != CHUNK_LIVE || c->size >= GENERIC_SMALL_MAX)
		return 0;
	if (!c->size)
		return 1;
	uintptr_t end = chunk_object(c) + c->size;
	return generic_end_ok(end, *shadow_of(ALIGN_DOWN(end, GRANULE)));
}

/* The live object of size 0 that starts at a, if any (the shadow shows no
 * start for them: their first granule is redzone). */
static struct chunk *empty_at(uintptr_t a)
{
	if (!empties || (a & 15) || (uint8_t)*shadow_of(a) != SHADOW_SLAB_REDZONE)
		return NULL;
	struct chunk *c = generic_chunk_of(a);
	return c && !c->size && small_live(c) ? c : NULL;
}

/* The small object whose requested bytes hold a, when live; else NULL.
 * An object may end at glibc's next size field: then its last 8 bytes are
 * where the next chunk starts, for glibc, and a pointer there, while that
 * chunk is free, is the arena's (leak_glibc_arena_word): no reference
 * unless an object of ours is in use at that chunk. */
static struct chunk *small_find(uintptr_t a)
{
	if (!shadow_covers(a))
		return NULL;
	if (*shadow_of(a) < 0)
		return empty_at(a);
	uintptr_t g = ALIGN_DOWN(a, GRANULE);
	/* Small objects are under a page, their alignment too. */
	for (int i = 0; i < (int)(GENERIC_SMALL_MAX / GRANULE) + 2; i++, g -= GRANULE) {
		int8_t left = *shadow_of(g - GRANULE);
		if ((uint8_t)left == SHADOW_SLAB_REDZONE) {
			struct chunk *c = generic_chunk_of(g);
			if (!small_live(c))
				return NULL;
			if (a == g)
				return c;
			if (a >= g + c->size)
				return NULL;
			if (a == generic_next_glibc_chunk(c) &&
			    !generic_chunk_of(a + 16 + sizeof(struct chunk)))
				return NULL;
			return c;
		}
		if (left != 0)
			return NULL;
	}
	return NULL;
}

/* Every object the scan can reach must be one each_live lists, or its
 * mark would stay and a later scan would take it as marked already and
 * never follow its pointers (the objects behind it, false leaks). */
static struct leak_object *find(uintptr_t a)
{
	if (walk_span_index(spans, nspans, a) >= 0)
		return as_object(small_find(a));
	return as_object(walk_large_find(a));
}

/* Small objects in [lo, hi), from the shadow, up to max of them: an
 * object starts where a run of left-redzone bytes ends. Shadow pages never
 * touched read zero and are skipped unread. */
static size_t each_small(uintptr_t lo, uintptr_t hi, each_fn fn, void *arg, size_t max)
{
	const size_t page = 4096;
	uintptr_t s0 = (uintptr_t)shadow_of(lo), s1 = (uintptr_t)shadow_of(hi);
	size_t found = 0;
	uint8_t prev = 0;
	unsigned char vec[256];
	for (uintptr_t sp = ALIGN_DOWN(s0, page); sp < s1; sp += sizeof(vec) * page) {
		size_t len = sizeof(vec) * page;
		if (os_resident(sp, len, vec) != 0)
			for (size_t i = 0; i < sizeof(vec); i++)
				vec[i] =
				    os_resident(sp + i * page, page, &vec[i]) == 0 && (vec[i] & 1);
		for (size_t i = 0; i < sizeof(vec) && sp + i * page < s1; i++) {
			uintptr_t b = sp + i * page, e = b + page;
			if (!(vec[i] & 1) || !shadow_mapped(shadow_to_mem((void *)b))) {
				prev = 0;
				continue;
			}
			if (b < s0)
				b = s0;
			if (e > s1)
				e = s1;
			for (; b < e; b++) {
				/* Whole words with no addressable byte (redzones
				 * and freed objects: the quarantine is most of a
				 * busy heap at exit), where only an object of size
				 * 0 may start, or of addressable bytes are passed
				 * at once, but an object may start at the first
				 * byte of a zero word (64-byte aligned, 64 bytes or
				 * more): only the bytes after it are skipped unread. */
				if (!(b & 7) && b + 8 <= e) {
					uint64_t w = *(const uint64_t *)b;
					if ((!empties && (w & 0x8080808080808080ull) ==
					                     0x8080808080808080ull) ||
					    w == 0xfafafafafafafafaull ||
					    (!w && prev != SHADOW_SLAB_REDZONE)) {
						prev = (uint8_t)(w >> 56);
						b += 7;
						continue;
					}
				}
				uint8_t s = *(const uint8_t *)b;
				if (generic_starts_object(prev, s)) {
					struct chunk *c =
					    generic_chunk_of(shadow_to_mem((void *)b));
					if (small_live(c)) {
						fn(as_object(c), arg);
						if (++found == max)
							return found;
					}
				} else if (generic_may_start_empty(prev, s)) {
					struct chunk *c = empty_at(shadow_to_mem((void *)b));
					if (c) {
						fn(as_object(c), arg);
						if (++found == max)
							return found;
					}
				}
				prev = s;
			}
		}
	}
	return found;
}

static void note_first(struct leak_object *o, void *arg)
{
	uintptr_t *first = arg;
	if (!*first || (uintptr_t)o < *first)
		*first = (uintptr_t)o;
}

/* Which spans hold small objects, from their shadow; the first object's
 * header is where its memory starts. */
static int scan_begin(const struct leak_span *in, long n, uintptr_t *first,
                      struct leak_span *bounds)
{
	if (!spans)
		spans = os_reserve(MAX_SPANS * sizeof(*spans), OS_PROT_RW);
	if (!spans)
		return -1;
	/* The other threads are stopped: the count holds for the scan. */
	empties = __atomic_load_n(&generic_empty_live, __ATOMIC_RELAXED) > 0;
	nspans = 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (long i = 0; i < n; i++) {
		const struct leak_span *s = &in[i];
		first[i] = 0;
		if (!shadow_covers(s->start) || !shadow_covers(s->end - 1) ||
		    large_owns(s->start) || kfence_owns((void *)s->start) || nspans >= MAX_SPANS)
			continue;
		if (each_small(s->start, s->end, note_first, &first[i], 1)) {
			spans[nspans++] = *s;
			lo = s->start < lo ? s->start : lo;
			hi = s->end > hi ? s->end : hi;
		}
	}
	walk_large_begin(&lo, &hi);
	bounds->start = lo < hi ? lo : 0;
	bounds->end = lo < hi ? hi : 0;
	return 0;
}

static void each_live(each_fn fn, void *arg)
{
	for (long i = 0; i < nspans; i++)
		each_small(spans[i].start, spans[i].end, fn, arg, SIZE_MAX);
	walk_large_each(fn, arg);
}

static void each_root(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	generic_fake_stack_each_live(fn, arg);
	walk_unsampled_roots(fn, arg);
}

/* From any thread, while others allocate and free. */
static int ignore(uintptr_t p)
{
	struct chunk *c = generic_chunk_of(p);
	if (!c || (c->state & ~CHUNK_LARGE) != CHUNK_LIVE)
		return 0;
	walk_ignore(c);
	return 1;
}

const struct leak_heap generic_leak_heap = {
    .name = "generic",
    .scan_begin = scan_begin,
    .find = find,
    .each_live = each_live,
    .describe = walk_describe,
    .flags_update = walk_flags_update,
    .each_root = each_root,
    .ignore = ignore,
    .thread_ignore = walk_thread_ignore,
};

/* For `ukasan leaks PID` (base/leak_remote.h): where this heap keeps what
 * a scan from outside reads, and its layout, from the real structures. */
void kasan_leak_remote_layout(struct leak_remote_generic *g)
{
	g->shadow_offset = SHADOW_OFFSET;
	g->shadow_scale = SHADOW_SCALE;
	g->granule = GRANULE;
	g->va_end = ARCH_VA_END;
	g->shadow_beg = SHADOW_BEG;
	g->shadow_end = SHADOW_END;
	g->mid_beg = SHADOW_MID_BEG;
	g->mid_end = SHADOW_MID_END;
	g->mid = (uintptr_t)&__ukasan_shadow_mid;
	g->slab_redzone = SHADOW_SLAB_REDZONE;
	g->page_redzone = SHADOW_PAGE_REDZONE;
	g->live = CHUNK_LIVE;
	g->large = CHUNK_LARGE;
	/* The widths the contract names: a change here fails the build. */
	struct chunk *c = NULL;
	_Static_assert(sizeof(c->alloc_stack) == 4 && sizeof(c->alloc_tid) == 4 &&
	                   sizeof(c->size) == 4 && sizeof(c->state) == 1,
	               "base/leak_remote.h reads struct chunk's fields at these widths");
	(void)c;
	g->header_size = sizeof(struct chunk);
	g->stack_off = __builtin_offsetof(struct chunk, alloc_stack);
	g->tid_off = __builtin_offsetof(struct chunk, alloc_tid);
	g->size_off = __builtin_offsetof(struct chunk, size);
	g->state_off = __builtin_offsetof(struct chunk, state);
	g->max_small = GENERIC_SMALL_MAX;
	g->flags_shift = CHUNK_TID_FLAGS_SHIFT;
	g->tid_mask = CHUNK_TID_MASK;
	g->empty_live = (uintptr_t)&generic_empty_live;
	large_leak_remote(g);
	unsampled_leak_remote(g);
	generic_fake_stack_leak_remote(g);
}
