/* libFuzzer's value profile for the comparisons: its own interceptors of
 * memcmp and str* give it each call's operands through these hooks, and
 * ukasan's checking interceptors stand in for them (ukasan-cc links
 * libFuzzer without its interceptors, as two definitions of strcmp cannot
 * be linked), so they call the hooks as ASan's do. Weak: a program with
 * no fuzzer, or with AFL++'s or honggfuzz's, defines none and pays one
 * test of a null address per call. The caller's pc tells libFuzzer's
 * tables one comparison site from another. */
#ifndef UKASAN_INTERCEPTORS_FUZZ_HOOKS_H
#define UKASAN_INTERCEPTORS_FUZZ_HOOKS_H

#include <stddef.h>

#define FUZZ_WEAK __attribute__((weak, visibility("default")))
FUZZ_WEAK void __sanitizer_weak_hook_memcmp(void *pc, const void *a, const void *b, size_t n,
                                            int r);
FUZZ_WEAK void __sanitizer_weak_hook_strcmp(void *pc, const char *a, const char *b, int r);
FUZZ_WEAK void __sanitizer_weak_hook_strncmp(void *pc, const char *a, const char *b, size_t n,
                                             int r);
FUZZ_WEAK void __sanitizer_weak_hook_strcasecmp(void *pc, const char *a, const char *b, int r);
FUZZ_WEAK void __sanitizer_weak_hook_strncasecmp(void *pc, const char *a, const char *b, size_t n,
                                                 int r);
FUZZ_WEAK void __sanitizer_weak_hook_strstr(void *pc, const char *h, const char *n, char *r);
FUZZ_WEAK void __sanitizer_weak_hook_strcasestr(void *pc, const char *h, const char *n, char *r);
FUZZ_WEAK void __sanitizer_weak_hook_memmem(void *pc, const void *h, size_t hl, const void *n,
                                            size_t nl, void *r);
#undef FUZZ_WEAK

/* In the interceptor itself (always inlined), so the pc is its caller's. */
#define FUZZ_HOOK(name, ...)                                                                       \
	do {                                                                                       \
		if (__sanitizer_weak_hook_##name)                                                  \
			__sanitizer_weak_hook_##name(__builtin_return_address(0), __VA_ARGS__);    \
	} while (0)

#endif
