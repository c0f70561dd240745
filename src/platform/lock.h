/* A spinlock that never calls into libc: usable in the allocator, the fault
 * handler and after fork. Critical sections guarded by it are short.
 *
 * The order in which the runtime's locks may nest, outermost first, is the
 * order fork_prepare (runtime/init.c) takes them all in, so that a child
 * never inherits one held: KASAN's quarantine (kasan/quarantine.c
 * fifo_lock), the large objects' lanes (kasan/large.h: a lane's purge_lock,
 * then its lock, then large.c's regions_lock), page_alloc sampling
 * (kasan/page_sample.c), the mode's heap (hardware tags, kasan/hw_heap.c: a
 * size class's lock, then grow_lock), KFENCE's pool_lock (kfence/pool.c),
 * then the preload's leak registry shards (runtime/leak_track.c, in index
 * order), then the program's signal handlers (platform/signals.c app_lock,
 * a leaf). Not in that order (fork_prepare does not take them, and their
 * nesting is not checked): a KFENCE slot's lock (struct kfence_meta), the
 * globals' registry (kasan/generic_globals.c) and the report lock
 * (report/report.c), held from a report's start to its end.
 * docs/design.md says the same. */
#ifndef UKASAN_PLATFORM_LOCK_H
#define UKASAN_PLATFORM_LOCK_H

#include "os.h"

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ volatile("yield");
#endif
}

struct spinlock {
	int locked;
};

static inline int spin_trylock(struct spinlock *l)
{
	return !__atomic_exchange_n(&l->locked, 1, __ATOMIC_ACQUIRE);
}

static inline void spin_lock(struct spinlock *l)
{
	for (unsigned spins = 0; !spin_trylock(l); spins++) {
		while (__atomic_load_n(&l->locked, __ATOMIC_RELAXED)) {
			if (++spins > 64) {
				os_yield();
				spins = 0;
			} else {
				cpu_relax();
			}
		}
	}
}

static inline void spin_unlock(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELEASE);
}

/* Forget any holder: only for the child after fork(), where the holder
 * thread no longer exists. */
static inline void spin_reset(struct spinlock *l)
{
	__atomic_store_n(&l->locked, 0, __ATOMIC_RELAXED);
}

#endif
