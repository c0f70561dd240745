#ifndef UKASAN_BASE_COMPILER_H
#define UKASAN_BASE_COMPILER_H

/* Everything is hidden unless marked: the interposed libc entry points and
 * the public API in include/ukasan.h. */
#define UKASAN_EXPORT __attribute__((visibility("default")))

#include <stddef.h>

/* The runtime's own copies call glibc's implementations directly: in an
 * instrumented program memcpy and memset are the checking interposers, and
 * shadow memory is not program memory to check. */
extern void *__memcpy_chk(void *d, const void *s, size_t n, size_t dlen);
extern void *__memset_chk(void *d, int c, size_t n, size_t dlen);
extern void *__memmove_chk(void *d, const void *s, size_t n, size_t dlen);
/* An instrumented program defines these names too, with checks, and they
 * bind here (the program exports what its libraries refer to): its
 * interposers skip the checks for calls whose return address is in this
 * library (__ukasan_runtime_ip). The empty asm after the call keeps it from
 * being a tail call, whose return address would be our caller's. */
#define RT_NO_TAIL(call)                                                                           \
	({                                                                                         \
		void *rt_r_ = (call);                                                              \
		__asm__ volatile("" ::: "memory");                                                 \
		rt_r_;                                                                             \
	})
#define rt_memcpy(d, s, n)  RT_NO_TAIL(__memcpy_chk((d), (s), (n), (size_t)-1))
#define rt_memmove(d, s, n) RT_NO_TAIL(__memmove_chk((d), (s), (n), (size_t)-1))
#define rt_memset(d, c, n)  RT_NO_TAIL(__memset_chk((d), (c), (n), (size_t)-1))

/* The caller's address: the access a check reports is its caller's. */
#define RET_IP ((uintptr_t)__builtin_return_address(0))

/* The tail of a realloc that moves an object: q is the new object (size
 * bytes), p the old one (old bytes), free_old the free of whoever owns p.
 * A NULL q, a failed allocation, leaves p untouched: a failed realloc
 * leaves the old object to its caller. */
static inline void *rt_realloc_move(void *q, void *p, size_t old, size_t size,
                                    void (*free_old)(void *))
{
	if (!q)
		return NULL;
	rt_memcpy(q, p, old < size ? old : size);
	free_old(p);
	return q;
}

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define ALIGN_UP(x, a)   ALIGN_DOWN((x) + (a)-1, (a))

#endif
