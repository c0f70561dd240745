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
#include "asan_interface.h"

/* Only the generic mode has this shadow: the tag modes keep tags at the
 * same addresses, and KFENCE alone has none. */
static int generic_on(void)
{
	return kasan_enabled && kasan_ops == &generic_ops;
}

/* A shadow byte says "the first k bytes of the granule are addressable",
 * so as in AddressSanitizer a region's part granules are poisoned only
 * where that can be said: the tail of a granule (from the region's start to
 * the granule's end, or to bytes after the region that are poisoned
 * already); a region's head or middle in a granule whose later bytes stay
 * addressable is left addressable. Both functions follow ASan's documented
 * semantics byte for byte, so __asan_address_is_poisoned answers the same. */
UKASAN_EXPORT void __asan_poison_memory_region(const volatile void *addr, size_t size)
{
	uintptr_t beg = (uintptr_t)addr, end = beg + size;
	if (!generic_on() || !size || end < beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	int8_t *bs = shadow_of(beg), *es = shadow_of(end);
	int8_t boff = (int8_t)(beg & (GRANULE - 1)), eoff = (int8_t)(end & (GRANULE - 1));
	if (bs == es) { /* inside one granule */
		int8_t v = *bs;
		/* Only when the bytes from end on are not addressable; a
		 * granule already poisoned stays as it is. */
		if (v > 0 && v <= eoff)
			*bs = boff > 0 ? (v < boff ? v : boff) : (int8_t)SHADOW_USER_POISON;
		return;
	}
	if (boff > 0) {
		*bs = *bs == 0 || *bs > boff ? boff : *bs;
		bs++;
	}
	if (es > bs)
		shadow_set((uintptr_t)bs, (uintptr_t)es, SHADOW_USER_POISON);
	/* The last, part granule: poisoned whole if what follows the region
	 * in it is not addressable anyway. */
	if (eoff && *es > 0 && *es <= eoff)
		*es = (int8_t)SHADOW_USER_POISON;
}

/* The first granule is made addressable from its start: bytes before the
 * region in it cannot stay poisoned while the region's are not. */
UKASAN_EXPORT void __asan_unpoison_memory_region(const volatile void *addr, size_t size)
{
	uintptr_t beg = (uintptr_t)addr, end = beg + size;
	if (!generic_on() || !size || end < beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	int8_t *bs = shadow_of(beg), *es = shadow_of(end);
	int8_t eoff = (int8_t)(end & (GRANULE - 1));
	if (bs == es) {
		if (*bs != 0)
			*bs = *bs > eoff ? *bs : eoff;
		return;
	}
	shadow_set((uintptr_t)bs, (uintptr_t)es, 0);
	if (eoff && *es != 0)
		*es = *es > eoff ? *es : eoff;
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
