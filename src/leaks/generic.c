/* The generic mode's heap (a ukasan-cc program) read out of a stopped
 * process, as kasan/generic_walk.c reads it in-process: small objects
 * found from the shadow of the process's private writable mappings (where
 * a run of left-redzone bytes ends, kasan/generic_shadow.h), each checked
 * against its header; large objects from the regions' records; the live
 * fake frames, the unsampled objects and KFENCE's pool as roots. Where
 * things are and how they are laid out comes from the process
 * (base/leak_remote.h's generic block, filled in by kasan/ from its real
 * structures): every value is checked, and every read may fail, before
 * use. The objects go to objects.c's sorted array, whose find and
 * write-back of LEAK_REPORTED (into the header's alloc_tid) serve the
 * scan. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/leak_heap.h"
#include "../base/leak_remote.h"
#include "../kasan/generic_shadow.h"
#include "../platform/remote.h"
#include "leaks.h"

static struct leak_remote_generic g;
static int mid;

/* The large regions, as read: [base, base + len), records at meta. */
static struct region_copy {
	uintptr_t base, len, meta;
} *regions;
static long nregions;

/* Memory read as roots, not objects. */
static struct leak_span *roots;
static size_t nroots, caproots;

static int read_regions(void);

/* Bounds the work a lying process can ask for: records walked in the
 * large regions (real programs walk one per extent), roots, fake stacks'
 * flag bytes read (4096 threads' take 128 MiB). And the memory whose
 * shadow is read: 64 GiB of private writable mappings (8 GiB of shadow),
 * past which the tool says it cannot scan rather than miss objects (whose
 * pointers would not be followed: false leaks behind them). */
#define MAX_STEPS      (1ul << 22)
#define MAX_ROOTS      (1ul << 22)
#define MAX_FLAG_BYTES (256ul << 20)
#define MAX_WALKED     (64ul << 30)

static uint64_t load(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	memcpy(&v, p, n); /* little-endian hosts: x86-64, arm64 */
	return v;
}

static void add_root(uintptr_t lo, uintptr_t hi)
{
	if (hi <= lo || nroots >= MAX_ROOTS)
		return;
	if (nroots == caproots) {
		size_t cap = caproots ? caproots * 2 : 256;
		struct leak_span *more = realloc(roots, cap * sizeof(*roots));
		if (!more)
			return; /* fewer roots: the scan may over-report, never crash */
		roots = more;
		caproots = cap;
	}
	roots[nroots++] = (struct leak_span){lo, hi};
}

static int covers(uintptr_t a)
{
	return a < g.va_end && (a < g.shadow_beg || a >= g.shadow_end ||
	                        (mid && a - g.mid_beg < g.mid_end - g.mid_beg));
}

static uintptr_t shadow_at(uintptr_t a)
{
	return (a >> SHADOW_SCALE) + g.shadow_offset;
}

static int in_region(uintptr_t a)
{
	for (long i = 0; i < nregions; i++)
		if (a - regions[i].base < regions[i].len)
			return 1;
	return 0;
}

/* Reads [at, at + len) into dst, the pages that cannot be read as zero
 * (shadow never written reads zero too). */
static void read_zeroed(uint8_t *dst, uintptr_t at, size_t len)
{
	if (remote_read(dst, at, len) == 0)
		return;
	for (size_t off = 0; off < len;) {
		size_t n = ((at + off) | 4095) + 1 - (at + off);
		n = n < len - off ? n : len - off;
		if (remote_read(dst + off, at + off, n) != 0)
			memset(dst + off, 0, n);
		off += n;
	}
}

/* A window of the process's memory, for the headers of objects close
 * together: one read for many. */
static uint8_t window[1 << 16];
static uintptr_t window_lo, window_hi;

static const uint8_t *header_at(uintptr_t h, uintptr_t limit)
{
	if (h >= window_lo && h + g.header_size <= window_hi)
		return window + (h - window_lo);
	window_lo = window_hi = 0;
	size_t n = limit - h < sizeof(window) ? limit - h : sizeof(window);
	if (n >= g.header_size && remote_read(window, h, n) == 0) {
		window_lo = h;
		window_hi = h + n;
	} else if (remote_read(window, h, g.header_size) == 0) {
		window_lo = h;
		window_hi = h + g.header_size;
	} else
		return NULL;
	return window;
}

/* The small object at obj, its shadow byte at sh[0], its header's shadow
 * at sh[-2], the shadow after it up to sh_end: added when its header says
 * it is live and its size fits what the shadow shows (generic_walk.c's
 * small_live). */
static void small_at(uintptr_t obj, const uint8_t *sh, const uint8_t *sh_end, int empty,
                     uintptr_t limit)
{
	if ((obj & 15) || obj < 4096)
		return;
	const uint8_t *h = header_at(obj - g.header_size, limit);
	if (!h || h[g.state_off] != g.live)
		return;
	uint32_t size = (uint32_t)load(h + g.size_off, 4);
	uint32_t tid = (uint32_t)load(h + g.tid_off, 4);
	if (size >= g.max_small || (empty && size))
		return;
	if (size) {
		uintptr_t end = obj + size;
		size_t tail = (end >> SHADOW_SCALE) - (obj >> SHADOW_SCALE);
		if (sh + tail >= sh_end || !generic_end_ok(end, (int8_t)sh[tail]))
			return;
	}
	objects_add(obj, size, (uint32_t)load(h + g.stack_off, 4), tid & g.tid_mask, tid,
	            obj - g.header_size + g.tid_off);
}

/* The small objects of [lo, hi), from its shadow, a chunk at a time; each
 * chunk read with the shadow of an object's largest size after it. */
static void walk_small(uintptr_t lo, uintptr_t hi, int empties)
{
	enum { CHUNK = 1 << 16 };
	static uint8_t buf[2 + CHUNK + (1 << 17)];
	size_t extra = g.max_small / GRANULE + 2;
	uintptr_t s0 = shadow_at(lo), s1 = shadow_at(hi);
	uint8_t hist[2] = {0, 0}; /* the two shadow bytes before the chunk */
	window_lo = window_hi = 0;
	for (uintptr_t c = s0; c < s1; c += CHUNK) {
		size_t main = s1 - c < CHUNK ? s1 - c : CHUNK;
		size_t len = s1 - c - main < extra ? s1 - c : main + extra;
		buf[0] = hist[0];
		buf[1] = hist[1];
		read_zeroed(buf + 2, c, len);
		const uint8_t *end = buf + 2 + len;
		for (size_t i = 0; i < main; i++) {
			const uint8_t *sh = buf + 2 + i;
			uint8_t prev = sh[-1], s = sh[0];
			/* Whole words of redzone or zero are passed at once, as
			 * generic_walk.c does, but an object may start at a
			 * zero word's first byte. */
			if (!((c + i) & 7) && i + 8 <= main) {
				uint64_t w = load(sh, 8);
				if ((w == 0xfcfcfcfcfcfcfcfcull && !empties) ||
				    (!w && prev != SHADOW_SLAB_REDZONE)) {
					i += 7;
					continue;
				}
			}
			uintptr_t obj = (c + i - g.shadow_offset) << SHADOW_SCALE;
			/* The header's two granules are left redzone too. */
			if (generic_starts_object(prev, s) && sh[-2] == prev)
				small_at(obj, sh, end, 0, hi);
			else if (empties && generic_may_start_empty(prev, s) && sh[-2] == prev)
				small_at(obj, sh, end, 1, hi);
		}
		hist[0] = buf[2 + main - 2 + 0];
		hist[1] = buf[2 + main - 1];
		if (main < 2)
			hist[0] = hist[1] = 0;
	}
}

/* Every live large object, walking each region's records an extent at a
 * time (large.c's large_each_live). */
static void walk_large(void)
{
	static uint8_t buf[1 << 16];
	size_t steps = 0, per = sizeof(buf) / g.meta_size;
	for (long r = 0; r < nregions; r++) {
		size_t pages = regions[r].len / g.page_size;
		uintptr_t lo = 0, hi = 0; /* the records in buf: [lo, hi) */
		for (size_t at = 0; at < pages && steps < MAX_STEPS; steps++) {
			if (at < lo || at >= hi) {
				size_t n = pages - at < per ? pages - at : per;
				/* A real region's records are all mapped: a lying
				 * process's region is given up. */
				if (remote_read(buf, regions[r].meta + at * g.meta_size,
				                n * g.meta_size) != 0)
					break;
				lo = at;
				hi = at + n;
			}
			const uint8_t *m = buf + (at - lo) * g.meta_size;
			uint32_t n = (uint32_t)load(m + g.meta_pages_off, 4);
			const uint8_t *c = m + g.meta_chunk_off;
			if (n && !(m[g.meta_flags_off] & g.meta_free) &&
			    c[g.state_off] == (uint8_t)(g.live | g.large)) {
				uintptr_t obj = load(m + g.meta_obj_off, 8);
				uint64_t size = load(m + g.meta_size_off, 8);
				uintptr_t base = regions[r].base, len = regions[r].len;
				uint32_t tid = (uint32_t)load(c + g.tid_off, 4);
				/* Within its region, or no object of this heap. */
				if (obj - base < len && size <= len - (obj - base))
					objects_add(obj, size, (uint32_t)load(c + g.stack_off, 4),
					            tid & g.tid_mask, tid,
					            regions[r].meta + at * g.meta_size +
					                g.meta_chunk_off + g.tid_off);
			}
			at += n ? n : 1;
		}
	}
	if (steps >= MAX_STEPS)
		fprintf(stderr,
		        "ukasan: the process's large objects are more than this tool "
		        "walks (%lu records); the rest are not scanned\n",
		        MAX_STEPS);
}

static int read_regions(void)
{
	int n = 0;
	nregions = 0;
	if (remote_read(&n, g.nregions, sizeof(n)) != 0 || n < 0 || (uint32_t)n > g.max_regions)
		return -1;
	size_t bytes = (size_t)n * g.region_size;
	uint8_t *buf = malloc(bytes ? bytes : 1);
	regions = calloc((size_t)n + 1, sizeof(*regions));
	if (!buf || !regions || (bytes && remote_read(buf, g.regions, bytes) != 0)) {
		free(buf);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const uint8_t *r = buf + (size_t)i * g.region_size;
		uintptr_t base = load(r + g.region_base_off, 8),
		          len = load(r + g.region_len_off, 8);
		uintptr_t meta = load(r + g.region_meta_off, 8);
		size_t pages = len / g.page_size;
		if (!len || base + len < base || !meta || pages > UINTPTR_MAX / g.meta_size ||
		    meta + pages * g.meta_size < meta)
			continue; /* not a region to walk */
		regions[nregions++] = (struct region_copy){base, len, meta};
	}
	free(buf);
	return 0;
}

/* The live fake frames (fake_stack.c's generic_fake_stack_each_live). */
static void fake_roots(void)
{
	static uint8_t flags[1 << 21];
	size_t bytes = (size_t)g.fake_max * 8;
	uint64_t *fs = malloc(bytes);
	if (!fs || remote_read(fs, g.fake_regions, bytes) != 0) {
		free(fs);
		return;
	}
	size_t nflags = 0;
	for (uint32_t c = 0; c < g.fake_classes; c++)
		nflags += ((size_t)1 << g.fake_class_shift) >> (g.fake_min_shift + c);
	size_t span = (size_t)g.fake_classes << g.fake_class_shift, read = 0;
	for (uint32_t i = 0; i < g.fake_max && read + nflags <= MAX_FLAG_BYTES; i++) {
		uint64_t frames;
		if (!fs[i] || fs[i] + g.fake_frames_off < fs[i] ||
		    remote_read(&frames, fs[i] + g.fake_frames_off, 8) != 0 ||
		    frames + span + nflags < frames)
			continue;
		read += nflags;
		if (remote_read(flags, frames + span, nflags) != 0)
			continue;
		size_t k = 0;
		for (uint32_t c = 0; c < g.fake_classes; c++) {
			size_t size = (size_t)1 << (g.fake_min_shift + c);
			size_t n = ((size_t)1 << g.fake_class_shift) / size;
			uintptr_t base = frames + ((uintptr_t)c << g.fake_class_shift);
			for (size_t j = 0; j < n; j++, k++)
				if (flags[k])
					add_root(base + j * size, base + (j + 1) * size);
		}
	}
	free(fs);
}

/* The unsampled objects (page_sample.c's unsampled_each), and KFENCE's
 * pool whole. */
static void other_roots(void)
{
	size_t bytes = (size_t)g.unsampled_slots * g.unsampled_slot;
	uint8_t *set = malloc(bytes);
	if (set && remote_read(set, g.unsampled, bytes) == 0)
		for (uint32_t i = 0; i < g.unsampled_slots; i++) {
			const uint8_t *s = set + (size_t)i * g.unsampled_slot;
			uintptr_t p = load(s + g.unsampled_p_off, 8);
			uint64_t size = load(s + g.unsampled_size_off, 8);
			if (p && p + size > p)
				add_root(p, p + size);
		}
	free(set);
	uint64_t base = 0, size = 0;
	if (remote_read(&base, g.kfence_base, 8) == 0 &&
	    remote_read(&size, g.kfence_size, 8) == 0 && base && base + size > base)
		add_root(base, base + size);
}

static uintptr_t kfence_lo, kfence_len;

static int scan_begin(const struct leak_span *spans, long n, uintptr_t *first,
                      struct leak_span *bounds)
{
	long empties = 0;
	if (remote_read(&mid, g.mid, sizeof(mid)) != 0)
		mid = 0;
	if (remote_read(&empties, g.empty_live, sizeof(empties)) != 0)
		empties = 0;
	if (remote_read(&kfence_lo, g.kfence_base, 8) != 0 ||
	    remote_read(&kfence_len, g.kfence_size, 8) != 0)
		kfence_lo = kfence_len = 0;
	uintptr_t walked = 0;
	for (long i = 0; i < n; i++) {
		uintptr_t lo = spans[i].start, hi = spans[i].end;
		if (hi <= lo || !covers(lo) || !covers(hi - 1) || in_region(lo) ||
		    lo - kfence_lo < kfence_len)
			continue;
		walked += hi - lo;
		if (walked > MAX_WALKED) {
			fprintf(stderr,
			        "ukasan: the process has more than %lu GiB of private writable "
			        "memory, more than this tool walks the shadow of\n",
			        MAX_WALKED >> 30);
			return -1;
		}
		walk_small(lo, hi, empties > 0);
	}
	walk_large();
	fake_roots();
	other_roots();
	objects_sort();
	objects_scan_begin(spans, n, first, bounds);
	/* The large regions are no heap of small objects (as in-process). */
	for (long i = 0; i < n; i++)
		if (in_region(spans[i].start))
			first[i] = 0;
	return 0;
}

static void each_root(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	for (size_t i = 0; i < nroots; i++)
		fn(roots[i].start, roots[i].end, arg);
}

static const struct leak_heap generic_heap = {
    .name = "generic (from outside)",
    .scan_begin = scan_begin,
    .find = objects_find,
    .each_live = objects_each_live,
    .describe = objects_describe,
    .flags_update = objects_flags_update,
    .each_root = each_root,
};

/* Whether the layout the process says it has is one this tool reads: the
 * shadow's encoding of kasan/generic_shadow.h, fields inside their
 * records, sizes that bound what the walks read. */
static int layout_ok(const struct leak_remote_generic *x)
{
	int shadow = x->shadow_scale == SHADOW_SCALE && x->granule == GRANULE &&
	             x->slab_redzone == SHADOW_SLAB_REDZONE &&
	             x->page_redzone == SHADOW_PAGE_REDZONE && x->va_end <= (1ull << 57) &&
	             x->shadow_offset <= (1ull << 60) && x->mid_beg <= x->mid_end;
	int header = x->header_size >= 8 && x->header_size <= 64 && !(x->header_size & 7) &&
	             x->stack_off <= x->header_size - 4 && x->tid_off <= x->header_size - 4 &&
	             x->size_off <= x->header_size - 4 && x->state_off < x->header_size &&
	             x->max_small >= GRANULE && x->max_small <= (1u << 17) &&
	             x->flags_shift <= 29 && x->live != 0 && x->large != 0;
	int large = x->max_regions <= 4096 && x->region_size >= 24 && x->region_size <= 256 &&
	            x->region_base_off <= x->region_size - 8 &&
	            x->region_len_off <= x->region_size - 8 &&
	            x->region_meta_off <= x->region_size - 8 && x->page_size >= 4096 &&
	            x->page_size <= (1u << 16) && !(x->page_size & (x->page_size - 1)) &&
	            x->meta_size >= 16 && x->meta_size <= 1024 &&
	            x->meta_chunk_off <= x->meta_size - x->header_size &&
	            x->meta_obj_off <= x->meta_size - 8 && x->meta_size_off <= x->meta_size - 8 &&
	            x->meta_pages_off <= x->meta_size - 4 && x->meta_flags_off < x->meta_size;
	int fake = x->fake_max <= 65536 && x->fake_classes <= 16 && x->fake_min_shift >= 4 &&
	           x->fake_class_shift <= 24 &&
	           x->fake_min_shift + x->fake_classes <= x->fake_class_shift + 1;
	int unsampled = x->unsampled_slots <= (1u << 20) && x->unsampled_slot >= 16 &&
	                x->unsampled_slot <= 64 && x->unsampled_p_off <= x->unsampled_slot - 8 &&
	                x->unsampled_size_off <= x->unsampled_slot - 8;
	return shadow && header && large && fake && unsampled;
}

const struct leak_heap *generic_read(const struct leak_remote *d)
{
	if (!layout_ok(&d->generic)) {
		fprintf(stderr, "ukasan: the process's generic heap has a layout this tool does "
		                "not read\n");
		return NULL;
	}
	g = d->generic;
	objects_layout(g.flags_shift, 0);
	if (read_regions() != 0) {
		fprintf(stderr, "ukasan: the process's large objects could not be read\n");
		return NULL;
	}
	return &generic_heap;
}
