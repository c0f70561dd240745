/* KFENCE's pool as a leak scan sees it (base/leak_heap.h), two ways.
 *
 * As a heap of leak candidates: each live sampled object is an object of
 * kmemleak's, reported with the allocation stack KFENCE keeps for its own
 * reports when nothing points to it. Under the preload at its defaults these
 * are the only objects tracked, at no cost beyond the sampling (the records
 * are the pool's metadata); in generic mode they are heap objects beside
 * KASAN's, which never lists them.
 *
 * As roots only, where another heap already tracks the sampled objects (the
 * preload's registry, kmemleak=on) or no heap can leak (the tag modes): the
 * scan reads them so that what a sampled object points to is reached. Their
 * pages are copied there, not read in place, as a report could have left a
 * page closed under a root that no find vouches for. */
#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "kfence.h"

/* ---- Roots only ---- */

static void each_root(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	static uintptr_t buf[512];
	for (unsigned i = 0; kfence.meta && i < kfence.num_objects; i++) {
		struct kfence_meta *m = &kfence.meta[i];
		if (m->state != OBJ_ALLOCATED)
			continue;
		for (size_t off = 0; off < m->size; off += sizeof(buf)) {
			size_t n = m->size - off < sizeof(buf) ? m->size - off : sizeof(buf);
			n = os_copy_readable(buf, (const void *)(m->addr + off), n);
			fn((uintptr_t)buf, (uintptr_t)buf + ALIGN_DOWN(n, 8), arg);
		}
	}
	/* Stale copies in libukasan's .bss would be roots to a scan that took
	 * it for one. */
	rt_memset(buf, 0, sizeof(buf));
}

static const struct leak_heap roots_heap = {
    .name = "kfence",
    .each_root = each_root,
};

/* ---- Leak candidates ---- */

/* Threads whose new objects are not leaks (__lsan_disable). */
static __thread int ignoring __attribute__((tls_model("initial-exec")));
/* Which view is in force: new objects get their flags only in this one. */
static int candidates_on;

unsigned kfence_leak_new_flags(void)
{
	return candidates_on && ignoring > 0 ? LEAK_IGNORED : 0;
}

/* Every object lies in the pool: its object pages are the spans it holds
 * objects in, and its range bounds them. Nothing when no object is live,
 * so a scan of no candidates reads no object. */
static int scan_begin(const struct leak_span *spans, long n, uintptr_t *first,
                      struct leak_span *bounds)
{
	bounds->start = bounds->end = 0;
	for (long i = 0; i < n; i++)
		first[i] = kfence_owns((void *)spans[i].start) ? spans[i].start : 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (unsigned i = 0; kfence.meta && i < kfence.num_objects; i++) {
		const struct kfence_meta *m = &kfence.meta[i];
		if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED)
			continue;
		lo = m->addr < lo ? m->addr : lo;
		uintptr_t end = m->addr + (m->size ? m->size : 1);
		hi = end > hi ? end : hi;
	}
	if (lo < hi) {
		bounds->start = lo;
		bounds->end = hi;
	}
	return 0;
}

/* With the other threads stopped: the allocated object whose requested
 * bytes hold addr (or that starts at addr, if of size 0), or NULL. */
static struct kfence_meta *kfence_object_holding(uintptr_t addr)
{
	if (!kfence_owns((void *)addr))
		return NULL;
	long idx = kfence_slot_at(addr);
	if (idx < 0)
		return NULL;
	struct kfence_meta *m = &kfence.meta[idx];
	if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED)
		return NULL;
	if (addr == m->addr || addr - m->addr < m->size)
		return m;
	return NULL;
}

static struct leak_object *find(uintptr_t addr)
{
	return (struct leak_object *)kfence_object_holding(addr);
}

static void each_live(void (*fn)(struct leak_object *o, void *arg), void *arg)
{
	for (unsigned i = 0; kfence.meta && i < kfence.num_objects; i++)
		if (__atomic_load_n(&kfence.meta[i].state, __ATOMIC_ACQUIRE) == OBJ_ALLOCATED)
			fn((struct leak_object *)&kfence.meta[i], arg);
}

static void describe(const struct leak_object *o, struct leak_object_info *info)
{
	const struct kfence_meta *m = (const struct kfence_meta *)o;
	info->base = m->addr;
	info->size = m->size;
	info->stack = m->alloc.stack;
	info->tid = (uint32_t)m->alloc.tid;
	info->flags = m->leak_flags;
}

static unsigned flags_update(struct leak_object *o, unsigned set, unsigned clear)
{
	struct kfence_meta *m = (struct kfence_meta *)o;
	unsigned old = m->leak_flags;
	m->leak_flags = (old | set) & ~clear;
	return old;
}

static int ignore(uintptr_t p)
{
	if (!kfence_owns((void *)p))
		return 0;
	struct kfence_meta *m = kfence_object_holding(p);
	if (!m)
		return 0;
	spin_lock(&m->lock);
	int ok = m->addr == p && m->state == OBJ_ALLOCATED;
	if (ok)
		m->leak_flags |= LEAK_IGNORED;
	spin_unlock(&m->lock);
	return ok;
}

static void thread_ignore(int on)
{
	ignoring += on ? 1 : -1;
}

static const struct leak_heap objects_heap = {
    .name = "kfence",
    .scan_begin = scan_begin,
    .find = find,
    .each_live = each_live,
    .describe = describe,
    .flags_update = flags_update,
    .ignore = ignore,
    .thread_ignore = thread_ignore,
};

const struct leak_heap *kfence_leak_heap(int candidates)
{
	if (!candidates)
		return &roots_heap;
	candidates_on = 1;
	return &objects_heap;
}
