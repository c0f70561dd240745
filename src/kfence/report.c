/* KFENCE reports, in the kernel's format (mm/kfence/report.c), so that
 * anything that reads kernel reports reads these. */
#include "kfence.h"

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../report/dump.h"
#include "../report/frames.h"
#include "../report/report.h"
#include "../symbolize/symbolize.h"

static const char *const cache_names[] = {"malloc",   "calloc", "realloc",
                                          "memalign", "new",    "new[]"};

static const char *access(int is_write)
{
	return is_write ? "write" : "read";
}

static void print_track(const char *what, const struct kfence_track *t, const char *none)
{
	const uintptr_t *pcs;
	int n = depot_fetch(t->stack, &pcs);
	report_printf("%s by task %d on cpu %d at %lu.%06lus:\n", what, t->tid, t->cpu,
	              (unsigned long)(t->ns / 1000000000u),
	              (unsigned long)(t->ns % 1000000000u / 1000u));
	if (n)
		report_stack(pcs, n, 0);
	else
		report_printf(" no %s stack\n", none);
}

static void print_object(const struct kfence_meta *m, long idx)
{
	int state = m->state;
	if (state == OBJ_UNUSED) {
		report_printf("kfence-#%ld unused\n", idx);
		return;
	}
	report_printf("kfence-#%ld: 0x%lx-0x%lx, size=%zu, cache=%s\n\n", idx,
	              (unsigned long)m->addr, (unsigned long)(m->addr + m->size - (m->size != 0)),
	              m->size, cache_names[m->api]);
	print_track("allocated", &m->alloc, "allocation");
	if (state == OBJ_FREED) {
		report_printf("\n");
		print_track("freed", &m->free, "deallocation");
	}
}

static void print_diff_canary(uintptr_t addr, const struct kfence_meta *m)
{
	uintptr_t end = addr + 16;
	uintptr_t limit = addr < m->addr ? m->addr : ALIGN_UP(addr + 1, kfence.page);
	if (end > limit)
		end = limit;
	report_printf("[");
	for (const unsigned char *c = (const void *)addr; (uintptr_t)c < end; c++) {
		if (*c == kfence_canary((uintptr_t)c))
			report_printf(" .");
		else
			report_printf(" 0x%02x", *c);
	}
	report_printf(" ]");
}

/* The dedup token's bug type: KASAN's name for the same bug, so that a
 * bug keeps its token whether a KFENCE sample or KASAN's redzones caught
 * it (a fuzzer's run and its replay differ there); what only KFENCE
 * sees keeps a name of its own. */
static const char *kfence_bug_type(enum kfence_error type, const struct kfence_meta *m)
{
	switch (type) {
	case KF_ERR_OOB:
		return "slab-out-of-bounds";
	case KF_ERR_UAF:
		return "slab-use-after-free";
	case KF_ERR_CORRUPTION:
		return "kfence-memory-corruption";
	case KF_ERR_INVALID:
		return "wild-memory-access";
	case KF_ERR_INVALID_FREE:
		return m && m->state == OBJ_FREED ? "double-free" : "invalid-free";
	}
	return "kfence";
}

/* The record the report service ends the report with (report_finish):
 * the access, the object's metadata snapshot, its stacks. */
static void fill_record(struct report_record *j, enum kfence_error type, uintptr_t addr,
                        int is_write, const struct kfence_meta *m, const uintptr_t *pcs, int n,
                        int exact, const char *comm)
{
	rt_memset(j, 0, sizeof(*j));
	j->tool = "KFENCE";
	j->bug_type = kfence_bug_type(type, m);
	j->asan_bug = report_asan_bug(j->bug_type);
	j->access = type == KF_ERR_INVALID_FREE ? "free"
	            : type == KF_ERR_CORRUPTION ? "write" /* a canary changed */
	                                        : access(is_write);
	j->write = type == KF_ERR_OOB || type == KF_ERR_UAF ? is_write : -1;
	j->addr = addr;
	if (m && m->state != OBJ_UNUSED) {
		j->region = "kfence";
		j->cache = cache_names[m->api];
		j->has_object = j->has_offset = 1;
		j->object_addr = m->addr;
		j->object_size = m->size;
		j->offset = (long long)(addr - m->addr);
		j->stacks[REPORT_STACK_ALLOC].n =
		    depot_fetch(m->alloc.stack, &j->stacks[REPORT_STACK_ALLOC].pcs);
		if (m->state == OBJ_FREED)
			j->stacks[REPORT_STACK_FREE].n =
			    depot_fetch(m->free.stack, &j->stacks[REPORT_STACK_FREE].pcs);
	}
	j->stacks[REPORT_STACK_ACCESS].pcs = pcs;
	j->stacks[REPORT_STACK_ACCESS].n = n;
	j->stacks[REPORT_STACK_ACCESS].exact = exact;
	j->tid = os_tid();
	j->comm = comm;
	if (opt.kfence_fault == KFENCE_FAULT_PANIC) {
		j->action = REPORT_PANIC;
		j->action_by = "kfence.fault=panic";
	}
}

void kfence_report(enum kfence_error type, uintptr_t addr, int is_write, const void *uctx,
                   uintptr_t ip, const struct kfence_meta *m, long idx)
{
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n, exact = uctx != NULL;
	char fn[256];

	__atomic_add_fetch(&kfence.counters[KF_BUGS], 1, __ATOMIC_RELAXED);
	/* A signal handler that interrupted a report on this thread: its
	 * report cannot go inside that one, and would wait on itself for the
	 * report lock. Counted, for the summary line. */
	if (report_in_progress_here()) {
		report_not_printed();
		return;
	}
	if (uctx)
		n = stack_capture_context(uctx, 1, pcs, STACK_MAX_FRAMES);
	else
		n = stack_trim_to(pcs, stack_capture(pcs, STACK_MAX_FRAMES), ip, STACK_MAX_FRAMES);

	report_begin_bug();
	if (n)
		sym_title_function(pcs[0], exact, fn, sizeof(fn));
	else
		fmt_buf(fn, sizeof(fn), "<unknown>");
	report_printf("==================================================================\n");
	switch (type) {
	case KF_ERR_OOB: {
		int left = addr < m->addr;
		report_printf("BUG: KFENCE: out-of-bounds %s in %s\n\n", access(is_write), fn);
		report_printf("Out-of-bounds %s at 0x%lx (%luB %s of kfence-#%ld):\n",
		              access(is_write), (unsigned long)addr,
		              (unsigned long)(left ? m->addr - addr : addr - m->addr),
		              left ? "left" : "right", idx);
		break;
	}
	case KF_ERR_UAF:
		report_printf("BUG: KFENCE: use-after-free %s in %s\n\n", access(is_write), fn);
		report_printf("Use-after-free %s at 0x%lx (in kfence-#%ld):\n", access(is_write),
		              (unsigned long)addr, idx);
		break;
	case KF_ERR_CORRUPTION:
		report_printf("BUG: KFENCE: memory corruption in %s\n\n", fn);
		report_printf("Corrupted memory at 0x%lx ", (unsigned long)addr);
		print_diff_canary(addr, m);
		report_printf(" (in kfence-#%ld):\n", idx);
		break;
	case KF_ERR_INVALID:
		report_printf("BUG: KFENCE: invalid %s in %s\n\n", access(is_write), fn);
		report_printf("Invalid %s at 0x%lx:\n", access(is_write), (unsigned long)addr);
		break;
	case KF_ERR_INVALID_FREE:
		report_printf("BUG: KFENCE: invalid free in %s\n\n", fn);
		if (m)
			report_printf("Invalid free of 0x%lx (in kfence-#%ld):\n",
			              (unsigned long)addr, idx);
		else
			report_printf("Invalid free of 0x%lx:\n", (unsigned long)addr);
		break;
	}
	dump_sanitizer_error(report_asan_bug(kfence_bug_type(type, m)), addr);
	dump_sanitizer_stack(NULL, 0, pcs, n, exact);
	report_stack_pcs(pcs, n, exact, " ");
	if (m) {
		report_printf("\n");
		print_object(m, idx);
	}
	report_printf("\n");
	dump_this_task();
	report_printf("==================================================================\n");
	struct report_record rec;
	char comm[16];
	os_task_name(comm);
	fill_record(&rec, type, addr, is_write, m, pcs, n, exact, comm);
	report_finish(&rec);
}

void kfence_print_stats(void)
{
	static const char *const names[KF_NCOUNTERS] = {
	    "currently allocated",
	    "total allocations",
	    "total frees",
	    "zombie allocations",
	    "total bugs",
	    "skipped allocations (incompatible)",
	    "skipped allocations (capacity)",
	    "skipped allocations (covered)",
	};
	report_begin();
	report_printf("ukasan: kfence statistics of pid %d:\n", os_pid());
	report_printf("enabled: %d\n", kfence.base != 0);
	for (int i = 0; i < KF_NCOUNTERS; i++)
		report_printf("%s: %ld\n", names[i],
		              __atomic_load_n(&kfence.counters[i], __ATOMIC_RELAXED));
	report_end();
}
