#ifndef UKASAN_CORE_COMMON_H
#define UKASAN_CORE_COMMON_H

/* Everything is hidden unless marked: the interposed libc entry points and
 * the public API in include/ukasan.h. */
#define UKASAN_EXPORT __attribute__((visibility("default")))

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a)-1))
#define ALIGN_UP(x, a) ALIGN_DOWN((x) + (a)-1, (a))

#endif
