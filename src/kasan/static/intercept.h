#ifndef UKASAN_GENERIC_STATIC_INTERCEPT_H
#define UKASAN_GENERIC_STATIC_INTERCEPT_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

/* In libukasan.so. */
/* 0 when the range is bad (and reported): the caller then skips the
 * operation, as the kernel's checked memcpy does. */
int __ukasan_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);

/* glibc's exported fortify entry points call its own implementations
 * directly, without going back through these interposers. */
void *__memcpy_chk(void *d, const void *s, size_t n, size_t dlen);
void *__memmove_chk(void *d, const void *s, size_t n, size_t dlen);
void *__memset_chk(void *d, int c, size_t n, size_t dlen);

/* glibc's implementation, found once; dlsym from here skips this program. */
#define REAL(ret, name, ...)                                                                       \
	static ret (*real_##name)(__VA_ARGS__);                                                    \
	static ret (*get_##name(void))(__VA_ARGS__)                                                \
	{                                                                                          \
		if (!real_##name)                                                                  \
			real_##name = (ret(*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name);                \
		return real_##name;                                                                \
	}

#define RET_IP            ((uintptr_t)__builtin_return_address(0))
#define CHECK_READ(p, n)  __ukasan_check_range((uintptr_t)(p), (n), 0, RET_IP)
#define CHECK_WRITE(p, n) __ukasan_check_range((uintptr_t)(p), (n), 1, RET_IP)

#endif
