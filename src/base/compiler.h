#ifndef UKASAN_BASE_COMPILER_H
#define UKASAN_BASE_COMPILER_H

/* Everything is hidden unless marked: the interposed libc entry points and
 * the public API in include/ukasan.h. */
#define UKASAN_EXPORT __attribute__((visibility("default")))
/* A variable one file defines and others read, declared so: code built
 * with -fPIC reaches a variable it is not told is the library's own
 * through the GOT, an address load before every use (3 of the 13
 * instructions of the preload's malloc and free). */
#ifndef RT_HIDDEN /* empty where a test builds some files alone, the rest unresolved */
#define RT_HIDDEN __attribute__((visibility("hidden")))
#endif

#include <stddef.h>
#include <stdint.h>

/* The runtime's own copies and fills: in an instrumented program memcpy
 * and memset are the checking interposers, and shadow memory is not
 * program memory to check. They go through rt_mem (platform/mem.c), which
 * the runtime's start binds (runtime/init.c) to an instrumented program's
 * __memcpy_chk, __memmove_chk and __memset_chk, which skip the checks for
 * calls whose return address is in this library (__ukasan_runtime_ip);
 * otherwise to glibc's memcpy, memmove and memset as the loader bound
 * them, without the fortified names, whose resolvers would be one more
 * page range of glibc's for every preloaded program. The empty asm after
 * the call keeps it from being a tail call, whose return address would be
 * our caller's. */
struct rt_mem {
	void *(*copy)(void *d, const void *s, size_t n, size_t dlen);
	void *(*move)(void *d, const void *s, size_t n, size_t dlen);
	void *(*set)(void *d, int c, size_t n, size_t dlen);
};
extern RT_HIDDEN struct rt_mem rt_mem;
#define RT_NO_TAIL(call)                                                                           \
	({                                                                                         \
		void *rt_r_ = (call);                                                              \
		__asm__ volatile("" ::: "memory");                                                 \
		rt_r_;                                                                             \
	})
#define rt_memcpy(d, s, n)  RT_NO_TAIL(rt_mem.copy((d), (s), (n), (size_t)-1))
#define rt_memmove(d, s, n) RT_NO_TAIL(rt_mem.move((d), (s), (n), (size_t)-1))
#define rt_memset(d, c, n)  RT_NO_TAIL(rt_mem.set((d), (c), (n), (size_t)-1))

/* rt_memset for the allocator's small writes (a chunk's shadow, a few
 * bytes; a small object's fill): stores, as rt_memset's call goes through
 * the program's __memset_chk, which asks whether its caller is ours, and
 * costs more than the bytes. The empty asm keeps the compiler from making
 * a loop a memset call, which would bind to the program's checked one. */
static inline void rt_fill(void *d, int c, size_t n)
{
	typedef uint64_t __attribute__((may_alias, aligned(1))) u64_unaligned;
	typedef uint32_t __attribute__((may_alias, aligned(1))) u32_unaligned;
	unsigned char *p = (unsigned char *)d;
	uint64_t v = 0x0101010101010101ull * (unsigned char)c;
	if (n > 256) {
		rt_memset(d, c, n);
	} else if (n >= 8) {
		for (size_t i = 0; i + 8 < n; i += 8) {
			__asm__("" : "+r"(v));
			*(u64_unaligned *)(p + i) = v;
		}
		*(u64_unaligned *)(p + n - 8) = v;
	} else if (n >= 4) {
		*(u32_unaligned *)p = (uint32_t)v;
		*(u32_unaligned *)(p + n - 4) = (uint32_t)v;
	} else {
		for (size_t i = 0; i < n; i++) {
			__asm__("" : "+r"(v));
			p[i] = (unsigned char)v;
		}
	}
}

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
