/* The generic mode's part of reports (mm/kasan/report_generic.c): the
 * shadow says what kind of bug an access is, where the first bad byte is,
 * which stack frame an address is in, and what the memory around it is. */
#include <signal.h>
#include <string.h>

#include "../arch/arch.h"
#include "../base/common.h"
#include "../config/log.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "../stack/symbolize.h"
#include "kasan.h"
#include "report.h"

int kasan_has_metadata(uintptr_t addr)
{
	return shadow_covers(addr);
}

uintptr_t kasan_first_bad(uintptr_t addr, size_t size)
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

const char *kasan_bug_type(uintptr_t addr, size_t size, uintptr_t bad)
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
	default:
		return "unknown-crash";
	}
}

/* The compiler writes a magic word, a description of the frame's objects
 * ("2 32 4 1 a 48 10 3 buf") and the function's pc at the base of every
 * instrumented frame, just under its left redzone (shadow F1). */
#define FRAME_MAGIC 0x41b58ab3ul

static const char *parse_num(const char *p, unsigned long *v)
{
	*v = 0;
	while (*p == ' ')
		p++;
	if (*p < '0' || *p > '9')
		return NULL;
	while (*p >= '0' && *p <= '9')
		*v = *v * 10 + (unsigned long)(*p++ - '0');
	return p;
}

static void print_frame_objects(const char *d)
{
	unsigned long n, off, size, len;
	if (!(d = parse_num(d, &n)))
		return;
	report_printf("\nThis frame has %lu %s:\n", n, n == 1 ? "object" : "objects");
	for (unsigned long i = 0; i < n; i++) {
		if (!(d = parse_num(d, &off)) || !(d = parse_num(d, &size)) ||
		    !(d = parse_num(d, &len)))
			return;
		char name[128];
		if (*d != ' ' || strnlen(d + 1, len) < len) /* not the compiler's */
			return;
		d++; /* the space before the name */
		size_t k = len < sizeof(name) - 1 ? len : sizeof(name) - 1;
		rt_memcpy(name, d, k);
		name[k] = 0;
		/* As the kernel: drop GCC's ":line", a line without a file. */
		for (char *c = name; *c; c++)
			if (*c == ':')
				*c = 0;
		d += len;
		report_printf(" [%lu, %lu) '%s'\n", off, off + size, name);
	}
}

int kasan_describe_stack(uintptr_t addr)
{
	uintptr_t lo, hi;
	char comm[16];
	if (stack_bounds(&lo, &hi) != 0 || addr < lo || addr >= hi)
		return 0;
	os_task_name(comm);
	const int8_t *sp = shadow_of(addr), *bottom = shadow_of(lo);
	while (sp >= bottom && (uint8_t)*sp != SHADOW_STACK_LEFT)
		sp--;
	while (sp >= bottom && (uint8_t)*sp == SHADOW_STACK_LEFT)
		sp--;
	const uintptr_t *frame = (const uintptr_t *)shadow_to_mem(sp + 1);
	if (sp < bottom || (uintptr_t)frame < lo || frame[0] != FRAME_MAGIC)
		frame = NULL;
	kasan_describe_frame(comm, kasan_current_tid(), addr, frame);
	return 1;
}

void kasan_describe_frame(const char *comm, int tid, uintptr_t addr, const uintptr_t *frame)
{
	report_printf("The buggy address belongs to stack of task %s/%d\n", comm, tid);
	if (!frame) {
		report_printf("\n");
		return;
	}
	char fn[256];
	sym_function(frame[2], 1, fn, sizeof(fn));
	report_printf(" and is located at offset %lu in frame:\n %s\n",
	              (unsigned long)(addr - (uintptr_t)frame), fn);
	/* The description is the compiler's, but the pointer to it sits in the
	 * frame, where a bug under the first object may have written. */
	char desc[1024];
	size_t got =
	    frame[1] ? os_copy_readable(desc, (const void *)frame[1], sizeof(desc) - 1) : 0;
	desc[got] = 0;
	if (got)
		print_frame_objects(desc);
	report_printf("\n");
}

void kasan_print_memory_state(uintptr_t bad)
{
	const uintptr_t row_bytes = 16 * GRANULE;
	uintptr_t row0 = ALIGN_DOWN(bad, row_bytes);
	report_printf("Memory state around the buggy address:\n");
	for (int i = -2; i <= 2; i++) {
		uintptr_t row = row0 + (uintptr_t)((long)i * (long)row_bytes);
		if (!shadow_covers(row) || !shadow_covers(row + row_bytes - 1))
			continue;
		report_printf("%c%016lx:", i == 0 ? '>' : ' ', (unsigned long)row);
		const uint8_t *s = (const uint8_t *)shadow_of(row);
		for (int j = 0; j < 16; j++)
			report_printf(" %02x", s[j]);
		report_printf("\n");
		if (i == 0) {
			/* '^' under the shadow byte of the first bad address */
			int col = 19 + 3 * (int)((bad - row) / GRANULE);
			char line[80];
			rt_memset(line, ' ', (size_t)col);
			line[col] = '^';
			line[col + 1] = 0;
			report_printf("%s\n", line);
		}
	}
}

/* A shadow load faulted in the gap: the program accessed the shadow region
 * itself (a wild pointer). Like the kernel's hint for non-canonical
 * addresses, the range is known to a granule; size and direction are not. */
void kasan_report_wild_fault(uintptr_t shadow_addr, uintptr_t pc)
{
	if (!kasan_report_enter())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture_from(pc, pcs, STACK_MAX_FRAMES);
	uintptr_t addr = shadow_to_mem((const void *)shadow_addr);
	char comm[16];
	os_task_name(comm);
	report_begin();
	char fn[256];
	sym_function(pc, 1, fn, sizeof(fn));
	report_printf("==================================================================\n");
	report_printf("BUG: KASAN: wild-memory-access in %s\n", fn);
	report_printf("Access at addr in range [%016lx-%016lx] by task %s/%d\n",
	              (unsigned long)addr, (unsigned long)(addr + GRANULE - 1), comm,
	              kasan_current_tid());
	report_printf("\nCPU: %d UID: %u PID: %d Comm: %s\nCall Trace:\n <TASK>\n", os_cpu(),
	              os_uid(), kasan_current_tid(), comm);
	sym_print_stack(pcs, n, 1);
	report_printf(" </TASK>\n");
	report_printf("==================================================================\n");
	report_end();
	kasan_report_leave();
}

void kasan_report_fault(uintptr_t addr, int si_code, unsigned long error_code, uintptr_t pc)
{
	if (!kasan_report_enter())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture_from(pc, pcs, STACK_MAX_FRAMES);
	char comm[16], fn[256];
	os_task_name(comm);
	sym_function(pc, 1, fn, sizeof(fn));
	report_begin();
	report_printf("==================================================================\n");
	if (si_code == SI_KERNEL) {
		/* x86-64: a non-canonical address; the CPU does not say which. */
		report_printf("general protection fault: 0000 [#1] SMP KASAN\n");
	} else {
		report_printf("BUG: unable to handle page fault for address: %016lx\n",
		              (unsigned long)addr);
		report_printf("#PF: user %s in user mode\n", arch_fault_access(error_code));
		report_printf("#PF: error_code(0x%04lx) - %s\n", error_code,
		              arch_fault_cause(error_code));
		report_printf("Oops: %04lx [#1] SMP KASAN\n", error_code & 0xffff);
	}
	report_printf("CPU: %d UID: %u PID: %d Comm: %s\n" ARCH_OOPS_PC
	              "%s\nCall Trace:\n <TASK>\n",
	              os_cpu(), os_uid(), kasan_current_tid(), comm, fn);
	sym_print_stack(pcs, n, 1);
	report_printf(" </TASK>\n");
	report_printf("==================================================================\n");
	report_end();
	kasan_report_leave();
}
