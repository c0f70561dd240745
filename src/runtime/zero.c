/* Hardware tags under qemu-user: glibc's memset zeroes with DC ZVA, which
 * qemu-user 7.2 gets wrong on a pointer with a tag while tag checks are on
 * (SEGV_MAPERR; real MTE hardware takes it). Every
 * program zeroes heap memory with memset (calloc-like code, buffers), so
 * while hardware tags are on, zeroing through a tagged pointer is done
 * with plain stores (arch_zero_plain); everything else goes straight to
 * glibc. arm64 only: elsewhere nothing is interposed. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../kasan/kasan.h"
#include "next_alloc.h"

#if defined(__aarch64__)
/* glibc's memset and bzero are indirect functions, which only the loader
 * resolves; its __memset_chk is a plain function around its memset. */
static void *real_memset_chk;

static inline int plain(const void *d, int c, size_t n)
{
	return unlikely(kasan_cpu_tag_checks) && c == 0 && ((uintptr_t)d >> 56) && n >= 64;
}

static void *zero_or_set(void *d, int c, size_t n, size_t room)
{
	if (plain(d, c, n) && n <= room) {
		arch_zero_plain(d, n);
		return d;
	}
	void *(*real)(void *, int, size_t, size_t) =
	    (void *(*)(void *, int, size_t, size_t))next_symbol(&real_memset_chk, "__memset_chk");
	return real(d, c, n, room);
}

UKASAN_EXPORT void *memset(void *d, int c, size_t n)
{
	return zero_or_set(d, c, n, (size_t)-1);
}

UKASAN_EXPORT void *__memset_chk(void *d, int c, size_t n, size_t room)
{
	return zero_or_set(d, c, n, room);
}

UKASAN_EXPORT void bzero(void *d, size_t n)
{
	zero_or_set(d, 0, n, (size_t)-1);
}

UKASAN_EXPORT void explicit_bzero(void *d, size_t n)
{
	zero_or_set(d, 0, n, (size_t)-1);
	__asm__ volatile("" : : "r"(d) : "memory"); /* not optimised away */
}
#endif
