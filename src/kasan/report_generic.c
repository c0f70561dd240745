/* The generic mode's part of reports (mm/kasan/report_generic.c): the
 * shadow says what kind of bug an access is, where the first bad byte is,
 * which object, variable or stack frame an address is in, and what the
 * memory around it is. */
#include "../base/compiler.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "../symbolize/symbolize.h"
#include "generic.h"
#include "kasan.h"
#include "shared.h"
#include "report.h"

int generic_has_metadata(uintptr_t addr)
{
	return shadow_covers(addr);
}

uintptr_t generic_first_bad(uintptr_t addr, size_t size)
{
	if (!shadow_covers(addr))
		return addr;
	for (uintptr_t a = addr; a < addr + size; a++) {
		int8_t s = *shadow_of(a);
		if (s && (int8_t)(a & (GRANULE - 1)) >= s)
			return a;
	}
	return addr;
}

const char *generic_bug_type(uintptr_t addr, size_t size, uintptr_t bad)
{
	if (addr + size < addr)
		return "out-of-bounds";
	if (!shadow_covers(addr))
		return addr < 4096 ? "null-ptr-deref" : "wild-memory-access";
	uint8_t s = (uint8_t)*shadow_of(bad);
	if (s > 0 && s < GRANULE)
		s = (uint8_t)*shadow_of(bad + GRANULE);
	switch (s) {
	case SHADOW_PAGE_REDZONE:
	case SHADOW_SLAB_REDZONE:
		return "slab-out-of-bounds";
	case SHADOW_GLOBAL_REDZONE:
		return "global-out-of-bounds";
	case SHADOW_STACK_LEFT:
	case SHADOW_STACK_MID:
	case SHADOW_STACK_RIGHT:
	case SHADOW_STACK_PARTIAL:
		return "stack-out-of-bounds";
	case SHADOW_PAGE_FREE:
		return "use-after-free";
	case SHADOW_SLAB_FREE:
	case SHADOW_SLAB_FREETRACK:
		return "slab-use-after-free";
	case SHADOW_ALLOCA_LEFT:
	case SHADOW_ALLOCA_RIGHT:
		return "alloca-out-of-bounds";
	case SHADOW_STACK_AFTER_SCOPE: /* ASan's names: the kernel has no such types */
		return "stack-use-after-scope";
	case SHADOW_STACK_AFTER_RETURN:
		return "stack-use-after-return";
	case SHADOW_USER_POISON:
		return "use-after-poison";
	case SHADOW_NULL_PAGE:
		return "null-ptr-deref";
	case SHADOW_CONTAINER: /* ASan's name: the kernel has no containers */
		return "container-overflow";
	case SHADOW_INIT_ORDER: /* ASan's name: the kernel has no C++ initialisers */
		return "initialization-order-fiasco";
	case SHADOW_ARRAY_COOKIE: /* inside the allocation, but never the program's */
		return "slab-out-of-bounds";
	default:
		return "unknown-crash";
	}
}

static void describe_chunk(struct kasan_report_info *r, const struct chunk *c)
{
	int freed = (c->state & ~CHUNK_LARGE) == CHUNK_QUARANTINED;
	r->where = WHERE_HEAP;
	r->object.alloc = (struct report_track){1, c->alloc_tid & CHUNK_TID_MASK, c->alloc_stack};
	if (freed) {
		const struct free_meta *fm = chunk_free_meta(c);
		r->object.free = (struct report_track){1, fm->free_tid, fm->free_stack};
	}
	r->object.start = chunk_object(c);
	r->object.size = chunk_size(c);
	r->object.api = c->api;
	r->object.large = (c->state & CHUNK_LARGE) != 0;
	r->object.freed = freed;
}

static void describe_global(struct kasan_report_info *r, const struct asan_global *g)
{
	r->where = WHERE_GLOBAL;
	r->global.name = g->name;
	r->global.beg = g->beg;
	r->global.size_with_redzone = g->size_with_redzone;
	r->global.file = g->location ? g->location->file : NULL;
	r->global.line = g->location ? g->location->line : 0;
}

/* The frame at base (the compiler's magic, the address of its description,
 * its function's pc), in a thread's real or fake stack. */
static void describe_frame(struct kasan_report_info *r, const uintptr_t *base)
{
	r->where = WHERE_STACK;
	if (!base)
		return;
	r->frame.known = 1;
	r->frame.offset = r->addr - (uintptr_t)base;
	sym_function(base[2], 1, r->frame.function, sizeof(r->frame.function));
	/* The description is the compiler's, but the pointer to it sits in the
	 * frame, where a bug under the first object may have written. */
	size_t got = base[1] ? os_copy_readable(r->frame.objects, (const void *)base[1],
	                                        sizeof(r->frame.objects) - 1)
	                     : 0;
	r->frame.objects[got] = 0;
}

/* The frame addr is in, if it is on this thread's stack: its base is the
 * word under the frame's left redzone (shadow F1). */
static int describe_stack(struct kasan_report_info *r)
{
	uintptr_t lo, hi, addr = r->addr;
	if (stack_bounds(&lo, &hi) != 0 || addr < lo || addr >= hi)
		return 0;
	const int8_t *sp = shadow_of(addr), *bottom = shadow_of(lo);
	while (sp >= bottom && (uint8_t)*sp != SHADOW_STACK_LEFT)
		sp--;
	while (sp >= bottom && (uint8_t)*sp == SHADOW_STACK_LEFT)
		sp--;
	const uintptr_t *frame = (const uintptr_t *)shadow_to_mem(sp + 1);
	if (sp < bottom || (uintptr_t)frame < lo || frame[0] != FRAME_MAGIC)
		frame = NULL;
	rt_memcpy(r->frame.comm, r->comm, sizeof(r->comm));
	r->frame.tid = r->tid;
	describe_frame(r, frame);
	return 1;
}

static int program_poison(uint8_t s)
{
	return s == SHADOW_USER_POISON || s == SHADOW_CONTAINER || s == SHADOW_ARRAY_COOKIE;
}

/* What the program poisoned inside a live object (a container's spare
 * capacity, an array cookie, its own annotations) is still the object's,
 * though the allocator's walk to an object's start stops there: walk left
 * over it and the object's accessible bytes to the left redzone. */
static const struct chunk *find_annotated_chunk(uintptr_t addr)
{
	if (!shadow_covers(addr) || !program_poison((uint8_t)*shadow_of(addr)))
		return NULL;
	uintptr_t a = ALIGN_DOWN(addr, GRANULE);
	for (size_t walked = 0; walked < (1ul << 32) && shadow_covers(a - GRANULE);
	     walked += GRANULE, a -= GRANULE) {
		uint8_t s = (uint8_t)*shadow_of(a - GRANULE);
		if (s == SHADOW_SLAB_REDZONE || s == SHADOW_PAGE_REDZONE)
			return generic_chunk_of(a);
		if (s >= 0x80 && !program_poison(s))
			return NULL;
	}
	return NULL;
}

/* What the address belongs to: a heap object, a global or a stack frame. */
void generic_describe(struct kasan_report_info *r)
{
	uintptr_t addr = r->addr, bad = r->first_bad;
	const struct chunk *c = generic_has_metadata(addr) ? generic_find_chunk(bad) : NULL;
	if (!c && generic_has_metadata(addr))
		c = find_annotated_chunk(bad);
	const struct asan_global *g = c ? NULL : generic_find_global(bad);
	const uintptr_t *base;
	if (c)
		describe_chunk(r, c);
	else if (g)
		describe_global(r, g);
	else if (generic_has_metadata(addr) && !describe_stack(r) &&
	         kasan_find_fake_frame(addr, r->frame.comm, &r->frame.tid, &base))
		describe_frame(r, base);
}

/* 16 shadow bytes a row; rows the shadow does not cover are left out. */
int generic_fetch_row(uintptr_t row, uint8_t out[16])
{
	const uintptr_t row_bytes = 16 * GRANULE;
	if (!shadow_covers(row) || !shadow_covers(row + row_bytes - 1))
		return 0;
	rt_memcpy(out, shadow_of(row), 16);
	return 1;
}
