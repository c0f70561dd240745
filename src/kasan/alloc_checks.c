/* The allocator's checks of what a program asks of it, which the kernel's
 * slab allocator has no names for since its callers cannot get them wrong
 * in these ways: ASan's classes, under ASan's names. A free must name the
 * family that allocated (free, delete, delete[]), and a sized or aligned
 * delete the object's size and alignment; an allocation request must be
 * one an allocator can meet (calloc's product, the size limit, the
 * alignment). ASan reports and aborts; here, as after every KASAN report,
 * the program runs on: the free proceeds as the allocating family's would,
 * the refused request fails as glibc's does (NULL and errno), and the run
 * ends with ukasan.exitcode. allocator_may_return_null=1 refuses without a
 * report, as ASan's. */
#define _GNU_SOURCE
#include <errno.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kfence/kfence.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "shared.h"

/* ASan's kMaxAllowedMallocSize on 64-bit Linux. */
#define MAX_ALLOCATION (1ul << 40)

size_t kasan_max_allocation = MAX_ALLOCATION;

void kasan_alloc_checks_init(void)
{
	unsigned long mb = opt.max_allocation_size_mb;
	if (mb && (mb << 20) < MAX_ALLOCATION)
		kasan_max_allocation = mb << 20;
}

/* ASan's names for the families, as its reports print them. */
static const char *alloc_name(int api)
{
	return api == API_NEW         ? "operator new"
	       : api == API_NEW_ARRAY ? "operator new []"
	                              : "malloc";
}

static const char *free_name(int api)
{
	return api == API_NEW         ? "operator delete"
	       : api == API_NEW_ARRAY ? "operator delete []"
	                              : "free";
}

static int family(int api)
{
	return api == API_NEW || api == API_NEW_ARRAY ? api : API_MALLOC;
}

static void print_align(char *buf, size_t cap, unsigned code)
{
	if (code)
		fmt_buf(buf, cap, "%lu bytes", 1ul << (code - 1));
	else
		fmt_buf(buf, cap, "default-aligned");
}

/* Once the free has retired the object (a freed or foreign pointer was
 * the free's to report): its header says what allocated it. */
static __attribute__((noinline)) void check_free(uintptr_t p, const struct chunk *c, int api,
                                                 size_t size, size_t align)
{
	int have = family(CHUNK_API(c->api));
	char detail[192];
	if (have != api) {
		if (!opt.alloc_dealloc_mismatch)
			return;
		fmt_buf(detail, sizeof(detail), "Allocated by %s, freed by %s", alloc_name(have),
		        free_name(api));
		kasan_report_free_detail(p, "alloc-dealloc-mismatch", detail);
		return;
	}
	if (api == API_MALLOC || !opt.new_delete_type_mismatch)
		return;
	size_t object_size = chunk_size(c);
	unsigned code = CHUNK_ALIGN_CODE(c->api), want = chunk_align_code(align);
	if (size && size != object_size) {
		fmt_buf(detail, sizeof(detail),
		        "Object passed to %s has wrong type: size of the allocated type %zu bytes, "
		        "of the deallocated type %zu bytes",
		        free_name(api), object_size, size);
	} else if (code != want) {
		char a[32], d[32];
		print_align(a, sizeof(a), code);
		print_align(d, sizeof(d), want);
		fmt_buf(detail, sizeof(detail),
		        "Object passed to %s has wrong type: alignment of the allocated type %s, "
		        "of the deallocated type %s",
		        free_name(api), a, d);
	} else {
		return;
	}
	kasan_report_free_detail(p, "new-delete-type-mismatch", detail);
}

/* api: API_MALLOC (free, realloc), API_NEW or API_NEW_ARRAY (delete,
 * delete[]); size and align: what a sized or aligned delete passed, else
 * 0. The free goes on after a report: the object is the allocator's
 * whichever family frees it. */
void kasan_free_as(void *p, int api, size_t size, size_t align)
{
	kasan_free_chunk(p, NULL, api, size, align);
}

/* c: the object's header when the caller found it already (realloc). */
void kasan_free_chunk(void *p, struct chunk *c, int api, size_t size, size_t align)
{
	c = kasan_ops->retire((uintptr_t)p, c);
	if (!c)
		return;
	/* The common case decided inline: free of malloc's, delete of new's. */
	if (unlikely(family(CHUNK_API(c->api)) != api ||
	             (api != API_MALLOC && (size | align | CHUNK_ALIGN_CODE(c->api)))) &&
	    (opt.alloc_dealloc_mismatch | opt.new_delete_type_mismatch))
		check_free((uintptr_t)p, c, api, size, align);
	kasan_ops->free(c, (uintptr_t)p);
}

/* What a refused request returns: ASan's allocator_may_return_null=0
 * reports first. */
static void refuse(const char *type, const char *detail, int err)
{
	if (!opt.allocator_may_return_null)
		kasan_report_alloc(type, detail);
	errno = err;
}

void kasan_refuse_size(size_t size)
{
	char d[160];
	fmt_buf(d, sizeof(d), "%zu bytes (0x%zx), more than the maximum supported size 0x%zx", size,
	        size, kasan_max_allocation);
	refuse("allocation-size-too-big", d, ENOMEM);
}

void kasan_refuse_count(const char *type, size_t n, size_t size)
{
	char d[160];
	fmt_buf(d, sizeof(d), "%zu elements of %zu bytes, a size that overflows", n, size);
	refuse(type, d, ENOMEM);
}

void kasan_refuse_pvalloc(size_t size)
{
	char d[160];
	fmt_buf(d, sizeof(d),
	        "pvalloc of %zu bytes (0x%zx), a size that overflows when rounded up to pages",
	        size, size);
	refuse("pvalloc-overflow", d, ENOMEM);
}

void kasan_refuse_alignment(const char *type, const char *what, size_t align)
{
	char d[160];
	fmt_buf(d, sizeof(d), "alignment %zu (0x%zx), which %s does not accept", align, align,
	        what);
	refuse(type, d, EINVAL);
}
