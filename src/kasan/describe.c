/* Describing an address outside a report, for ASan's public interface
 * (__asan_describe_address, __asan_locate_address, the allocation and free
 * stacks): the record a report would fill, by the mode's describe, and the
 * part of the report that prints it, without a title, a stack or an
 * access. */
#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../report/report.h"
#include "kasan.h"
#include "mode.h"
#include "shared.h"
#include "report.h"
#include "asan_interface.h"

int kasan_describe(uintptr_t addr, struct kasan_report_info *r)
{
	rt_memset(r, 0, sizeof(*r));
	if (!kasan_enabled || !kasan_ops)
		return 0;
	r->kind = REPORT_ACCESS;
	r->addr = addr;
	r->size = 1;
	r->first_bad = kasan_ops->first_bad(addr, 1);
	os_task_name(r->comm);
	r->tid = os_tid();
	kasan_ops->describe(r);
	r->granule = kasan_ops->row_granule;
	r->has_memory = kasan_ops->has_metadata(r->first_bad);
	if (r->has_memory) {
		uintptr_t row_bytes = 16 * (uintptr_t)r->granule;
		uintptr_t row = ALIGN_DOWN(r->first_bad, row_bytes) - 2 * row_bytes;
		for (int i = 0; i < REPORT_ROWS; i++, row += row_bytes) {
			r->rows[i].addr = row;
			r->rows[i].valid = kasan_ops->fetch_row(row, r->rows[i].bytes);
		}
	}
	return 1;
}

/* Big for a thread's stack in a deep call: one, under the report lock. */
static struct kasan_report_info described;

static struct kasan_track track_of(const struct report_track *t)
{
	return (struct kasan_track){t->present, t->tid, t->stack};
}

int kasan_place_of(uintptr_t addr, struct kasan_place *p)
{
	rt_memset(p, 0, sizeof(*p));
	if (!kasan_enabled || !kasan_ops)
		return 0;
	/* On this thread's stack, as the caller's own would be: no lock. */
	struct kasan_report_info rec, *r = &rec;
	kasan_describe(addr, r);
	if (r->where == WHERE_HEAP) {
		p->region = KASAN_REGION_HEAP;
		p->start = r->object.start;
		p->size = r->object.size;
		p->freed = r->object.freed;
		p->alloc = track_of(&r->object.alloc);
		p->free = track_of(&r->object.free);
	} else if (r->where == WHERE_STACK) {
		p->region = KASAN_REGION_STACK;
		const char *d = r->frame.objects;
		unsigned long n;
		struct frame_object o;
		/* The variable of the frame that holds addr, by its offset. */
		if (r->frame.known && *d && frame_count(&d, &n))
			for (unsigned long i = 0; i < n && frame_object_next(&d, &o); i++)
				if (r->frame.offset >= o.beg && r->frame.offset < o.end) {
					fmt_buf(p->name, sizeof(p->name), "%s", o.name);
					p->start = addr - r->frame.offset + o.beg;
					p->size = o.end - o.beg;
				}
	} else if (r->where != WHERE_NONE) {
		p->region = KASAN_REGION_OTHER;
	}
	return 1;
}

void kasan_print_description(uintptr_t addr)
{
	report_begin();
	struct kasan_report_info *r = &described;
	kasan_describe(addr, r);
	report_printf("Address %016lx:\n", (unsigned long)addr);
	if (r->where == WHERE_NONE)
		report_printf(" is in no heap object, global variable or stack frame that KASAN "
		              "knows of\n\n");
	if (kasan_enabled && kasan_ops)
		kasan_print_where(r);
	report_end();
}

/* ASan's __asan_update_allocation_context: the live object that holds addr
 * gets this stack and thread as its allocation's. */
int kasan_update_alloc_context(uintptr_t addr)
{
	if (!kasan_enabled || !kasan_ops)
		return 0;
	report_hold();
	struct kasan_report_info *r = &described;
	kasan_describe(addr, r);
	struct chunk *c = NULL;
	if (r->where == WHERE_HEAP && !r->object.freed)
		c = kasan_ops->chunk_of(r->object.start);
	report_release();
	if (!c)
		return 0;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = opt.kasan_stacktrace ? stack_capture(pcs, STACK_MAX_FRAMES) : 0;
	c->alloc_stack = depot_save(pcs, n);
	c->alloc_tid = (uint32_t)os_tid();
	return 1;
}

/* The heap's counters, for ASan's allocator statistics. */
void kasan_heap_counts(size_t *live, size_t *quarantined, size_t *free_pool)
{
	*live = heap_stats.live_bytes;
	*quarantined = heap_stats.quarantined_bytes;
	*free_pool = large_pool_bytes();
}
