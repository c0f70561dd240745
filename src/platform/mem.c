/* rt_mem (base/compiler.h): the functions the runtime's own copies and
 * fills call. Until mem_functions_init, plain loops (the first allocations
 * of a process, before the runtime's start); then an instrumented
 * program's fortified interposers, which pass the runtime's calls on
 * unchecked, or else glibc's memcpy, memmove and memset. */
#include "mem.h"

#include <string.h>

#include "../base/compiler.h"
#include "dynlink.h"

/* The empty asm keeps the compiler from making these loops the calls they
 * stand in for, which would bind to the program's checking ones. */
static void *copy_early(void *d, const void *s, size_t n, size_t dlen)
{
	(void)dlen;
	unsigned char *o = d;
	const unsigned char *i = s;
	for (size_t k = 0; k < n; k++) {
		__asm__("" : "+r"(o));
		o[k] = i[k];
	}
	return d;
}

static void *move_early(void *d, const void *s, size_t n, size_t dlen)
{
	(void)dlen;
	unsigned char *o = d;
	const unsigned char *i = s;
	if (o <= i || o >= i + n)
		return copy_early(d, s, n, dlen);
	for (size_t k = n; k--;) {
		__asm__("" : "+r"(o));
		o[k] = i[k];
	}
	return d;
}

static void *set_early(void *d, int c, size_t n, size_t dlen)
{
	(void)dlen;
	unsigned char *o = d;
	for (size_t k = 0; k < n; k++) {
		__asm__("" : "+r"(o));
		o[k] = (unsigned char)c;
	}
	return d;
}

struct rt_mem rt_mem = {copy_early, move_early, set_early};

/* The first definition of a fortified name, when it is not glibc's own:
 * the program's interposer. NULL when glibc's comes first. */
static void *interposer(const char *name, const struct link_map *libc)
{
	const struct link_map *where = NULL;
	void *p = dl_first_definition(name, &where);
	return p && where && where != libc ? p : NULL;
}

void mem_functions_init(void)
{
	/* gnu_get_libc_version: only glibc defines it. */
	extern const char *gnu_get_libc_version(void);
	const struct link_map *libc = dl_object_of((const void *)gnu_get_libc_version);
	struct rt_mem m;
	void *copy = interposer("__memcpy_chk", libc), *move = interposer("__memmove_chk", libc),
	     *set = interposer("__memset_chk", libc);
	/* glibc's plain functions take no room argument: the extra register
	 * is ignored, as the calling conventions of x86-64 and arm64 allow. */
	m.copy = copy ? (void *(*)(void *, const void *, size_t, size_t))copy
	              : (void *(*)(void *, const void *, size_t, size_t))(void (*)(void))memcpy;
	m.move = move ? (void *(*)(void *, const void *, size_t, size_t))move
	              : (void *(*)(void *, const void *, size_t, size_t))(void (*)(void))memmove;
	m.set = set ? (void *(*)(void *, int, size_t, size_t))set
	            : (void *(*)(void *, int, size_t, size_t))(void (*)(void))memset;
	__atomic_store_n(&rt_mem.copy, m.copy, __ATOMIC_RELEASE);
	__atomic_store_n(&rt_mem.move, m.move, __ATOMIC_RELEASE);
	__atomic_store_n(&rt_mem.set, m.set, __ATOMIC_RELEASE);
}
