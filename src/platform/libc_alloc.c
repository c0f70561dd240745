#include "libc_alloc.h"

#include "dynlink.h"

#include <gnu/libc-version.h>

struct libc_alloc libc_alloc_fns;
int libc_alloc_resolved;

const struct libc_alloc *libc_alloc_resolve(void)
{
	struct libc_alloc *l = &libc_alloc_fns;
	const void *self = (const void *)&libc_alloc_resolve;
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
	__atomic_store_n(&libc_alloc_resolved, 1, __ATOMIC_RELEASE);
	return l;
}

int libc_alloc_is_glibc(void)
{
	/* gnu_get_libc_version: a function only glibc defines. */
	const void *m = (const void *)libc_alloc()->malloc;
	return m && dl_object_of(m) == dl_object_of((const void *)gnu_get_libc_version);
}
