/* Built with ukasan-cc by check_leaks_pid.py: the generic heap's layout
 * that the runtime exports for `ukasan leaks PID` (base/leak_remote.h)
 * must be the real structures' (kasan/shared.h, kasan/large.h), so that a
 * change of a header changes what the tool reads with it. Prints "layout
 * ok", or each field that differs. */
#include <stddef.h>
#include <stdio.h>

#include "../../src/base/leak_remote.h"
#include "../../src/kasan/generic_shadow.h"
#include "../../src/kasan/large.h"
#include "../../src/kasan/shared.h"

extern struct leak_remote __ukasan_leak_remote;

static int bad;

#define SAME(field, want)                                                                          \
	do {                                                                                       \
		unsigned long got_ = (unsigned long)g->field, want_ = (unsigned long)(want);       \
		if (got_ != want_) {                                                               \
			printf("%s: exported %lu, the structure's %lu\n", #field, got_, want_);    \
			bad = 1;                                                                   \
		}                                                                                  \
	} while (0)

int main(void)
{
	const struct leak_remote *d = &__ukasan_leak_remote;
	const struct leak_remote_generic *g = &d->generic;
	if (d->magic != LEAK_REMOTE_MAGIC || d->version != LEAK_REMOTE_VERSION ||
	    d->size != sizeof(*d) || !(d->heaps & LEAK_REMOTE_GENERIC)) {
		printf("no generic block (version %u, heaps %u)\n", d->version, d->heaps);
		return 1;
	}
	SAME(header_size, sizeof(struct chunk));
	SAME(stack_off, offsetof(struct chunk, alloc_stack));
	SAME(tid_off, offsetof(struct chunk, alloc_tid));
	SAME(size_off, offsetof(struct chunk, size));
	SAME(state_off, offsetof(struct chunk, state));
	SAME(live, CHUNK_LIVE);
	SAME(large, CHUNK_LARGE);
	SAME(flags_shift, CHUNK_TID_FLAGS_SHIFT);
	SAME(tid_mask, CHUNK_TID_MASK);
	SAME(max_small, GENERIC_SMALL_MAX);
	SAME(shadow_offset, SHADOW_OFFSET);
	SAME(shadow_scale, SHADOW_SCALE);
	SAME(slab_redzone, SHADOW_SLAB_REDZONE);
	SAME(region_size, sizeof(struct region));
	SAME(region_base_off, offsetof(struct region, base));
	SAME(region_len_off, offsetof(struct region, len));
	SAME(region_meta_off, offsetof(struct region, meta));
	SAME(meta_size, sizeof(struct large_meta));
	SAME(meta_chunk_off, offsetof(struct large_meta, c));
	SAME(meta_obj_off, offsetof(struct large_meta, obj));
	SAME(meta_size_off, offsetof(struct large_meta, size));
	SAME(meta_pages_off, offsetof(struct large_meta, pages));
	SAME(meta_flags_off, offsetof(struct large_meta, flags));
	SAME(meta_free, LARGE_FREE);
	SAME(max_regions, MAX_REGIONS);
	printf(bad ? "layout differs\n" : "layout ok\n");
	return bad;
}
