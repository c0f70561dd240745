/* Object headers, as every mode's allocator writes and reports read them. */
#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "shared.h"

struct heap_stats heap_stats;
__thread int chunk_leaks_ignored __attribute__((tls_model("initial-exec")));

size_t chunk_size(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return ((const struct large_meta *)c)->size;
	return c->size;
}

struct free_meta *chunk_free_meta(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return &((struct large_meta *)c)->fm;
	size_t size = chunk_size(c);
	uintptr_t obj = chunk_object(c);
	return (struct free_meta *)(size >= sizeof(struct free_meta) ? obj
	                                                             : ALIGN_UP(obj + size, 8));
}

static depot_handle_t this_stack(void)
{
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = opt.kasan_stacktrace ? stack_capture_fast(pcs, STACK_MAX_FRAMES) : 0;
	return depot_save(pcs, n);
}

void chunk_fill(struct chunk *c, size_t size, int api, uint8_t large, uint16_t offset)
{
	c->alloc_stack = this_stack();
	c->alloc_tid = (uint32_t)os_tid() | (chunk_leaks_ignored ? CHUNK_TID_IGNORED : 0);
	c->size = (uint32_t)size;
	c->api = (uint8_t)api;
	c->offset = offset;
	__atomic_store_n(&c->state, CHUNK_LIVE | large, __ATOMIC_RELEASE);
}

void chunk_fill_free(const struct chunk *c)
{
	struct free_meta *fm = chunk_free_meta(c);
	fm->free_stack = this_stack();
	fm->free_tid = (uint32_t)os_tid();
	fm->next = NULL;
}
