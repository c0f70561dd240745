/* The tag-based modes' part of reports (the kernel's report_tags.c and
 * report_{sw,hw}_tags.c): the stack ring says whether a bad access is a
 * use after free or out of bounds, which object it concerns, and who
 * allocated and freed it; the memory's tags are shown around the address.
 *
 * The kernel finds the object from the slab the address is in. Here small
 * objects live among glibc's chunks, so the object is found in the ring
 * itself: among the entries with the pointer's tag, the one whose object
 * holds the address, or else the nearest one. */
#include "../base/common.h"
#include "../config/log.h"
#include "../shadow/shadow.h"
#include "kasan.h"
#include "object.h"
#include "report.h"
#include "tags.h"

struct search {
	uintptr_t addr; /* untagged */
	uint8_t tag;
	/* Pass 1: the object. */
	uintptr_t obj;
	size_t size, dist;
	int found;
	/* Pass 2: its newest alloc and free entries. */
	struct ring_entry alloc, free;
	int alloc_found, free_found, free_first;
};

static int find_object(const struct ring_entry *e, void *arg)
{
	struct search *s = arg;
	if (ptr_tag(e->ptr) != s->tag)
		return 0;
	uintptr_t o = untag(e->ptr);
	size_t len = e->size ? e->size : 1;
	size_t d = s->addr < o ? o - s->addr : s->addr >= o + len ? s->addr - (o + len) + 1 : 0;
	if (!s->found || d < s->dist) {
		s->found = 1;
		s->obj = o;
		s->size = e->size;
		s->dist = d;
	}
	return d == 0;
}

/* An address far from every object with the pointer's tag is not theirs:
 * their records were overwritten, or the pointer is wild. */
static size_t max_distance(size_t size)
{
	return size > 4096 ? size : 4096;
}

/* As the kernel's kasan_complete_mode_report_info: the newest entries of
 * the object under this tag; whichever kind comes first names the bug. */
static int find_tracks(const struct ring_entry *e, void *arg)
{
	struct search *s = arg;
	if (untag(e->ptr) != s->obj || ptr_tag(e->ptr) != s->tag || e->size != s->size)
		return 0;
	if (e->is_free) {
		if (s->free_found)
			return 1;
		s->free = *e;
		s->free_found = 1;
		if (!s->alloc_found)
			s->free_first = 1;
	} else {
		if (s->alloc_found)
			return 1;
		s->alloc = *e;
		s->alloc_found = 1;
	}
	return s->alloc_found && s->free_found;
}

static void search(uintptr_t addr, struct search *s)
{
	*s = (struct search){.addr = untag(addr), .tag = ptr_tag(addr)};
	tags_ring_walk(find_object, s);
	if (s->found && s->dist > max_distance(s->size))
		s->found = 0;
	if (s->found)
		tags_ring_walk(find_tracks, s);
}

const char *tags_bug_type(uintptr_t addr, size_t size)
{
	struct search s;
	search(addr, &s);
	/* Large objects' use after free is generic mode's "use-after-free". */
	if (s.alloc_found || s.free_found)
		return !s.free_first       ? "slab-out-of-bounds"
		       : large_owns(s.obj) ? "use-after-free"
		                           : "slab-use-after-free";
	return addr + size < addr ? "out-of-bounds" : "invalid-access";
}

void tags_print_tags(uintptr_t addr, uintptr_t bad)
{
	report_printf("Pointer tag: [%02x], memory tag: [%02x]\n", ptr_tag(addr),
	              tag_backend->get_raw(bad));
}

static void print_track(const char *what, const struct ring_entry *e)
{
	kasan_print_track(what, e->tid, e->stack);
}

void tags_describe(uintptr_t addr)
{
	struct search s;
	search(addr, &s);
	if (!s.alloc_found && !s.free_found) {
		/* No record under the pointer's tag (a stale or forged tag): the
		 * object the address starts, if one does, from its header. */
		const struct chunk *c = tags_object_at(untag(addr));
		if (!c)
			return;
		kasan_print_track("Allocated", c->alloc_tid, c->alloc_stack);
		kasan_describe_object(untag(addr), chunk_object(c), chunk_size(c), c->api,
		                      (c->state & CHUNK_LARGE) != 0, 0);
		report_printf("\n");
		return;
	}
	if (s.alloc_found)
		print_track("Allocated", &s.alloc);
	if (s.free_found)
		print_track("Freed", &s.free);
	const struct ring_entry *e = s.alloc_found ? &s.alloc : &s.free;
	kasan_describe_object(untag(addr), s.obj, s.size, e->api, large_owns(s.obj), s.free_first);
	report_printf("\n");
}

/* The kernel's memory state, one tag per granule: 16 granules (256 bytes)
 * a row, two rows either side of the first bad granule's. */
#define ROW_GRANULES 16
#define ROW_BYTES    (ROW_GRANULES * TAG_GRANULE_SIZE)

void tags_print_memory_state(uintptr_t bad)
{
	bad = untag(bad);
	uintptr_t row = ALIGN_DOWN(bad, ROW_BYTES) - 2 * ROW_BYTES;
	report_printf("Memory state around the buggy address:\n");
	for (int i = -2; i <= 2; i++, row += ROW_BYTES) {
		report_printf("%c%016lx:", i ? ' ' : '>', (unsigned long)row);
		for (int g = 0; g < ROW_GRANULES; g++)
			report_printf(" %02x",
			              tag_backend->get_raw(row + (uintptr_t)g * TAG_GRANULE_SIZE));
		report_printf("\n");
		if (!i) {
			char mark[20 + 3 * ROW_GRANULES];
			int col = 19 + 3 * (int)((bad - row) / TAG_GRANULE_SIZE);
			rt_memset(mark, ' ', (size_t)col);
			mark[col] = '^';
			mark[col + 1] = 0;
			report_printf("%s\n", mark);
		}
	}
}
