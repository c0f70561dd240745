#include "dump.h"

#include "../config/log.h"
#include "../platform/os.h"
#include "symbolize.h"

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
	sym_print_stack(pcs, n, exact);
	report_printf(" </TASK>\n");
}
