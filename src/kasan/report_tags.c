/* The tag-based modes' part of reports (the kernel's report_tags.c and
 * report_{sw,hw}_tags.c): the stack ring says whether a bad access is a
 * use after free or out of bounds, which object it concerns, and who
 * allocated and freed it; the memory's tags are shown around the address.
 *
 * The kernel finds the object from the slab the address is in. Here small
 * objects live among glibc's chunks, so the object is found in the ring
 * itself: among the entries with the pointer's tag, the one whose object
 * holds the address, or else the nearest one (for a free, the live object
 * starting at the address comes before a nearer one). */
#include "../base/compiler.h"
#include "../config/log.h"
#include "../shadow/shadow.h"
#include "shared.h"
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

const char *tags_bug_type(uintptr_t addr, size_t size, uintptr_t bad)
{
	(void)bad;
	struct search s;
	search(addr, &s);
	/* Large objects' use after free is generic mode's "use-after-free". */
	if (s.alloc_found || s.free_found)
		return !s.free_first       ? "slab-out-of-bounds"
		       : large_owns(s.obj) ? "use-after-free"
		                           : "slab-use-after-free";
	return addr + size < addr ? "out-of-bounds" : "invalid-access";
}

int tags_has_metadata(uintptr_t addr)
{
	(void)addr;
	return 1;
}

static void set_track(struct report_track *t, const struct ring_entry *e)
{
	*t = (struct report_track){1, e->tid, e->stack};
}

void tags_describe(struct kasan_report_info *r)
{
	uintptr_t addr = r->addr;
	r->has_tags = 1;
	r->ptr_tag = ptr_tag(addr);
	r->mem_tag = tag_backend->get_raw(r->first_bad);
	struct search s;
	search(addr, &s);
	/* An access past an object lands on its neighbour, so the ring's
	 * nearest object under the pointer's tag is the one it strayed from;
	 * a free is given an object's own address, so a live object starting
	 * there is the one it concerns, whatever the ring holds nearby. */
	int own = r->kind == REPORT_FREE && s.found && s.dist && tags_object_at(untag(addr));
	if ((!s.alloc_found && !s.free_found) || own) {
		/* No record under the pointer's tag (a stale or forged tag): the
		 * object the address starts, if one does, from its header. */
		const struct chunk *c = tags_object_at(untag(addr));
		if (!c)
			return;
		r->where = WHERE_HEAP;
		r->object.alloc =
		    (struct report_track){1, c->alloc_tid & CHUNK_TID_MASK, c->alloc_stack};
		r->object.start = chunk_object(c);
		r->object.size = chunk_size(c);
		r->object.api = c->api;
		r->object.large = (c->state & CHUNK_LARGE) != 0;
		return;
	}
	r->where = WHERE_HEAP;
	if (s.alloc_found)
		set_track(&r->object.alloc, &s.alloc);
	if (s.free_found)
		set_track(&r->object.free, &s.free);
	const struct ring_entry *e = s.alloc_found ? &s.alloc : &s.free;
	r->object.start = s.obj;
	r->object.size = s.size;
	r->object.api = e->api;
	r->object.large = large_owns(s.obj);
	r->object.freed = s.free_first;
}

/* The kernel's memory state, one tag per granule. */
int tags_fetch_row(uintptr_t row, uint8_t out[16])
{
	for (int g = 0; g < 16; g++)
		out[g] = tag_backend->get_raw(row + (uintptr_t)g * TAG_GRANULE_SIZE);
	return 1;
}
