/* AddressSanitizer's manual poisoning interface (sanitizer/asan_interface.h),
 * which programs with allocators of their own call through the
 * ASAN_POISON_MEMORY_REGION macros whenever __SANITIZE_ADDRESS__ is
 * defined, as it is under ukasan-cc: without it they would not link. An
 * access to memory poisoned so is reported as a use-after-poison. */
#include "../base/compiler.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "kasan.h"
#include "mode.h"
#include "user.h"

/* Only the generic mode has this shadow: the tag modes keep tags at the
 * same addresses, and KFENCE alone has none. */
static int generic_on(void)
{
	return kasan_enabled && kasan_ops == &generic_ops;
}

/* Whole granules inside the region only: the bytes before it in its first
 * granule, and after it in its last, may belong to something else. */
UKASAN_EXPORT void __asan_poison_memory_region(const volatile void *addr, size_t size)
{
	uintptr_t beg = (uintptr_t)addr, end = beg + size;
	if (!generic_on() || !size || end < beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	uintptr_t first = ALIGN_UP(beg, GRANULE), last = ALIGN_DOWN(end, GRANULE);
	if (beg & (GRANULE - 1)) {
		int8_t *s = shadow_of(beg);
		int8_t keep = (int8_t)(beg & (GRANULE - 1));
		/* The first bytes stay accessible if they were. */
		if (first <= end && (*s == 0 || *s > keep))
			*s = keep;
	}
	if (last > first)
		shadow_poison(first, last - first, SHADOW_USER_POISON);
}

UKASAN_EXPORT void __asan_unpoison_memory_region(const volatile void *addr, size_t size)
{
	uintptr_t beg = (uintptr_t)addr, end = beg + size;
	if (!generic_on() || !size || end < beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	uintptr_t first = ALIGN_DOWN(beg, GRANULE);
	int8_t after = (end & (GRANULE - 1)) ? *shadow_of(end) : 0;
	shadow_unpoison(first, end - first);
	/* A last granule that was accessible further than the region stays so. */
	if (after == 0 || (after > 0 && after > (int8_t)(end & (GRANULE - 1))))
		if (end & (GRANULE - 1))
			*shadow_of(end) = after;
}

UKASAN_EXPORT int __asan_address_is_poisoned(const volatile void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	if (!generic_on() || !shadow_covers(a))
		return 0;
	int8_t s = *shadow_of(a);
	return s != 0 && (int8_t)(a & (GRANULE - 1)) >= s;
}

UKASAN_EXPORT void *__asan_region_is_poisoned(void *addr, size_t size)
{
	uintptr_t a = (uintptr_t)addr;
	for (size_t i = 0; i < size; i++)
		if (__asan_address_is_poisoned((const void *)(a + i)))
			return (void *)(a + i);
	return NULL;
}

int kasan_global_at(uintptr_t addr, const char **name, const char **file, int *line, uintptr_t *beg,
                    size_t *size)
{
	const struct asan_global *g = generic_on() ? generic_find_global(addr) : NULL;
	if (!g)
		return 0;
	*name = g->name;
	*file = g->location ? g->location->file : NULL;
	*line = g->location ? g->location->line : 0;
	*beg = g->beg;
	*size = g->size;
	return 1;
}

/* Contiguous containers (ASan's annotations, which libstdc++'s vector makes
 * under _GLIBCXX_SANITIZE_VECTOR). A shadow byte can only say "the first k
 * bytes", so a granule the container shares with memory before or after
 * it, or whose in-use part does not start at its first byte, errs towards
 * accessible: a missed overflow there, never a false one. */
static int8_t container_code(uintptr_t g, uintptr_t sb, uintptr_t se, uintptr_t cb, uintptr_t ce)
{
	uintptr_t ge = g + GRANULE;
	/* the last byte of the granule the program may use */
	uintptr_t used_end = cb < ge && ce > g && ce > cb ? (ce < ge ? ce : ge) : g;
	if (g < sb && sb - g > used_end - g)
		used_end = sb; /* bytes before the storage stay as they were: usable */
	if (se < ge) {
		int8_t now = *shadow_of(g);
		/* Bytes after the storage that are accessible keep the whole
		 * granule accessible. */
		if (now == 0 || now > (int8_t)(se - g))
			return now;
	}
	if (used_end >= ge)
		return 0;
	if (used_end == g)
		return (int8_t)SHADOW_CONTAINER;
	return (int8_t)(used_end - g);
}

void kasan_container_mark(uintptr_t sb, uintptr_t se, uintptr_t cb, uintptr_t ce)
{
	if (!generic_on() || se <= sb || !shadow_covers(sb) || !shadow_covers(se - 1))
		return;
	for (uintptr_t g = ALIGN_DOWN(sb, GRANULE); g < se; g += GRANULE)
		*shadow_of(g) = container_code(g, sb, se, cb, ce);
}

static int poisoned(uintptr_t a)
{
	int8_t s = *shadow_of(a);
	return s != 0 && (int8_t)(a & (GRANULE - 1)) >= s;
}

uintptr_t kasan_container_bad(uintptr_t sb, uintptr_t se, uintptr_t cb, uintptr_t ce)
{
	if (!generic_on() || se <= sb || !shadow_covers(sb) || !shadow_covers(se - 1))
		return 0;
	for (uintptr_t a = sb; a < se; a++) {
		int in_use = a >= cb && a < ce;
		if (poisoned(a) == !in_use)
			continue;
		if (in_use)
			return a;
		/* Accessible outside the part in use: right only where the
		 * granule is shared with the part in use or with memory
		 * outside the storage, which the shadow cannot tell apart. */
		uintptr_t g = ALIGN_DOWN(a, GRANULE);
		int shared = (g < ce && g + GRANULE > cb && ce > cb) || g < sb || g + GRANULE > se;
		if (!shared)
			return a;
	}
	return 0;
}

/* Clang's cookie: the element count stored before the elements of new T[n]
 * when T has a destructor, which delete[] reads through the runtime. */
void kasan_poison_cookie(uintptr_t p)
{
	if (generic_on() && shadow_covers(p))
		*shadow_of(p) = (int8_t)SHADOW_ARRAY_COOKIE;
}

/* As ASan's: a cookie in freed memory is read as 0, so a double delete[]
 * runs no destructors on the freed elements before the double free is
 * reported. */
uintptr_t kasan_load_cookie(const uintptr_t *p)
{
	uintptr_t a = (uintptr_t)p;
	if (generic_on() && shadow_covers(a)) {
		uint8_t s = (uint8_t)*shadow_of(a);
		if (s == SHADOW_SLAB_FREE || s == SHADOW_SLAB_FREETRACK || s == SHADOW_PAGE_FREE)
			return 0;
	}
	return *p;
}
