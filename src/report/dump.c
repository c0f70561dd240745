#include "dump.h"

#include <string.h>

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../symbolize/symbolize.h"
#include "frames.h"
#include "report.h"

void dump_task(int cpu, unsigned uid, int tid, const char *comm)
{
	report_printf("CPU: %d UID: %u PID: %d Comm: %s\n", cpu, uid, tid, comm);
}

void dump_this_task(void)
{
	char comm[16];
	os_task_name(comm);
	dump_task(os_cpu(), os_uid(), os_tid(), comm);
}

void dump_trace(const uintptr_t *pcs, int n, int exact)
{
	report_printf("Call Trace:\n <TASK>\n");
	report_stack_pcs(pcs, n, exact, " ");
	report_printf(" </TASK>\n");
}

void dump_sanitizer_stack(const char *bug, uintptr_t addr, const uintptr_t *pcs, int n, int exact)
{
	if (!report_asan_wanted(0) || !report_sanitizer_stack_needed(pcs, n, exact))
		return;
	if (bug)
		dump_sanitizer_error(bug, addr);
	report_sanitizer_stack(pcs, n, exact);
}

void dump_sanitizer_error(const char *bug, uintptr_t addr)
{
	if (!opt.asan_log_lines && report_asan_wanted(0))
		dump_sanitizer_error_line("", bug, addr, 0);
}

void dump_sanitizer_error_line(const char *prefix, const char *bug, uintptr_t addr, uintptr_t pc)
{
	const char *head = "ERROR: AddressSanitizer:";
	unsigned long a = (unsigned long)addr;
	if (!strcmp(bug, "double-free"))
		report_printf("%s%s attempting double-free on 0x%lx\n", prefix, head, a);
	else if (!strcmp(bug, "invalid-free"))
		report_printf("%s%s attempting free on address which was not malloc()-ed: 0x%lx\n",
		              prefix, head, a);
	else if (!strcmp(bug, "SEGV"))
		report_printf("%s%s SEGV on unknown address 0x%lx\n", prefix, head, a);
	else if (pc)
		report_printf("%s%s %s on address 0x%lx at pc 0x%lx\n", prefix, head, bug, a,
		              (unsigned long)pc);
	else
		report_printf("%s%s %s on address 0x%lx\n", prefix, head, bug, a);
}
