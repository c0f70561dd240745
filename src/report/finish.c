/* The one end of every bug report (report.h: report_finish). A new output
 * of reports, or a new kind of report, is written here once. */
#include "report.h"

#include <string.h>

#include "../config/log.h"
#include "../config/options.h"
#include "asan_lines.h"
#include "dedup.h"
#include "json_report.h"

void report_finish(const struct report_record *r)
{
	/* The stack the report is about: the access's, else (a leak) the
	 * allocation's. */
	int s = r->stacks[REPORT_STACK_ACCESS].n ? REPORT_STACK_ACCESS : REPORT_STACK_ALLOC;
	const uintptr_t *pcs = r->stacks[s].pcs;
	int n = r->stacks[s].n, exact = r->stacks[s].exact;

	int ubsan = !strcmp(r->tool, "UBSAN");
	if (report_asan_wanted(ubsan))
		dedup_print(r->bug_type, pcs, n, exact);
	uint64_t sig = dedup_signature(r->bug_type, r->access, pcs, n, exact);
	report_printf("signature: %016llx\n", (unsigned long long)sig);
	report_set_meta(r->tool, r->bug_type, sig);
	if (report_wants_json())
		json_report_emit(r, sig);
	if (r->asan_bug && report_asan_wanted(0)) {
		const uintptr_t *apcs = r->stacks[REPORT_STACK_ACCESS].pcs;
		int an = r->stacks[REPORT_STACK_ACCESS].n;
		report_asan_lines(r->asan_bug, r->addr, an ? apcs[0] : 0, r->write, r->size, apcs,
		                  an);
	}
	report_end();

	if (r->action == REPORT_GO_ON)
		return;
	if (r->action == REPORT_PANIC)
		log_printf("ukasan: %s set, %s\n", r->action_by,
		           opt.abort_on_error ? "aborting" : "exiting");
	report_end_run();
}
