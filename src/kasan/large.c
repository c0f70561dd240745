/* Large objects (a page and more): seed 000's vmalloc shadow, for a heap.
 *
 * They come from regions of address space reserved once and carved into
 * extents, never from a mapping per object, so an allocation costs no
 * system call and freed memory is used again:
 *
 *   region: [guard][obj ...... tail | guard][obj .. tail | guard][free ...]
 *                   extent: body pages, then one guard page of redzone
 *
 * Records live in a side table, one per page, set at each extent's first
 * page, so a freed object's pages can go back to the system (MADV_DONTNEED)
 * while its address range stays poisoned: then waiting costs the object's
 * shadow (1/8), not the object.
 *
 * A freed extent joins a bin by size; allocation takes the least recently
 * freed extent of the first bin that fits, which keeps the window for
 * catching a use after free as wide as it can be. Free extents keep their
 * poisoned shadow (a late use is still caught, and reuse costs no shadow
 * page faults) until it passes POOL_SHADOW_KEEP; then, as the kernel purges
 * lazily freed vmalloc areas, one batch merges neighbouring free extents
 * and releases their shadow, whole shadow pages going back to the system. */
#include <errno.h>
#include <string.h>

#include "../base/common.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "kasan.h"
#include "object.h"

#define REGION_BYTES     (256ul << 20) /* the first; then larger */
#define MAX_REGIONS      256
#define POOL_SHADOW_KEEP (4ul << 20)

struct region {
	uintptr_t base;
	size_t len;
	struct large_meta *meta; /* one record per page */
};

static struct region regions[MAX_REGIONS];
static int nregions;
static struct spinlock lock;

enum large_flags {
	LARGE_FREE = 1,            /* in a bin */
	LARGE_SHADOW_RELEASED = 2, /* a free extent's shadow reads 00 */
};

#define NBINS 192
struct bin {
	struct large_meta *head, *tail;
};
static struct bin bins[NBINS];
static size_t pool_shadow; /* bytes of poisoned shadow free extents hold */
static struct {
	struct large_meta *head, *tail;
	size_t bytes;
} quarantine;

struct large_stats large_stats;

/* Bins by pages: exact up to 16, then four per doubling. */
static unsigned bin_of(size_t n)
{
	if (n <= 16)
		return (unsigned)n;
	unsigned b = 63 - (unsigned)__builtin_clzl(n);
	return 13 + (b - 2) * 4 + (unsigned)((n >> (b - 2)) & 3);
}

static struct region *region_of(uintptr_t p)
{
	int n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		if (p - regions[i].base < regions[i].len)
			return &regions[i];
	return NULL;
}

int large_owns(uintptr_t p)
{
	return region_of(p) != NULL;
}

static struct large_meta *meta_at(const struct region *r, uintptr_t a)
{
	return &r->meta[(a - r->base) / os_page_size()];
}

static uintptr_t extent_of(const struct region *r, const struct large_meta *m)
{
	return r->base + (size_t)(m - r->meta) * os_page_size();
}

static struct region *region_of_meta(const struct large_meta *m)
{
	int n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++) {
		size_t off = (uintptr_t)m - (uintptr_t)regions[i].meta;
		if (off < regions[i].len / os_page_size() * sizeof(*m))
			return &regions[i];
	}
	return NULL;
}

static size_t shadow_of_pages(size_t pages)
{
	return pages * os_page_size() >> 3;
}

/* The lock is held for all below, up to large_alloc. */
static void bin_remove(struct large_meta *m)
{
	struct bin *b = &bins[bin_of(m->pages)];
	if (m->prev)
		m->prev->next = m->next;
	else
		b->head = m->next;
	if (m->next)
		m->next->prev = m->prev;
	else
		b->tail = m->prev;
	if (!(m->flags & LARGE_SHADOW_RELEASED))
		pool_shadow -= shadow_of_pages(m->pages);
	large_stats.pool_bytes -= (size_t)m->pages * os_page_size();
	m->flags = 0;
}

/* [m, m + pages) becomes a free extent, at the tail of its bin. */
static void bin_insert(struct large_meta *m, size_t pages, uint8_t released)
{
	struct bin *b = &bins[bin_of(pages)];
	m->pages = (uint32_t)pages;
	m->flags = LARGE_FREE | released;
	m->next = NULL;
	m->prev = b->tail;
	if (b->tail)
		b->tail->next = m;
	else
		b->head = m;
	b->tail = m;
	if (!released)
		pool_shadow += shadow_of_pages(pages);
	large_stats.pool_bytes += pages * os_page_size();
}

static struct region *new_region(size_t pages)
{
	size_t page = os_page_size();
	if (nregions == MAX_REGIONS)
		return NULL;
	size_t need = (pages + 1) * page;
	/* Doubling every 16 regions: 256 of them reach terabytes. */
	size_t unit = REGION_BYTES << (nregions / 16 < 8 ? nregions / 16 : 8);
	size_t len = ALIGN_UP(need, unit);
	void *base = os_reserve(len, OS_PROT_RW);
	if (!base)
		return NULL;
	void *meta = os_reserve(len / page * sizeof(struct large_meta), OS_PROT_RW);
	if (!meta) {
		os_release(base, len);
		return NULL;
	}
	struct region *r = &regions[nregions];
	r->base = (uintptr_t)base;
	r->len = len;
	r->meta = meta;
	/* The first page is the first extent's left redzone, for life. */
	kasan_poison_redzone(r->base, page, 1);
	large_stats.regions++;
	large_stats.reserved += len;
	__atomic_store_n(&nregions, nregions + 1, __ATOMIC_RELEASE);
	/* Never written shadow reads 00: released already. */
	bin_insert(r->meta + 1, len / page - 1, LARGE_SHADOW_RELEASED);
	return r;
}

/* The least recently freed extent that fits without wasting more than its
 * size; else one from the biggest bin, where the fresh space is. Freed
 * extents are not cut up for smaller objects while fresh space remains, so
 * they stay poisoned, and a use after free caught, for as long as possible.
 * Bins are floor-binned: any extent of a bin above the first fits. */
static struct large_meta *take(size_t pages, struct region **rp)
{
	unsigned first = bin_of(pages), last = bin_of(2 * pages);
	struct large_meta *m = NULL;
	/* Only the first bin holds extents too small: look a few deep. */
	int depth = 0;
	for (struct large_meta *e = bins[first].head; e && depth < 16 && !m; e = e->next, depth++)
		if (e->pages >= pages)
			m = e;
	for (unsigned k = first + 1; !m && k <= last && k < NBINS; k++)
		m = bins[k].head;
	for (unsigned k = NBINS; !m && k-- > last + 1;)
		m = bins[k].head;
	if (m)
		*rp = region_of_meta(m);
	return m;
}

/* Released as one range, so that every shadow page inside it goes back. */
static void end_run(struct region *r, struct large_meta *run, size_t pages, int dirty)
{
	uintptr_t beg = extent_of(r, run);
	if (dirty) { /* pages that waited resident go back too */
		kasan_release(beg, (pages - 1) * os_page_size());
		os_discard((void *)beg, pages * os_page_size());
	}
	run->c.state = 0; /* its last object's description goes with its shadow */
	run->obj = 0;
	bin_insert(run, pages, LARGE_SHADOW_RELEASED);
	/* Records inside the run are all zero now: their pages can go too. */
	size_t page = os_page_size();
	uintptr_t lo = ALIGN_UP((uintptr_t)(run + 1), page);
	uintptr_t hi = ALIGN_DOWN((uintptr_t)(run + pages), page);
	if (hi > lo)
		os_discard((void *)lo, hi - lo);
}

size_t large_pool_dirty(void)
{
	return pool_shadow << 3;
}

/* Merge neighbouring free extents and release their shadow, in one batch.
 * Each merged extent keeps its last page poisoned: it is the left redzone
 * of whatever comes after it. */
static void purge(void)
{
	size_t page = os_page_size();
	rt_memset(bins, 0, sizeof(bins));
	pool_shadow = 0;
	large_stats.pool_bytes = 0;
	for (int k = 0; k < nregions; k++) {
		struct region *r = &regions[k];
		size_t total = r->len / page;
		struct large_meta *run = NULL;
		size_t run_pages = 0;
		int run_dirty = 0;
		for (size_t i = 1; i < total;) {
			struct large_meta *m = &r->meta[i];
			size_t n = m->pages;
			if (!n)
				break; /* cannot happen: every page is in an extent */
			if (!(m->flags & LARGE_FREE)) {
				if (run)
					end_run(r, run, run_pages, run_dirty);
				run = NULL;
				i += n;
				continue;
			}
			uint8_t released = m->flags & LARGE_SHADOW_RELEASED;
			if (!released)
				large_stats.shadow_released += shadow_of_pages(n - 1);
			if (run) { /* the part before ends inside the run now */
				rt_memset(m, 0, sizeof(*m));
				run_dirty = 1;
			} else {
				run = m;
				run_pages = 0;
				run_dirty = 0;
			}
			run_dirty |= !released;
			run_pages += n;
			i += n;
		}
		if (run)
			end_run(r, run, run_pages, run_dirty);
	}
	large_stats.purges++;
}

struct large_meta *large_alloc(size_t size, size_t align, uint16_t colour, int *zeroed)
{
	size_t page = os_page_size();
	/* align > page: room to move the object up to its boundary. */
	size_t slack = align > page ? align - page : 0;
	if (size > (1ul << 46)) {
		errno = ENOMEM;
		return NULL;
	}
	size_t pages = ALIGN_UP(size + slack + colour, page) / page + 1;
	struct region *r = NULL;
	spin_lock(&lock);
	struct large_meta *m = take(pages, &r);
	if (!m && (r = new_region(pages)))
		m = take(pages, &r);
	if (!m) {
		spin_unlock(&lock);
		errno = ENOMEM;
		return NULL;
	}
	size_t have = m->pages;
	uint8_t released = m->flags & LARGE_SHADOW_RELEASED;
	bin_remove(m);
	if (have > pages)
		bin_insert(m + pages, have - pages, released);
	m->pages = (uint32_t)pages;
	m->flags = 0;
	m->c.state = 0;
	large_stats.extents++;
	spin_unlock(&lock);

	uintptr_t extent = extent_of(r, m);
	uintptr_t guard = extent + (pages - 1) * page;
	uintptr_t obj = align > page ? ALIGN_UP(extent, align) : extent + colour;
	m->obj = obj;
	m->size = size;
	if (obj > extent)
		kasan_poison_redzone(extent, obj - extent, 1);
	/* Shadow released since the last purge reads 00 already; shadow still
	 * resident is cheaper to clear than to give back and fault in again. */
	/* Free space never used, or purged (its pages discarded), reads zero;
	 * an extent freed since keeps its last object's bytes. */
	*zeroed = released != 0;
	if (released)
		kasan_unpoison(obj + ALIGN_DOWN(size, KASAN_GRANULE), size & (KASAN_GRANULE - 1));
	else
		kasan_unpoison_resident(obj, size);
	uintptr_t end = ALIGN_UP(obj + size, KASAN_GRANULE);
	kasan_poison_redzone(end, guard + page - end, 1);
	return m;
}

/* Called with the lock held: free for reuse, oldest out first. */
static void release(struct large_meta *m)
{
	/* The record keeps describing the object until the extent is used
	 * again: reports name it, and a second free is a double free. */
	large_stats.extents--;
	bin_insert(m, m->pages, 0);
	if (pool_shadow > POOL_SHADOW_KEEP)
		purge();
}

/* Large objects wait in a quarantine of their own, 1/64 of
 * kasan.quarantine_size (4 MiB by default), with their pages resident.
 * Measured (bench/seeds/): giving the pages back at free and faulting them
 * in again on reuse tripled the cost of large objects; holding them in the
 * main quarantine cost 6x glibc's peak RSS; and every buffer a network
 * server reuses comes back cache-cold from a big quarantine (loopback at
 * 32 MiB: 0.58x glibc's throughput, at 4 MiB 0.8-0.9x). After it, a freed
 * extent stays poisoned among the free ones until reused or purged. */
/* Called with the lock held: the oldest out, into the free extents. */
static void quarantine_evict(size_t limit)
{
	size_t page = os_page_size();
	while (quarantine.head && quarantine.bytes > limit) {
		struct large_meta *old = quarantine.head;
		quarantine.head = (struct large_meta *)old->fm.next;
		if (!quarantine.head)
			quarantine.tail = NULL;
		quarantine.bytes -= (size_t)old->pages * page;
		if (opt.kasan_stats) {
			count_stat(&heap_stats.quarantined_objects, -1);
			count_stat(&heap_stats.quarantined_bytes, -(long)old->pages * (long)page);
		}
		release(old);
	}
}

void large_quarantine_put(struct large_meta *m)
{
	m->fm.next = NULL;
	spin_lock(&lock);
	if (quarantine.tail)
		quarantine.tail->fm.next = &m->c;
	else
		quarantine.head = m;
	quarantine.tail = m;
	quarantine.bytes += (size_t)m->pages * os_page_size();
	quarantine_evict(opt.kasan_quarantine_size / 64);
	spin_unlock(&lock);
}

/* Called by the core's quarantine drain. */
void large_quarantine_drain(void)
{
	spin_lock(&lock);
	quarantine_evict(0);
	spin_unlock(&lock);
}

void large_purge(void)
{
	spin_lock(&lock);
	purge();
	spin_unlock(&lock);
}

/* The record of the object that starts at p, live or quarantined. */
struct large_meta *large_meta_of(uintptr_t p)
{
	struct region *r = region_of(p);
	if (!r)
		return NULL;
	size_t page = os_page_size();
	/* An aligned object may start pages into its extent. */
	for (size_t i = 0; i < 4096 && ALIGN_DOWN(p, page) - i * page >= r->base; i++) {
		struct large_meta *m = meta_at(r, ALIGN_DOWN(p, page) - i * page);
		if (!m->pages)
			continue;
		uint8_t st = m->c.state & ~CHUNK_LARGE;
		return m->obj == p && (m->c.state & CHUNK_LARGE) &&
		               (st == CHUNK_LIVE || st == CHUNK_QUARANTINED)
		           ? m
		           : NULL;
	}
	return NULL;
}

/* For reports: the live or quarantined object nearest to addr. */
struct large_meta *large_find(uintptr_t addr)
{
	struct region *r = region_of(addr);
	if (!r)
		return NULL;
	size_t page = os_page_size();
	struct large_meta *m = NULL, *next = NULL;
	for (uintptr_t a = ALIGN_DOWN(addr, page); a >= r->base + page; a -= page)
		if (meta_at(r, a)->pages) {
			m = meta_at(r, a);
			break;
		}
	if (m && !(m->flags & LARGE_FREE)) {
		uintptr_t after = extent_of(r, m) + (size_t)m->pages * page;
		if (after < r->base + r->len)
			next = meta_at(r, after);
	}
	int m_ok = m && (m->c.state & CHUNK_LARGE);
	int next_ok = next && (next->c.state & CHUNK_LARGE);
	if (m_ok && addr < m->obj + m->size)
		return m;
	if (m_ok && next_ok)
		return addr - (m->obj + m->size) <= next->obj - addr ? m : next;
	return m_ok ? m : next_ok ? next : NULL;
}

void large_fork_prepare(void)
{
	spin_lock(&lock);
}

void large_fork_parent(void)
{
	spin_unlock(&lock);
}

void large_fork_child(void)
{
	spin_reset(&lock);
}
