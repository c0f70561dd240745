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

#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/mte.h"
#include "../platform/os.h"
#include "mode.h"
#include "object.h"

/* Hardware tags: regions are PROT_MTE, so their objects can carry tags. */
int large_mte;
#define REGION_BYTES     (256ul << 20) /* the first; then larger */
#define MAX_REGIONS      256
#define POOL_SHADOW_KEEP (4ul << 20) /* per lane */
#define LANES            4

struct region {
	uintptr_t base;
	size_t len;
	struct large_meta *meta; /* one record per page */
	int lane;
};

static struct region regions[MAX_REGIONS];
static int nregions;
static struct spinlock regions_lock; /* taken inside a lane's lock */

enum large_flags {
	LARGE_FREE = 1,            /* in a bin */
	LARGE_SHADOW_RELEASED = 2, /* a free extent's shadow reads 00 */
	LARGE_SHADOW_DIRTY = 4,    /* a run being purged: pages to give back */
};

#define NBINS 192
struct bin {
	struct large_meta *head, *tail;
};

/* Lanes, chosen by the CPU a thread runs on as the kernel's per-CPU
 * caches are, each with its own regions, lock, bins and quarantine: two
 * threads sharing one lock, and interleaving their extents in the same
 * pages of memory, shadow and records, took 1.3x the time of two processes
 * on test_vmalloc's shapes. By CPU, not by thread, so that what lanes hold
 * is bounded by the CPUs and not by how many threads a program ever made.
 * A free goes back to the lane of the region it came from. */
struct lane {
	struct spinlock lock;
	/* Held for a whole purge, taken before lock: one purge at a time, and
	 * its system calls made without lock, so that other threads allocate
	 * and free meanwhile. */
	struct spinlock purge_lock;
	struct bin bins[NBINS];
	size_t pool_shadow; /* bytes of poisoned shadow free extents hold */
	size_t pool_bytes;
	struct {
		struct large_meta *head, *tail;
		size_t bytes;
	} quarantine;
} __attribute__((aligned(64)));

static struct lane lanes[LANES];

struct large_stats large_stats;

static struct lane *this_lane(void)
{
	return &lanes[(unsigned)os_cpu() % LANES];
}

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

/* The lane's lock is held for all below, up to large_alloc. */
static void bin_remove(struct lane *l, struct large_meta *m)
{
	struct bin *b = &l->bins[bin_of(m->pages)];
	if (m->prev)
		m->prev->next = m->next;
	else
		b->head = m->next;
	if (m->next)
		m->next->prev = m->prev;
	else
		b->tail = m->prev;
	if (!(m->flags & LARGE_SHADOW_RELEASED))
		l->pool_shadow -= shadow_of_pages(m->pages);
	l->pool_bytes -= (size_t)m->pages * os_page_size();
	m->flags = 0;
}

/* [m, m + pages) becomes a free extent, at the tail of its bin. */
static void bin_insert(struct lane *l, struct large_meta *m, size_t pages, uint8_t released)
{
	struct bin *b = &l->bins[bin_of(pages)];
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
		l->pool_shadow += shadow_of_pages(pages);
	l->pool_bytes += pages * os_page_size();
}

static struct region *new_region(struct lane *l, size_t pages)
{
	size_t page = os_page_size();
	spin_lock(&regions_lock);
	if (nregions == MAX_REGIONS) {
		spin_unlock(&regions_lock);
		return NULL;
	}
	size_t need = (pages + 1) * page;
	/* Doubling every 16 regions: 256 of them reach terabytes. */
	size_t unit = REGION_BYTES << (nregions / 16 < 8 ? nregions / 16 : 8);
	size_t len = ALIGN_UP(need, unit);
	void *base = large_mte ? mte_map(len) : os_reserve(len, OS_PROT_RW);
	void *meta = base ? os_reserve(len / page * sizeof(struct large_meta), OS_PROT_RW) : NULL;
	if (!meta) {
		if (base)
			os_release(base, len);
		spin_unlock(&regions_lock);
		return NULL;
	}
	struct region *r = &regions[nregions];
	r->base = (uintptr_t)base;
	r->len = len;
	r->meta = meta;
	r->lane = (int)(l - lanes);
	/* The first page is the first extent's left redzone, for life. */
	if (kasan_ops->poison_redzone)
		kasan_ops->poison_redzone(r->base, page, 1);
	large_stats.regions++;
	large_stats.reserved += len;
	__atomic_store_n(&nregions, nregions + 1, __ATOMIC_RELEASE);
	spin_unlock(&regions_lock);
	/* Never written shadow reads 00: released already. */
	bin_insert(l, r->meta + 1, len / page - 1, LARGE_SHADOW_RELEASED);
	return r;
}

/* The least recently freed extent that fits without wasting more than its
 * size; else one from the biggest bin, where the fresh space is. Freed
 * extents are not cut up for smaller objects while fresh space remains, so
 * they stay poisoned, and a use after free caught, for as long as possible.
 * Bins are floor-binned: any extent of a bin above the first fits. */
static struct large_meta *take(struct lane *l, size_t pages, struct region **rp)
{
	struct bin *bins = l->bins;
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

/* Lock held: run [run, run + pages) leaves the bins until purge_finish()
 * has given back what needs to go, on the pending list through ->next. */
static void end_run(struct lane *l, struct large_meta *run, size_t pages, int dirty, int merged,
                    struct large_meta **pending)
{
	run->c.state = 0; /* its last object's description goes with its shadow */
	run->obj = 0;
	if (!dirty && !merged) {
		bin_insert(l, run, pages, LARGE_SHADOW_RELEASED);
		return;
	}
	run->pages = (uint32_t)pages;
	run->flags = dirty ? LARGE_SHADOW_DIRTY : 0;
	run->next = *pending;
	*pending = run;
}

size_t large_pool_dirty(void)
{
	size_t n = 0;
	for (int i = 0; i < LANES; i++)
		n += __atomic_load_n(&lanes[i].pool_shadow, __ATOMIC_RELAXED) << 3;
	return n;
}

size_t large_pool_bytes(void)
{
	size_t n = 0;
	for (int i = 0; i < LANES; i++)
		n += __atomic_load_n(&lanes[i].pool_bytes, __ATOMIC_RELAXED);
	return n;
}

/* Lock held. Merge neighbouring free extents; those with poisoned shadow or
 * pages to give back are returned on a list, out of the bins, for
 * purge_finish(). Each merged extent keeps its last page poisoned: it is
 * the left redzone of whatever comes after it. */
static struct large_meta *purge_collect(struct lane *l)
{
	struct large_meta *pending = NULL;
	rt_memset(l->bins, 0, sizeof(l->bins));
	l->pool_shadow = 0;
	l->pool_bytes = 0;
	int n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
	for (int k = 0; k < n; k++) {
		struct region *r = &regions[k];
		if (r->lane != l - lanes)
			continue;
		size_t total = r->len / os_page_size();
		struct large_meta *run = NULL;
		size_t run_pages = 0;
		int run_dirty = 0, run_merged = 0;
		for (size_t i = 1; i < total;) {
			struct large_meta *m = &r->meta[i];
			size_t pages = m->pages;
			if (!pages)
				break; /* cannot happen: every page is in an extent */
			if (!(m->flags & LARGE_FREE)) {
				if (run)
					end_run(l, run, run_pages, run_dirty, run_merged, &pending);
				run = NULL;
				i += pages;
				continue;
			}
			uint8_t released = m->flags & LARGE_SHADOW_RELEASED;
			if (!released)
				count_stat(&large_stats.shadow_released,
				           (long)shadow_of_pages(pages - 1));
			if (run) { /* the part before ends inside the run now */
				rt_memset(m, 0, sizeof(*m));
				run_dirty = 1;
				run_merged = 1;
			} else {
				run = m;
				run_pages = 0;
				run_dirty = 0;
				run_merged = 0;
			}
			run_dirty |= !released;
			run_pages += pages;
			i += pages;
		}
		if (run)
			end_run(l, run, run_pages, run_dirty, run_merged, &pending);
	}
	count_stat(&large_stats.purges, 1);
	return pending;
}

/* Without lock: nobody else can reach the pending runs. Each is released
 * as one range, so that every shadow page inside it goes back. */
static void purge_finish(struct lane *l, struct large_meta *pending)
{
	size_t page = os_page_size();
	for (struct large_meta *run = pending; run; run = run->next) {
		struct region *r = region_of_meta(run);
		uintptr_t beg = extent_of(r, run);
		size_t pages = run->pages;
		if (run->flags & LARGE_SHADOW_DIRTY) { /* pages that waited resident go back too */
			if (kasan_ops->release)
				kasan_ops->release(beg, (pages - 1) * page);
			os_discard((void *)beg, pages * page);
		}
		/* Records inside the run are all zero now: their pages can go too. */
		uintptr_t lo = ALIGN_UP((uintptr_t)(run + 1), page);
		uintptr_t hi = ALIGN_DOWN((uintptr_t)(run + pages), page);
		if (hi > lo)
			os_discard((void *)lo, hi - lo);
	}
	spin_lock(&l->lock);
	while (pending) {
		struct large_meta *run = pending;
		pending = run->next;
		bin_insert(l, run, run->pages, LARGE_SHADOW_RELEASED);
	}
	spin_unlock(&l->lock);
}

/* Called without locks. wait = 0: skip if another thread is purging. */
static void purge(struct lane *l, int wait, int always)
{
	if (wait)
		spin_lock(&l->purge_lock);
	else if (!spin_trylock(&l->purge_lock))
		return;
	spin_lock(&l->lock);
	struct large_meta *pending =
	    always || l->pool_shadow > POOL_SHADOW_KEEP ? purge_collect(l) : NULL;
	spin_unlock(&l->lock);
	purge_finish(l, pending);
	spin_unlock(&l->purge_lock);
}

struct large_meta *large_alloc(size_t size, size_t align, uint16_t colour, struct large_extent *g)
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
	struct lane *l = this_lane();
	spin_lock(&l->lock);
	struct large_meta *m = take(l, pages, &r);
	if (!m && (r = new_region(l, pages)))
		m = take(l, pages, &r);
	if (!m) {
		spin_unlock(&l->lock);
		errno = ENOMEM;
		return NULL;
	}
	size_t have = m->pages;
	uint8_t released = m->flags & LARGE_SHADOW_RELEASED;
	bin_remove(l, m);
	if (have > pages)
		bin_insert(l, m + pages, have - pages, released);
	m->pages = (uint32_t)pages;
	m->flags = 0;
	m->c.state = 0;
	count_stat(&large_stats.extents, 1);
	spin_unlock(&l->lock);

	uintptr_t extent = extent_of(r, m);
	m->obj = align > page ? ALIGN_UP(extent, align) : extent + colour;
	m->size = size;
	/* Free space never used, or purged (its pages discarded), reads zero;
	 * an extent freed since keeps its last object's bytes. */
	g->extent = extent;
	g->guard = extent + (pages - 1) * page;
	g->end = g->guard + page;
	g->zeroed = g->marks_clear = released != 0;
	return m;
}

/* Called with the lock held: free for reuse, oldest out first. */
static void release(struct lane *l, struct large_meta *m)
{
	/* The record keeps describing the object until the extent is used
	 * again: reports name it, and a second free is a double free. */
	count_stat(&large_stats.extents, -1);
	bin_insert(l, m, m->pages, 0);
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
static void quarantine_evict(struct lane *l, size_t limit)
{
	size_t page = os_page_size();
	while (l->quarantine.head && l->quarantine.bytes > limit) {
		struct large_meta *old = l->quarantine.head;
		l->quarantine.head = (struct large_meta *)old->fm.next;
		if (!l->quarantine.head)
			l->quarantine.tail = NULL;
		l->quarantine.bytes -= (size_t)old->pages * page;
		if (opt.kasan_stats) {
			count_stat(&heap_stats.quarantined_objects, -1);
			count_stat(&heap_stats.quarantined_bytes, -(long)old->pages * (long)page);
		}
		release(l, old);
	}
}

void large_quarantine_put(struct large_meta *m)
{
	struct lane *l = &lanes[region_of_meta(m)->lane];
	m->fm.next = NULL;
	spin_lock(&l->lock);
	if (l->quarantine.tail)
		l->quarantine.tail->fm.next = &m->c;
	else
		l->quarantine.head = m;
	l->quarantine.tail = m;
	l->quarantine.bytes += (size_t)m->pages * os_page_size();
	quarantine_evict(l, opt.kasan_quarantine_size / 64);
	int due = l->pool_shadow > POOL_SHADOW_KEEP;
	spin_unlock(&l->lock);
	if (due)
		purge(l, 0, 0);
}

/* Called by the core's quarantine drain. */
void large_quarantine_drain(void)
{
	for (int i = 0; i < LANES; i++) {
		spin_lock(&lanes[i].lock);
		quarantine_evict(&lanes[i], 0);
		spin_unlock(&lanes[i].lock);
	}
}

void large_purge(void)
{
	for (int i = 0; i < LANES; i++)
		purge(&lanes[i], 1, 1);
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

int large_region(int i, uintptr_t *base, size_t *len)
{
	if (i >= __atomic_load_n(&nregions, __ATOMIC_ACQUIRE))
		return 0;
	*base = regions[i].base;
	*len = regions[i].len;
	return 1;
}

void large_each_live(void (*fn)(struct large_meta *m, void *arg), void *arg)
{
	size_t page = os_page_size();
	int n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++) {
		const struct region *r = &regions[i];
		for (size_t at = 0; at < r->len / page;) {
			struct large_meta *m = &r->meta[at];
			if (!m->pages) {
				at++;
				continue;
			}
			if (!(m->flags & LARGE_FREE) && m->c.state == (CHUNK_LIVE | CHUNK_LARGE))
				fn(m, arg);
			at += m->pages;
		}
	}
}

void large_fork_prepare(void)
{
	for (int i = 0; i < LANES; i++)
		spin_lock(&lanes[i].purge_lock);
	for (int i = 0; i < LANES; i++)
		spin_lock(&lanes[i].lock);
	spin_lock(&regions_lock);
}

void large_fork_parent(void)
{
	spin_unlock(&regions_lock);
	for (int i = LANES; i--;)
		spin_unlock(&lanes[i].lock);
	for (int i = LANES; i--;)
		spin_unlock(&lanes[i].purge_lock);
}

void large_fork_child(void)
{
	spin_reset(&regions_lock);
	for (int i = 0; i < LANES; i++) {
		spin_reset(&lanes[i].lock);
		spin_reset(&lanes[i].purge_lock);
	}
}
