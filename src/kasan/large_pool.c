/* The free extents of large.c's regions: bins by size, reuse, merging and
 * purges. Freed memory is kept warm, its pages and shadow resident, for
 * the next objects that fit (issue 25): giving it back at every turn of
 * the quarantine and faulting it in again cost programs that write what
 * they allocate eight times glibc's time. It goes back in batches, when
 * the lane's warm memory passes a budget or ukasan_purge() asks. */
#include <string.h>

#include "../base/compiler.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "large.h"
#include "mode.h"
#include "shared.h"

/* Bins by pages: exact up to 16, then four per doubling. */
static unsigned bin_of(size_t n)
{
	if (n <= 16)
		return (unsigned)n;
	unsigned b = 63 - (unsigned)__builtin_clzl(n);
	return 13 + (b - 2) * 4 + (unsigned)((n >> (b - 2)) & 3);
}

/* The last page's record points back to the first: free neighbours are
 * found both ways. Records inside an extent are otherwise zero. */
void pool_set_pages(struct large_meta *m, size_t pages)
{
	m->pages = (uint32_t)pages;
	m[pages - 1].back = (uint32_t)pages;
}

/* The lane's lock is held for all below, up to large_alloc. */
void pool_remove(struct lane *l, struct large_meta *m)
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
void pool_insert(struct lane *l, struct large_meta *m, size_t pages, uint8_t released)
{
	struct bin *b = &l->bins[bin_of(pages)];
	pool_set_pages(m, pages);
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

/* The least recently freed extent that fits without wasting more than its
 * size; else a bigger one still warm, cut; else one from the biggest bin,
 * where the fresh space is. Least recently freed first, and cut from the
 * tail, so that freed memory stays poisoned, and a use after free caught
 * and described, for as long as possible. Bins are floor-binned: any
 * extent of a bin above the first fits. */
struct large_meta *pool_take(struct lane *l, size_t pages, struct region **rp)
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
	/* Then a bigger extent still warm (its pages and shadow resident):
	 * fresh space costs a fault and a cleared page per page, its shadow's
	 * too, which took most of the time of programs that write what they
	 * allocate. Its tail is cut off, so that the head keeps its record. */
	for (unsigned k = last + 1; !m && k < NBINS; k++) {
		depth = 0;
		for (struct large_meta *e = bins[k].head; e && depth < 4 && !m;
		     e = e->next, depth++)
			if (!(e->flags & LARGE_SHADOW_RELEASED))
				m = e;
	}
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
		pool_insert(l, run, pages, LARGE_SHADOW_RELEASED);
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
		n += __atomic_load_n(&large_lanes[i].pool_shadow, __ATOMIC_RELAXED) << 3;
	return n;
}

size_t large_pool_bytes(void)
{
	size_t n = 0;
	for (int i = 0; i < LANES; i++)
		n += __atomic_load_n(&large_lanes[i].pool_bytes, __ATOMIC_RELAXED);
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
	int n = __atomic_load_n(&large_nregions, __ATOMIC_ACQUIRE);
	for (int k = 0; k < n; k++) {
		struct region *r = &large_regions[k];
		if (r->lane != l - large_lanes)
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
		pool_insert(l, run, run->pages, LARGE_SHADOW_RELEASED);
	}
	spin_unlock(&l->lock);
}

/* Called without locks. wait = 0: skip if another thread is purging. */
void pool_purge(struct lane *l, int wait, int always)
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

static int warm_free(const struct large_meta *m)
{
	return (m->flags & (LARGE_FREE | LARGE_SHADOW_RELEASED)) == LARGE_FREE;
}

/* Called with the lock held: free for reuse, oldest out first. */
void pool_add(struct lane *l, struct large_meta *m)
{
	/* The record keeps describing the object until the extent is used
	 * again: reports name it, and a second free is a double free. */
	count_stat(&large_stats.extents, -1);
	/* Merged with free neighbours still warm, as an allocator coalesces:
	 * kept apart, the pieces left by cutting big extents for small objects
	 * piled up, too small for the next big one, which then took fresh
	 * space. The merged extent keeps the first one's record; the others'
	 * memory stays poisoned, so a late use is still caught. */
	struct region *r = region_of_meta(m);
	size_t pages = m->pages, total = r->len / os_page_size();
	struct large_meta *next = m + pages;
	if ((size_t)(next - r->meta) < total && warm_free(next)) {
		pages += next->pages;
		pool_remove(l, next);
		rt_memset(next, 0, sizeof(*next));
	}
	uint32_t back = m > r->meta + 1 ? m[-1].back : 0;
	struct large_meta *prev = m - back;
	if (back && prev >= r->meta + 1 && prev->pages == back && warm_free(prev)) {
		pages += back;
		pool_remove(l, prev);
		rt_memset(m, 0, sizeof(*m));
		m = prev;
	}
	pool_insert(l, m, pages, 0);
}

void large_purge(void)
{
	for (int i = 0; i < LANES; i++)
		pool_purge(&large_lanes[i], 1, 1);
}
