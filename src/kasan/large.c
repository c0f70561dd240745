/* Large objects (a page and more): the kernel's KASAN_VMALLOC (real shadow
 * backing vmalloc space, mapped when an area is), for a heap.
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
 * A freed object waits in a quarantine, then its extent joins the free
 * ones (large_pool.c), merged with free neighbours, its pages and poisoned
 * shadow kept warm: a late use is still caught, and reuse costs no page
 * faults. Allocation takes the least recently freed extent that fits,
 * which keeps the window for catching a use after free as wide as it can
 * be. When a lane's warm free memory passes POOL_SHADOW_KEEP, or at
 * ukasan_purge(), as the kernel purges lazily freed vmalloc areas, one
 * batch merges neighbouring free extents and releases their pages and
 * shadow, whole shadow pages going back to the system. */
#include <errno.h>
#include <string.h>

#include "../base/compiler.h"
#include "../base/leak_remote.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/mte.h"
#include "../platform/os.h"
#include "large.h"
#include "mode.h"
#include "shared.h"

/* Hardware tags: regions are PROT_MTE, so their objects can carry tags. */
int large_mte;
#define REGION_BYTES (256ul << 20) /* the first; then larger */

struct region large_regions[MAX_REGIONS];
int large_nregions;
static struct spinlock regions_lock; /* taken inside a lane's lock */
struct lane large_lanes[LANES];
struct large_stats large_stats;

static struct lane *this_lane(void)
{
	return &large_lanes[(unsigned)os_cpu() % LANES];
}

static struct region *region_of(uintptr_t p)
{
	int n = __atomic_load_n(&large_nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++)
		if (p - large_regions[i].base < large_regions[i].len)
			return &large_regions[i];
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

static struct region *new_region(struct lane *l, size_t pages)
{
	size_t page = os_page_size();
	spin_lock(&regions_lock);
	if (large_nregions == MAX_REGIONS) {
		spin_unlock(&regions_lock);
		return NULL;
	}
	size_t need = (pages + 1) * page;
	/* Doubling every 16 regions: 256 of them reach terabytes. */
	size_t unit = REGION_BYTES << (large_nregions / 16 < 8 ? large_nregions / 16 : 8);
	size_t len = ALIGN_UP(need, unit);
	void *base = large_mte ? mte_map(len) : os_reserve(len, OS_PROT_RW);
	void *meta = base ? os_reserve(len / page * sizeof(struct large_meta), OS_PROT_RW) : NULL;
	if (!meta) {
		if (base)
			os_release(base, len);
		spin_unlock(&regions_lock);
		return NULL;
	}
	struct region *r = &large_regions[large_nregions];
	r->base = (uintptr_t)base;
	r->len = len;
	r->meta = meta;
	r->lane = (int)(l - large_lanes);
	/* The first page is the first extent's left redzone, for life. */
	if (kasan_ops->poison_redzone)
		kasan_ops->poison_redzone(r->base, page, 1);
	large_stats.regions++;
	large_stats.reserved += len;
	__atomic_store_n(&large_nregions, large_nregions + 1, __ATOMIC_RELEASE);
	spin_unlock(&regions_lock);
	/* Never written shadow reads 00: released already. */
	pool_insert(l, r->meta + 1, len / page - 1, LARGE_SHADOW_RELEASED);
	return r;
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
	struct large_meta *m = pool_take(l, pages, &r);
	if (!m && (r = new_region(l, pages)))
		m = pool_take(l, pages, &r);
	if (!m) {
		spin_unlock(&l->lock);
		errno = ENOMEM;
		return NULL;
	}
	size_t have = m->pages;
	uint8_t released = m->flags & LARGE_SHADOW_RELEASED;
	pool_remove(l, m);
	if (have > pages && !released) {
		/* The freed head stays in the bins with its record, so a late use
		 * of it is still described; its last page, the new extent's left
		 * redzone, says so. */
		pool_insert(l, m, have - pages, 0);
		m += have - pages;
		rt_memset(m, 0, sizeof(*m));
		if (kasan_ops->poison_redzone)
			kasan_ops->poison_redzone(extent_of(r, m) - page, page, 1);
	} else if (have > pages) {
		pool_insert(l, m + pages, have - pages, released);
	}
	pool_set_pages(m, pages);
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
		pool_add(l, old);
	}
}

void large_quarantine_put(struct large_meta *m)
{
	struct lane *l = &large_lanes[region_of_meta(m)->lane];
	m->fm.next = NULL;
	spin_lock(&l->lock);
	if (m->flags & LARGE_TAKEN) { /* the program mapped over it: never used again */
		m->flags = LARGE_RETIRED;
		count_stat(&large_stats.retired, (long)m->pages);
		spin_unlock(&l->lock);
		return;
	}
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
		pool_purge(l, 0, 0);
}

/* The program mapped something over [lo, hi) of region r (mmap with
 * MAP_FIXED, mremap, shmat with SHM_REMAP), or unmapped it: those pages
 * are its own now. An allocator that reused them would hand out the
 * program's mapping, a purge would discard its data (MADV_DONTNEED), and
 * the freed object's poison would report the program's own accesses to
 * memory it mapped (LLVM's large_allocator_unpoisons_on_free.cpp; ASan
 * unmaps a large object, its shadow cleared, when it leaves its
 * quarantine, and since LLVM 17 clears the shadow of every new mapping). So every extent the range touches leaves
 * the allocator for good: a quarantined one leaves the quarantine, a free
 * one is cut around the range, a live one is retired when it is freed.
 * Their address space stays reserved, unused, as the program's. */
static void take_pages(struct region *r, uintptr_t lo, uintptr_t hi)
{
	size_t page = os_page_size(), total = r->len / page;
	size_t i0 = (lo - r->base) / page, i1 = (hi - r->base + page - 1) / page;
	struct lane *l = &large_lanes[r->lane];
	/* No purge between: it works on extents out of the bins, unlocked. */
	spin_lock(&l->purge_lock);
	spin_lock(&l->lock);
	/* The extent holding the first page (the region's first page is the
	 * first extent's left redzone, in none). */
	size_t j = i0 ? i0 : 1;
	while (j > 1 && !r->meta[j].pages)
		j--;
	while (j < i1 && j < total) {
		struct large_meta *m = &r->meta[j];
		size_t pages = m->pages;
		if (!pages)
			break; /* cannot happen: every page is in an extent */
		if (m->flags & LARGE_FREE) {
			uint8_t released = m->flags & LARGE_SHADOW_RELEASED;
			size_t a = i0 > j ? i0 : j, b = i1 < j + pages ? i1 : j + pages;
			size_t tail = j + pages - b;
			pool_remove(l, m);
			/* A tail keeps a poisoned page before it: its objects'
			 * left redzone. */
			if (tail == 1) {
				b++;
				tail = 0;
			} else if (tail) {
				if (kasan_ops->poison_redzone)
					kasan_ops->poison_redzone(r->base + b * page, page, 1);
				b++;
				tail--;
			}
			if (a > j)
				pool_insert(l, m, a - j, released);
			struct large_meta *t = &r->meta[a];
			rt_memset(t, 0, sizeof(*t));
			pool_set_pages(t, b - a);
			t->flags = LARGE_RETIRED;
			count_stat(&large_stats.retired, (long)(b - a));
			if (tail)
				pool_insert(l, &r->meta[b], tail, released);
			j = b + tail;
			continue;
		}
		if (!(m->flags & LARGE_RETIRED) &&
		    (m->c.state & ~CHUNK_LARGE) == CHUNK_QUARANTINED) {
			struct large_meta **link = &l->quarantine.head, *prev = NULL;
			while (*link && *link != m) {
				prev = *link;
				link = (struct large_meta **)&(*link)->fm.next;
			}
			if (*link) {
				*link = (struct large_meta *)m->fm.next;
				if (l->quarantine.tail == m)
					l->quarantine.tail = prev;
				l->quarantine.bytes -= pages * page;
				if (opt.kasan_stats) {
					count_stat(&heap_stats.quarantined_objects, -1);
					count_stat(&heap_stats.quarantined_bytes,
					           -(long)pages * (long)page);
				}
			}
			/* The record stays: a second free is a double free, and a
			 * late use of the pages left is still described. */
			m->flags = LARGE_RETIRED;
			count_stat(&large_stats.retired, (long)pages);
		} else if (!(m->flags & LARGE_RETIRED)) {
			m->flags |= LARGE_TAKEN;
		}
		j += pages;
	}
	spin_unlock(&l->lock);
	spin_unlock(&l->purge_lock);
}

void large_taken(uintptr_t addr, size_t len)
{
	uintptr_t end = addr + len < addr ? UINTPTR_MAX : addr + len;
	int n = __atomic_load_n(&large_nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++) {
		struct region *r = &large_regions[i];
		uintptr_t lo = addr > r->base ? addr : r->base;
		uintptr_t hi = end < r->base + r->len ? end : r->base + r->len;
		if (lo < hi)
			take_pages(r, lo, hi);
	}
}

/* What the large objects' quarantine holds, read without the locks: the
 * small objects' quarantine leaves room for it under the one bound. */
size_t large_quarantine_bytes(void)
{
	size_t n = 0;
	for (int i = 0; i < LANES; i++)
		n += __atomic_load_n(&large_lanes[i].quarantine.bytes, __ATOMIC_RELAXED);
	return n;
}

/* Called by the core's quarantine drain. */
void large_quarantine_drain(void)
{
	for (int i = 0; i < LANES; i++) {
		spin_lock(&large_lanes[i].lock);
		quarantine_evict(&large_lanes[i], 0);
		spin_unlock(&large_lanes[i].lock);
	}
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
	if (i >= __atomic_load_n(&large_nregions, __ATOMIC_ACQUIRE))
		return 0;
	*base = large_regions[i].base;
	*len = large_regions[i].len;
	return 1;
}

void large_leak_remote(struct leak_remote_generic *g)
{
	struct large_meta *m = NULL;
	struct region *r = NULL;
	_Static_assert(sizeof(m->size) == 8 && sizeof(m->obj) == 8 && sizeof(m->pages) == 4 &&
	                   sizeof(m->flags) == 1 && sizeof(r->base) == 8 && sizeof(r->len) == 8 &&
	                   sizeof(r->meta) == 8,
	               "base/leak_remote.h reads the regions' fields at these widths");
	(void)m, (void)r;
	g->regions = (uintptr_t)large_regions;
	g->nregions = (uintptr_t)&large_nregions;
	g->max_regions = MAX_REGIONS;
	g->region_size = sizeof(struct region);
	g->region_base_off = __builtin_offsetof(struct region, base);
	g->region_len_off = __builtin_offsetof(struct region, len);
	g->region_meta_off = __builtin_offsetof(struct region, meta);
	g->page_size = (uint32_t)os_page_size();
	g->meta_size = sizeof(struct large_meta);
	g->meta_chunk_off = __builtin_offsetof(struct large_meta, c);
	g->meta_obj_off = __builtin_offsetof(struct large_meta, obj);
	g->meta_size_off = __builtin_offsetof(struct large_meta, size);
	g->meta_pages_off = __builtin_offsetof(struct large_meta, pages);
	g->meta_flags_off = __builtin_offsetof(struct large_meta, flags);
	g->meta_free = LARGE_FREE;
}

void large_each_live(void (*fn)(struct large_meta *m, void *arg), void *arg)
{
	size_t page = os_page_size();
	int n = __atomic_load_n(&large_nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++) {
		const struct region *r = &large_regions[i];
		for (size_t at = 0; at < r->len / page;) {
			struct large_meta *m = &r->meta[at];
			if (!m->pages) {
				at++;
				continue;
			}
			/* Not one the program mapped over: it may be unmapped. */
			if (!(m->flags & (LARGE_FREE | LARGE_TAKEN)) &&
			    m->c.state == (CHUNK_LIVE | CHUNK_LARGE))
				fn(m, arg);
			at += m->pages;
		}
	}
}

void large_fork_prepare(void)
{
	for (int i = 0; i < LANES; i++)
		spin_lock(&large_lanes[i].purge_lock);
	for (int i = 0; i < LANES; i++)
		spin_lock(&large_lanes[i].lock);
	spin_lock(&regions_lock);
}

void large_fork_parent(void)
{
	spin_unlock(&regions_lock);
	for (int i = LANES; i--;)
		spin_unlock(&large_lanes[i].lock);
	for (int i = LANES; i--;)
		spin_unlock(&large_lanes[i].purge_lock);
}

void large_fork_child(void)
{
	spin_reset(&regions_lock);
	for (int i = 0; i < LANES; i++) {
		spin_reset(&large_lanes[i].lock);
		spin_reset(&large_lanes[i].purge_lock);
	}
}
