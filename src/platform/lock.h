/* A spinlock that never calls into libc: usable in the allocator, the fault
 * handler and after fork. Critical sections guarded by it are short. */
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
