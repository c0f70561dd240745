/* Resolving the allocator under ours. The whole family comes from one
 * object, the first after libukasan.so in the search order that defines
 * malloc, so that a pointer never reaches an allocator that did not make
 * it: before, malloc went to glibc while malloc_usable_size went through
 * dlsym to jemalloc, which crashed redis. Entry points that object lacks are
 * built from the ones it has, never taken from another allocator. */
#define _GNU_SOURCE
#include "next_alloc.h"

#include <errno.h>
#include <link.h>

#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "own_alloc.h"

struct next_alloc next_alloc;

static void *calloc_from_malloc(size_t n, size_t size)
{
	size_t total;
	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	void *p = next_alloc.malloc(total);
	if (p)
		rt_memset(p, 0, total);
	return p;
}

void *next_memalign(size_t align, size_t size)
{
	const struct next_alloc *n = next();
	if (n->memalign)
		return n->memalign(align, size);
	if (align < sizeof(void *))
		align = sizeof(void *);
	if (n->posix_memalign) {
		void *p;
		int e = n->posix_memalign(&p, align, size);
		if (e == 0)
			return p;
		errno = e;
		return NULL;
	}
	if (n->aligned_alloc)
		return n->aligned_alloc(align, ALIGN_UP(size, align));
	errno = ENOMEM;
	return NULL;
}

static int posix_memalign_from_memalign(void **out, size_t align, size_t size)
{
	void *p = next_memalign(align, size);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

static void *aligned_alloc_from_memalign(size_t align, size_t size)
{
	return next_memalign(align, size);
}

static void *valloc_from_memalign(size_t size)
{
	return next_memalign(os_page_size(), size);
}

static void *pvalloc_from_memalign(size_t size)
{
	size_t page = os_page_size();
	return next_memalign(page, size ? ALIGN_UP(size, page) : page);
}

static void glibc_family(struct next_alloc *n)
{
	const struct libc_alloc *l = libc_alloc();
	n->malloc = l->malloc;
	n->free = l->free;
	n->calloc = l->calloc;
	n->realloc = l->realloc;
	n->memalign = l->memalign;
	n->valloc = l->valloc;
	n->pvalloc = l->pvalloc;
	n->name = "libc.so.6";
}

#define FROM(obj, field, sym) (n.field = (__typeof__(n.field))dl_lookup((obj), (sym)))

/* A program with its own allocator (own_alloc.h): each member is what the
 * program's call would bind to without us, wherever it comes from. */
static void own_family(struct next_alloc *n, const struct link_map *shadow)
{
#define OWN_FIELD(field, sym) (n->field = (__typeof__(n->field))own_definition(sym))
	OWN_FIELD(malloc, "malloc");
	OWN_FIELD(free, "free");
	OWN_FIELD(calloc, "calloc");
	OWN_FIELD(realloc, "realloc");
	OWN_FIELD(memalign, "memalign");
	OWN_FIELD(posix_memalign, "posix_memalign");
	OWN_FIELD(aligned_alloc, "aligned_alloc");
	OWN_FIELD(valloc, "valloc");
	OWN_FIELD(pvalloc, "pvalloc");
	OWN_FIELD(usable_size, "malloc_usable_size");
#undef OWN_FIELD
	n->name = shadow->l_name && shadow->l_name[0] ? shadow->l_name : "the program";
	n->own = 1;
	own_alloc_resolve(shadow);
}

void next_alloc_resolve(void)
{
	struct next_alloc n = {0};
	const struct link_map *obj = NULL, *first = NULL;
	void *self = (void *)&next_alloc_resolve;
	void *m = dl_next_definition(self, "malloc", &obj);
	void *f = obj ? dl_lookup(obj, "free") : NULL;
	void *r = obj ? dl_lookup(obj, "realloc") : NULL;
	if (dl_first_definition("malloc", &first) && first && first != dl_object_of(self)) {
		own_family(&n, first);
		obj = NULL;
	} else if (!m || !f || !r) {
		glibc_family(&n);
		/* malloc_usable_size belongs to the same allocator: glibc's. */
		obj = dl_object_of((void *)libc_alloc()->malloc);
	} else {
		n.malloc = (void *(*)(size_t))m;
		n.free = (void (*)(void *))f;
		n.realloc = (void *(*)(void *, size_t))r;
		FROM(obj, calloc, "calloc");
		FROM(obj, memalign, "memalign");
		FROM(obj, valloc, "valloc");
		FROM(obj, pvalloc, "pvalloc");
		n.name = obj->l_name && obj->l_name[0] ? obj->l_name : "the program";
	}
	if (obj) {
		FROM(obj, posix_memalign, "posix_memalign");
		FROM(obj, aligned_alloc, "aligned_alloc");
		FROM(obj, usable_size, "malloc_usable_size");
	}
	if (!n.calloc)
		n.calloc = calloc_from_malloc;
	if (!n.posix_memalign)
		n.posix_memalign = posix_memalign_from_memalign;
	if (!n.aligned_alloc)
		n.aligned_alloc = aligned_alloc_from_memalign;
	if (!n.valloc)
		n.valloc = valloc_from_memalign;
	if (!n.pvalloc)
		n.pvalloc = pvalloc_from_memalign;
	n.cxx_new = (void *(*)(size_t))dl_next_definition(self, "_Znwm", NULL);
	n.cxx_new_aligned =
	    (void *(*)(size_t, size_t))dl_next_definition(self, "_ZnwmSt11align_val_t", NULL);
	/* Every thread that gets here writes the same values; the flag goes
	 * last, so a reader that sees it sees them. */
	next_alloc.malloc = n.malloc;
	next_alloc.free = n.free;
	next_alloc.calloc = n.calloc;
	next_alloc.realloc = n.realloc;
	next_alloc.memalign = n.memalign;
	next_alloc.posix_memalign = n.posix_memalign;
	next_alloc.aligned_alloc = n.aligned_alloc;
	next_alloc.valloc = n.valloc;
	next_alloc.pvalloc = n.pvalloc;
	next_alloc.usable_size = n.usable_size;
	next_alloc.cxx_new = n.cxx_new;
	next_alloc.cxx_new_aligned = n.cxx_new_aligned;
	next_alloc.name = n.name;
	next_alloc.own = n.own;
	__atomic_store_n(&next_alloc.resolved, 1, __ATOMIC_RELEASE);
}

void *next_symbol(void **cache, const char *name)
{
	void *f = __atomic_load_n(cache, __ATOMIC_ACQUIRE);
	if (!f) {
		f = dl_next_definition((void *)&next_symbol, name, NULL);
		__atomic_store_n(cache, f ? f : (void *)-1, __ATOMIC_RELEASE);
	}
	return f == (void *)-1 ? NULL : f;
}

int next_alloc_is_libc(void)
{
	static int is_libc = -1;
	int v = __atomic_load_n(&is_libc, __ATOMIC_RELAXED);
	if (v < 0) {
		v = dl_object_of((const void *)next()->malloc) == dl_libc_object();
		__atomic_store_n(&is_libc, v, __ATOMIC_RELAXED);
	}
	return v;
}

const char *next_alloc_shadowed_by(void)
{
	const struct link_map *bound = NULL;
	if (!dl_first_definition("malloc", &bound) || !bound)
		return NULL;
	if (bound == dl_object_of((void *)&next_alloc_resolve))
		return NULL;
	return bound->l_name && bound->l_name[0] ? bound->l_name : "";
}
