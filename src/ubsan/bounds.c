/* Array bounds, as the kernel's CONFIG_UBSAN_BOUNDS: clang checks every
 * index into an array whose size it knows, in its front end, before any
 * optimisation (ukasan-cc asks for -fsanitize=array-bounds). At -O2 clang
 * deletes an access out of a local array whose index it can compute, as
 * undefined behaviour, before the address checks are added; this check
 * comes first, so the index is caught at every level. GCC keeps such
 * accesses when use-after-scope is on, and needs none of this.
 *
 * The report is the kernel's (lib/ubsan.c), once per source location. */
#include <signal.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../platform/os.h"
#include "../report/dump.h"
#include "../report/frames.h"
#include "../report/report.h"
#include "../stack/stack.h"

/* The compiler's descriptions, as UBSan's ABI has them. */
struct source_location {
	const char *file;
	uint32_t line, column;
};

struct type_descriptor {
	uint16_t kind; /* 0: an integer */
	uint16_t info; /* integers: log2(bits) << 1 | signed */
	char name[];
};

struct out_of_bounds_data {
	struct source_location loc;
	const struct type_descriptor *array_type, *index_type;
};

#define REPORTED (1u << 31) /* in line: the location has been reported */

static int reported_before(struct source_location *loc)
{
	return __atomic_fetch_or(&loc->line, REPORTED, __ATOMIC_RELAXED) & REPORTED;
}

/* An index fits in a word on 64-bit machines; wider ones come by address. */
static void index_text(char *buf, size_t cap, const struct type_descriptor *t, uintptr_t v)
{
	unsigned bits = 1u << (t->info >> 1);
	if (t->kind != 0) {
		fmt_buf(buf, cap, "<unknown>");
		return;
	}
	if (bits > 64)
		v = *(const uintptr_t *)v; /* the low word, on little-endian */
	if (bits < 64 && (t->info & 1) && (v >> (bits - 1)) & 1)
		v |= ~(uintptr_t)0 << bits;
	if (t->info & 1)
		fmt_buf(buf, cap, "%ld", (long)v);
	else
		fmt_buf(buf, cap, "%lu", (unsigned long)v);
}

/* The kernel's text (lib/ubsan.c's), then the report service's end
 * (report_finish), with a record of no address: the index and the type in
 * its words. die: built without recovery, the run ends. */
static void report_out_of_bounds(struct out_of_bounds_data *d, uintptr_t index, int die)
{
	if (reported_before(&d->loc)) {
		if (die)
			report_end_run();
		return;
	}
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture(pcs, STACK_MAX_FRAMES);
	char idx[32], comm[16], detail[256];
	index_text(idx, sizeof(idx), d->index_type, index);
	report_begin_bug();
	report_printf("------------[ cut here ]------------\n");
	report_printf("UBSAN: array-index-out-of-bounds in %s:%u:%u\n", d->loc.file,
	              d->loc.line & ~REPORTED, d->loc.column);
	report_printf("index %s is out of range for type %s\n", idx, d->array_type->name);
	/* UBSan's own line for the same bug, which ClusterFuzz's parser
	 * reads (the kernel's words above it knows not). */
	if (report_asan_wanted(1)) {
		report_printf("%s:%u:%u: runtime error: index %s out of bounds for type %s\n",
		              d->loc.file, d->loc.line & ~REPORTED, d->loc.column, idx,
		              d->array_type->name);
		if (report_sanitizer_stack_needed(pcs, n, 0))
			report_sanitizer_stack(pcs, n, 0);
	}
	dump_this_task();
	dump_trace(pcs, n, 0);
	report_printf("---[ end trace ]---\n");

	struct report_record rec;
	rt_memset(&rec, 0, sizeof(rec));
	os_task_name(comm);
	fmt_buf(detail, sizeof(detail), "index %s is out of range for type %s", idx,
	        d->array_type->name);
	rec.tool = "UBSAN";
	rec.bug_type = "array-index-out-of-bounds";
	rec.write = -1;
	rec.stacks[REPORT_STACK_ACCESS].pcs = pcs;
	rec.stacks[REPORT_STACK_ACCESS].n = n;
	rec.tid = os_tid();
	rec.comm = comm;
	rec.detail = detail;
	rec.action = die ? REPORT_DIE : REPORT_GO_ON;
	report_finish(&rec);
}

UKASAN_EXPORT void __ubsan_handle_out_of_bounds(struct out_of_bounds_data *d, uintptr_t index)
{
	report_out_of_bounds(d, index, 0);
}

/* Built without recovery (UKASAN_RECOVER=0): the program ends, as after a
 * KASAN report there. */
UKASAN_EXPORT void __ubsan_handle_out_of_bounds_abort(struct out_of_bounds_data *d, uintptr_t index)
{
	report_out_of_bounds(d, index, 1);
}
