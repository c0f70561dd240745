/* Seed 003's sampling of large allocations, in generic mode:
 * kasan.page_alloc.sample=N checks one allocation in N of page order
 * kasan.page_alloc.sample.order and up. The others go straight to glibc:
 * no redzones, no poisoning, no quarantine, and their shadow stays 00.
 *
 * A set of their addresses tells them apart at free from pointers that
 * were never allocated, so an invalid free is still reported as one. When
 * the set is full, allocations are checked again rather than lost. */
#include "../base/compiler.h"
#include "../base/leak_remote.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../platform/libc_alloc.h"
#include "kasan.h"
#include "shared.h"

#define SLOTS (1u << 16) /* a power of two */

struct slot {
	uintptr_t p;
	size_t size;
};
static struct slot set[SLOTS];
static size_t used;
/* Lock order (platform/lock.h): after the large lanes', before the mode's
 * heap locks. */
static struct spinlock lock;

struct sample_stats sample_stats;

static __thread long skip __attribute__((tls_model("initial-exec")));

/* The kernel's rule: allocations below the order are always checked; above
 * it, a per-CPU countdown (here per thread) picks one in N. */
int page_alloc_sampled(size_t size)
{
	unsigned long n = opt.kasan_page_alloc_sample;
	size_t page = os_page_size();
	if (size <= page << opt.kasan_page_alloc_sample_order >> 1)
		return 1;
	if (n <= 1 || --skip < 0) {
		skip = (long)n - 1;
		__atomic_add_fetch(&sample_stats.sampled, 1, __ATOMIC_RELAXED);
		return 1;
	}
	return 0;
}

static size_t hash(uintptr_t p)
{
	return (size_t)((p >> 4) * 0x9e3779b97f4a7c15ull >> 48) & (SLOTS - 1);
}

static int insert(uintptr_t p, size_t size)
{
	spin_lock(&lock);
	if (used >= SLOTS / 4 * 3) {
		spin_unlock(&lock);
		return 0;
	}
	size_t i = hash(p);
	while (set[i].p)
		i = (i + 1) & (SLOTS - 1);
	set[i].p = p;
	set[i].size = size;
	used++;
	spin_unlock(&lock);
	return 1;
}

/* Called with the lock held; linear probing's deletion by shifting back. */
static void remove_at(size_t i)
{
	set[i].p = 0;
	for (size_t j = (i + 1) & (SLOTS - 1); set[j].p; j = (j + 1) & (SLOTS - 1)) {
		size_t home = hash(set[j].p);
		/* Move j back to i unless its home lies cyclically in (i, j]. */
		if ((j > i && (home <= i || home > j)) || (j < i && home <= i && home > j)) {
			set[i] = set[j];
			set[j].p = 0;
			i = j;
		}
	}
	used--;
}

static long find(uintptr_t p)
{
	for (size_t i = hash(p); set[i].p; i = (i + 1) & (SLOTS - 1))
		if (set[i].p == p)
			return (long)i;
	return -1;
}

/* 0 when the set is full: then this one is checked after all. */
int unsampled_alloc(size_t size, size_t align, int zero, void **out)
{
	void *p = align > 16 ? libc_alloc()->memalign(align, size)
	          : zero     ? libc_alloc()->calloc(1, size)
	                     : libc_alloc()->malloc(size);
	*out = p;
	if (!p)
		return 1;
	if (!insert((uintptr_t)p, size)) {
		libc_alloc()->free(p);
		return 0;
	}
	if (zero && align > 16)
		rt_memset(p, 0, size);
	__atomic_add_fetch(&sample_stats.skipped, 1, __ATOMIC_RELAXED);
	return 1;
}

void unsampled_each(void (*fn)(uintptr_t p, size_t size, void *arg), void *arg)
{
	for (size_t i = 0; i < SLOTS; i++)
		if (set[i].p)
			fn(set[i].p, set[i].size, arg);
}

void unsampled_leak_remote(struct leak_remote_generic *g)
{
	_Static_assert(sizeof(set[0].p) == 8 && sizeof(set[0].size) == 8,
	               "base/leak_remote.h reads the slots' fields at these widths");
	g->unsampled = (uintptr_t)set;
	g->unsampled_slots = SLOTS;
	g->unsampled_slot = sizeof(struct slot);
	g->unsampled_p_off = __builtin_offsetof(struct slot, p);
	g->unsampled_size_off = __builtin_offsetof(struct slot, size);
}

/* The size of an unsampled object at p, or (size_t)-1. */
size_t unsampled_size(uintptr_t p)
{
	if (!__atomic_load_n(&used, __ATOMIC_RELAXED))
		return (size_t)-1;
	spin_lock(&lock);
	long i = find(p);
	size_t size = i < 0 ? (size_t)-1 : set[i].size;
	spin_unlock(&lock);
	return size;
}

/* 1 when p was an unsampled object, now freed. */
int unsampled_free(uintptr_t p)
{
	if (!__atomic_load_n(&used, __ATOMIC_RELAXED))
		return 0;
	spin_lock(&lock);
	long i = find(p);
	if (i >= 0)
		remove_at((size_t)i);
	spin_unlock(&lock);
	if (i < 0)
		return 0;
	libc_alloc()->free((void *)p);
	return 1;
}

void page_sample_fork_prepare(void)
{
	spin_lock(&lock);
}

void page_sample_fork_parent(void)
{
	spin_unlock(&lock);
}

void page_sample_fork_child(void)
{
	spin_reset(&lock);
}
