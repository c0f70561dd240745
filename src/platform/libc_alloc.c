#include "libc_alloc.h"

#include "dynlink.h"

struct libc_alloc libc_alloc_fns;
int libc_alloc_state;
static void (*before)(void);

static void resolve(void)
{
	struct libc_alloc *l = &libc_alloc_fns;
	const void *self = (const void *)&resolve;
#define LIBC(field, name) (l->field = (__typeof__(l->field))dl_next_definition(self, name, NULL))
	LIBC(malloc, "__libc_malloc");
	LIBC(free, "__libc_free");
	LIBC(calloc, "__libc_calloc");
	LIBC(realloc, "__libc_realloc");
	LIBC(memalign, "__libc_memalign");
	LIBC(valloc, "__libc_valloc");
	LIBC(pvalloc, "__libc_pvalloc");
	LIBC(usable_size, "malloc_usable_size");
#undef LIBC
	__atomic_or_fetch(&libc_alloc_state, LIBC_ALLOC_FOUND, __ATOMIC_RELEASE);
}

const struct libc_alloc *libc_alloc_slow(void)
{
	int state = __atomic_load_n(&libc_alloc_state, __ATOMIC_ACQUIRE);
	if (!(state & LIBC_ALLOC_FOUND))
		resolve();
	void (*fn)(void) = __atomic_load_n(&before, __ATOMIC_ACQUIRE);
	if ((state & LIBC_ALLOC_HELD) && fn)
		fn();
	return &libc_alloc_fns;
}

void libc_alloc_hook(void (*fn)(void))
{
	__atomic_store_n(&before, fn, __ATOMIC_RELEASE);
}

void libc_alloc_hold(int on)
{
	if (on)
		__atomic_or_fetch(&libc_alloc_state, LIBC_ALLOC_HELD, __ATOMIC_SEQ_CST);
	else
		__atomic_and_fetch(&libc_alloc_state, ~LIBC_ALLOC_HELD, __ATOMIC_SEQ_CST);
}

int libc_alloc_is_glibc(void)
{
	const void *m = (const void *)libc_alloc()->malloc;
	return m && dl_object_of(m) == dl_libc_object();
}
