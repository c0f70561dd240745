/* The printer of the kernel's text (mm/kasan/report.c's print_report), from
 * the report record alone: a second printer reads the same record. */
#include <signal.h>
#include <string.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../config/log.h"
#include "../report/dump.h"
#include "../report/frames.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "../symbolize/symbolize.h"
#include "kasan.h"
#include "report.h"
#include "asan_interface.h"

#define RULE "==================================================================\n"

static const char *const cache_names[] = {"malloc",   "calloc", "realloc",
                                          "memalign", "new",    "new[]"};

static void print_track(const char *what, const struct report_track *t)
{
	const uintptr_t *pcs;
	int n = depot_fetch(t->stack, &pcs);
	report_printf("%s by task %u:\n", what, t->tid);
	if (n)
		report_stack(pcs, n, 0);
	else
		report_printf(" (stack is not available)\n");
	report_printf("\n");
}

static void print_object(const struct kasan_report_info *r)
{
	uintptr_t addr = r->has_tags ? untag(r->addr) : r->addr;
	uintptr_t obj = r->object.start;
	size_t size = r->object.size;
	if (r->object.alloc.present)
		print_track("Allocated", &r->object.alloc);
	if (r->object.free.present)
		print_track("Freed", &r->object.free);
	report_printf("The buggy address belongs to the object at %016lx\n", (unsigned long)obj);
	report_printf(" which belongs to the cache %s%s of size %zu\n",
	              cache_names[(r->object.api & 15) % 6], r->object.large ? "-large" : "", size);
	const char *rel = "inside";
	size_t bytes = addr - obj;
	if (addr < obj) {
		rel = "to the left";
		bytes = obj - addr;
	} else if (addr >= obj + size) {
		rel = "to the right";
		bytes = addr - (obj + size);
	}
	report_printf("The buggy address is located %zu bytes %s of\n", bytes, rel);
	report_printf(" %s %zu-byte region [%016lx, %016lx)\n\n",
	              r->object.freed ? "freed" : "allocated", size, (unsigned long)obj,
	              (unsigned long)(obj + size));
}

static void print_global(const struct kasan_report_info *r)
{
	report_printf("The buggy address belongs to the variable:\n");
	report_printf(" %s+0x%lx/0x%lx", r->global.name, (unsigned long)(r->addr - r->global.beg),
	              (unsigned long)r->global.size_with_redzone);
	if (r->global.file)
		report_printf(" %s:%d", r->global.file, r->global.line);
	report_printf("\n\n");
}

static void print_frame(const struct kasan_report_info *r)
{
	report_printf("The buggy address belongs to stack of task %s/%d\n", r->frame.comm,
	              r->frame.tid);
	if (!r->frame.known) {
		report_printf("\n");
		return;
	}
	report_printf(" and is located at offset %lu in frame:\n %s\n",
	              (unsigned long)r->frame.offset, r->frame.function);
	const char *d = r->frame.objects;
	unsigned long n;
	if (*d && frame_count(&d, &n)) {
		report_printf("\nThis frame has %lu %s:\n", n, n == 1 ? "object" : "objects");
		struct frame_object o;
		for (unsigned long i = 0; i < n && frame_object_next(&d, &o); i++)
			report_printf(" [%lu, %lu) '%s'\n", o.beg, o.end, o.name);
	}
	report_printf("\n");
}

static void print_memory(const struct kasan_report_info *r)
{
	report_printf("Memory state around the buggy address:\n");
	for (int i = 0; i < REPORT_ROWS; i++) {
		if (!r->rows[i].valid)
			continue;
		int here = i == REPORT_ROWS / 2;
		report_printf("%c%016lx:", here ? '>' : ' ', (unsigned long)r->rows[i].addr);
		for (int j = 0; j < 16; j++)
			report_printf(" %02x", r->rows[i].bytes[j]);
		report_printf("\n");
		if (here) {
			/* '^' under the first bad granule's byte */
			int col = 19 + 3 * (int)((r->first_bad - r->rows[i].addr) / r->granule);
			char line[20 + 3 * 16];
			rt_memset(line, ' ', (size_t)col);
			line[col] = '^';
			line[col + 1] = 0;
			report_printf("%s\n", line);
		}
	}
}

const char *kasan_asan_name(const struct kasan_report_info *r)
{
	if (r->kind == REPORT_OOPS)
		return r->stack_overflow ? "stack-overflow" : "SEGV";
	/* "out-of-bounds" of the tag modes: the object's kind says which. */
	if (!strcmp(r->bug_type, "out-of-bounds"))
		return r->where == WHERE_STACK    ? "stack-buffer-overflow"
		       : r->where == WHERE_GLOBAL ? "global-buffer-overflow"
		                                  : "heap-buffer-overflow";
	return report_asan_bug(r->bug_type);
}

static void print_trace(const struct kasan_report_info *r)
{
	report_printf("\n");
	dump_task(r->cpu, r->uid, r->tid, r->comm);
	dump_sanitizer_stack(kasan_asan_name(r), r->addr, r->pcs, r->npcs, r->exact);
	dump_trace(r->pcs, r->npcs, r->exact);
}

static void print_oops(const struct kasan_report_info *r)
{
	const char *kasan = kasan_enabled ? " KASAN" : "";
	if (r->stack_overflow) {
		/* arch/x86/kernel/traps.c's words, which syzkaller titles
		 * "BUG: stack guard page was hit in FUNC". */
		report_printf("BUG: stack guard page was hit at %016lx (stack is %016lx..%016lx)\n",
		              (unsigned long)r->addr, (unsigned long)r->stack_lo,
		              (unsigned long)r->stack_hi - 1);
		report_printf("Oops: stack guard page: 0000 [#1] SMP%s\n", kasan);
	} else if (r->si_code == SI_KERNEL) {
		/* x86-64: a non-canonical address; the CPU does not say which. */
		report_printf("general protection fault: 0000 [#1] SMP KASAN\n");
	} else {
		report_printf("BUG: unable to handle page fault for address: %016lx\n",
		              (unsigned long)r->addr);
		report_printf("#PF: user %s in user mode\n", arch_fault_access(r->error_code));
		report_printf("#PF: error_code(0x%04lx) - %s\n", r->error_code,
		              arch_fault_cause(r->error_code));
		report_printf("Oops: %04lx [#1] SMP%s\n", r->error_code & 0xffff, kasan);
	}
	dump_task(r->cpu, r->uid, r->tid, r->comm);
	report_printf(ARCH_OOPS_PC "%s\n", r->function);
	if (r->in_runtime)
		report_printf("The faulting instruction is in ukasan's own code: a bug in ukasan, or a "
		              "bad pointer passed to a function it wraps\n");
	/* After the kernel's lines, which keep their order, before the trace
	 * (a reader takes the type from the line, then the frames). */
	dump_sanitizer_error(kasan_asan_name(r), r->addr);
	const char *access = arch_fault_access(r->error_code);
	if (!r->stack_overflow && r->si_code != SI_KERNEL && access[0] != 'i' &&
	    report_asan_wanted(0))
		/* ASan's next line, which adds the access to ClusterFuzz's type */
		report_printf("The signal is caused by a %s memory access.\n",
		              access[0] == 'w' ? "WRITE" : "READ");
	dump_sanitizer_stack(NULL, 0, r->pcs, r->npcs, r->exact);
	dump_trace(r->pcs, r->npcs, r->exact);
}

void kasan_print_report(const struct kasan_report_info *r)
{
	report_printf(RULE);
	switch (r->kind) {
	case REPORT_OOPS:
		print_oops(r);
		report_printf(RULE);
		return;
	case REPORT_WILD:
		report_printf("BUG: KASAN: %s in %s\n", r->bug_type, r->function);
		report_printf("Access at addr in range [%016lx-%016lx] by task %s/%d\n",
		              (unsigned long)r->addr, (unsigned long)(r->addr + r->size - 1),
		              r->comm, r->tid);
		print_trace(r);
		report_printf(RULE);
		return;
	case REPORT_ASYNC:
		report_printf("BUG: KASAN: %s\n", r->bug_type);
		report_printf("Asynchronous fault: no details available\n");
		print_trace(r);
		report_printf("\n" RULE);
		return;
	case REPORT_FREE:
		report_printf("BUG: KASAN: %s in %s\n", r->bug_type, r->function);
		report_printf("Free of addr %016lx by task %s/%d\n", (unsigned long)r->addr,
		              r->comm, r->tid);
		if (r->detail[0])
			report_printf("%s\n", r->detail);
		break;
	case REPORT_PAIR:
		report_printf("BUG: KASAN: %s in %s\n", r->bug_type, r->function);
		if (r->size2)
			report_printf(
			    "Memory ranges [%016lx, %016lx) and [%016lx, %016lx) overlap, "
			    "by task %s/%d\n",
			    (unsigned long)r->addr, (unsigned long)(r->addr + r->size),
			    (unsigned long)r->addr2, (unsigned long)(r->addr2 + r->size2), r->comm,
			    r->tid);
		else
			report_printf("Pointers %016lx and %016lx into different objects, by task "
			              "%s/%d\n",
			              (unsigned long)r->addr, (unsigned long)r->addr2, r->comm,
			              r->tid);
		break;
	case REPORT_ALLOC:
		report_printf("BUG: KASAN: %s in %s\n", r->bug_type, r->function);
		report_printf("Request by task %s/%d: %s\n", r->comm, r->tid, r->detail);
		print_trace(r);
		report_printf("\n" RULE);
		return;
	case REPORT_ACCESS:
		report_printf("BUG: KASAN: %s in %s\n", r->bug_type, r->function);
		report_printf("%s of size %zu at addr %016lx by task %s/%d\n",
		              r->write ? "Write" : "Read", r->size, (unsigned long)r->addr, r->comm,
		              r->tid);
		break;
	}
	if (r->has_tags)
		report_printf("Pointer tag: [%02x], memory tag: [%02x]\n", r->ptr_tag, r->mem_tag);
	print_trace(r);
	report_printf("\n");
	if (r->where == WHERE_HEAP)
		print_object(r);
	else if (r->where == WHERE_GLOBAL)
		print_global(r);
	else if (r->where == WHERE_STACK)
		print_frame(r);
	if (r->other)
		kasan_print_where(r->other);
	if (r->has_memory)
		print_memory(r);
	report_printf(RULE);
}

/* ASan's __asan_describe_address: what a report says of the address after
 * its stack. */
void kasan_print_where(const struct kasan_report_info *r)
{
	if (r->where == WHERE_HEAP)
		print_object(r);
	else if (r->where == WHERE_GLOBAL)
		print_global(r);
	else if (r->where == WHERE_STACK)
		print_frame(r);
	if (r->has_memory)
		print_memory(r);
}
