/* The report record (report.h) as the report service's record
 * (report/report.h), which report_finish ends every report with: its
 * signature, DEDUP token, JSON line and ASan's lines come from this alone,
 * as report_text.c prints the kernel's text from the record. */
#include <signal.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "kasan.h"
#include "mode.h"
#include "report.h"
#include "asan_interface.h"

static const char *const cache_names[] = {"malloc",   "calloc", "realloc",
                                          "memalign", "new",    "new[]"};
static const char *const large_names[] = {"malloc-large",   "calloc-large", "realloc-large",
                                          "memalign-large", "new-large",    "new[]-large"};

/* An oops has no KASAN bug type: the words of its title. */
static const char *bug_type(const struct kasan_report_info *r)
{
	if (r->bug_type)
		return r->bug_type;
	if (r->kind != REPORT_OOPS)
		return "unknown";
	if (r->stack_overflow)
		return "stack-guard-page";
	return r->si_code == SI_KERNEL ? "general-protection-fault" : "page-fault";
}

static const char *access(const struct kasan_report_info *r)
{
	switch (r->kind) {
	case REPORT_ACCESS:
		return r->write ? "write" : "read";
	case REPORT_FREE:
		return "free";
	case REPORT_PAIR:
		return r->size2 ? "write" : "read";
	case REPORT_WILD:
	case REPORT_OOPS:
		return "unknown";
	case REPORT_ASYNC:
	case REPORT_ALLOC:
		break;
	}
	return NULL;
}

static void where(const struct kasan_report_info *r, struct report_record *j)
{
	uintptr_t addr = r->has_tags ? untag(r->addr) : r->addr;
	switch (r->where) {
	case WHERE_HEAP: {
		unsigned api = (unsigned)(r->object.api & 15) % 6;
		j->region = "heap";
		j->cache = r->object.large ? large_names[api] : cache_names[api];
		j->has_object = j->has_offset = 1;
		j->object_addr = r->object.start;
		j->object_size = r->object.size;
		j->offset = (long long)(addr - r->object.start);
		if (r->object.alloc.present)
			j->stacks[REPORT_STACK_ALLOC].n =
			    depot_fetch(r->object.alloc.stack, &j->stacks[REPORT_STACK_ALLOC].pcs);
		if (r->object.free.present)
			j->stacks[REPORT_STACK_FREE].n =
			    depot_fetch(r->object.free.stack, &j->stacks[REPORT_STACK_FREE].pcs);
		break;
	}
	case WHERE_GLOBAL:
		j->region = "global";
		j->name = r->global.name;
		j->has_object = j->has_offset = 1;
		j->object_addr = r->global.beg;
		j->object_size = r->global.size_with_redzone;
		j->offset = (long long)(r->addr - r->global.beg);
		break;
	case WHERE_STACK:
		j->region = "stack";
		if (r->frame.known) {
			j->name = r->frame.function;
			j->has_offset = 1;
			j->offset = (long long)r->frame.offset;
		}
		break;
	case WHERE_NONE:
		break;
	}
}

void kasan_fill_record(const struct kasan_report_info *r, struct report_record *j)
{
	rt_memset(j, 0, sizeof(*j));
	j->tool = "KASAN";
	j->bug_type = bug_type(r);
	j->asan_bug = kasan_asan_name(r);
	j->access = access(r);
	if (j->access) {
		j->addr = r->addr;
		j->size = r->kind == REPORT_FREE || r->kind == REPORT_OOPS ? 0 : r->size;
	}
	/* ASan's lines: the access line for a bad access only */
	j->write = r->kind == REPORT_ACCESS ? r->write : -1;
	if (!j->access)
		j->addr = r->addr;
	where(r, j);
	j->stacks[REPORT_STACK_ACCESS].pcs = r->pcs;
	j->stacks[REPORT_STACK_ACCESS].n = r->npcs;
	j->stacks[REPORT_STACK_ACCESS].exact = r->exact;
	j->tid = r->tid;
	j->comm = r->comm;
	j->detail = r->detail[0] ? r->detail : NULL;
}
