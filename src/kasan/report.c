/* The report pipeline (the kernel's mm/kasan/report.c): every KASAN fault
 * (a check, a tag fault, a bad free, a fault no check saw) fills one record
 * (report.h) from what it knows, from the task, and from the mode's
 * metadata (kasan_ops' describe and fetch_row); then the printer writes it.
 * At most one report at a time is filled, under the report lock. */
#include <signal.h>
#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kfence/kfence.h"
#include "../platform/dynlink.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "../symbolize/symbolize.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "report.h"
#include "asan_interface.h"

static int reported;
static __thread int depth __attribute__((tls_model("initial-exec")));
/* Filled and printed under the report lock: a record is bigger than a
 * signal stack may have room for. */
static struct kasan_report_info record;

/* 0 when no report may start now: one is in progress on this thread (a
 * signal handler interrupted it, or its own path faulted: counted for the
 * summary line), or one was printed and kasan_multi_shot is off. */
static int enter(void)
{
	if (depth || report_in_progress_here()) {
		report_not_printed();
		return 0;
	}
	if (!opt.kasan_multi_shot && __atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED)) {
		report_held_back();
		return 0;
	}
	depth++;
	return 1;
}

/* For a report printed without the record (an ODR violation), so that it
 * counts as kasan_multi_shot counts: 0 when none may start now. */
int kasan_report_enter(void)
{
	return enter();
}

void kasan_report_leave(void)
{
	depth--;
}

static struct kasan_report_info *start(enum report_kind kind)
{
	report_begin_bug_with_record();
	struct kasan_report_info *r = &record;
	rt_memset(r, 0, sizeof(*r));
	r->kind = kind;
	os_task_name(r->comm);
	r->tid = os_tid();
	r->cpu = os_cpu();
	r->uid = os_uid();
	return r;
}

/* The kernel's text, then the report service's end (report_finish):
 * panic, when may_panic and kasan.fault asks for it. */
static void print(const struct kasan_report_info *r, int may_panic)
{
	struct report_record rec;
	report_on_error();
	kasan_print_report(r);
	kasan_fill_record(r, &rec);
	if (may_panic && (opt.kasan_fault == FAULT_PANIC ||
	                  (opt.kasan_fault == FAULT_PANIC_ON_WRITE && r->write))) {
		rec.action = REPORT_PANIC;
		rec.action_by = opt.kasan_fault == FAULT_PANIC ? "kasan.fault=panic"
		                                               : "kasan.fault=panic_on_write";
	}
	/* A report that nests from here on is the report lock's to hold
	 * back (report_in_progress_here); the run's end (a death callback)
	 * may report again. */
	depth--;
	report_finish(&rec);
}

static void finish(const struct kasan_report_info *r)
{
	print(r, 1);
}

/* As the kernel's, the title names the function that made the access: the
 * return address of the check, so for memcpy and friends their caller. */
static void title_function(struct kasan_report_info *r, uintptr_t ip, int callers)
{
	char *fn = r->function;
	const size_t cap = sizeof(r->function);
	if (ip)
		sym_title_function(ip, r->exact, fn, cap);
	else if (r->npcs)
		sym_title_function(r->pcs[0], 0, fn, cap);
	else
		fmt_buf(fn, cap, "<unknown>");
	/* A tag fault inside a library function with no symbol (glibc's
	 * memset variants, chosen by IFUNC, are local): its caller, as when a
	 * check runs before the call. */
	for (int i = 1; callers && fn[0] == '0' && fn[1] == 'x' && i < r->npcs && i < 3; i++)
		sym_title_function(r->pcs[i], 0, fn, cap);
}

/* What the address belongs to, and the metadata around the first bad
 * byte: the mode's. */
static void complete(struct kasan_report_info *r)
{
	kasan_ops->describe(r);
	r->granule = kasan_ops->row_granule;
	r->has_memory = kasan_ops->has_metadata(r->first_bad);
	if (!r->has_memory)
		return;
	uintptr_t row_bytes = 16 * (uintptr_t)r->granule;
	uintptr_t row = ALIGN_DOWN(r->first_bad, row_bytes) - 2 * row_bytes;
	for (int i = 0; i < REPORT_ROWS; i++, row += row_bytes) {
		r->rows[i].addr = row;
		r->rows[i].valid = kasan_ops->fetch_row(row, r->rows[i].bytes);
	}
}

enum stack_from { FROM_HERE, FROM_IP, FROM_FAULT };

static void report_access(uintptr_t addr, size_t size, int write, uintptr_t ip,
                          enum stack_from from, const void *uctx)
{
	/* Every bad write, printed or not: the program makes it next if it
	 * runs on. */
	if (write && kasan_ops->reported_write)
		kasan_ops->reported_write(addr, size);
	uintptr_t bad = kasan_ops->first_bad(addr, size);
	/* KASAN leaves KFENCE's objects to KFENCE, as in the kernel. */
	if (kfence_report_access(bad, write, from == FROM_IP ? ip : 0))
		return;
	if (!enter())
		return;
	struct kasan_report_info *r = start(REPORT_ACCESS);
	if (from == FROM_FAULT) {
		ip = fault_pc(uctx);
		r->npcs = stack_capture_context(uctx, 1, r->pcs, STACK_MAX_FRAMES);
		r->exact = 1;
	} else {
		r->npcs = stack_capture(r->pcs, STACK_MAX_FRAMES);
		if (from == FROM_IP)
			r->npcs = stack_trim_to(r->pcs, r->npcs, ip, STACK_MAX_FRAMES);
		/* A check of the runtime's own (realloc's of a freed object)
		 * called from another of its functions: the title names the
		 * program's frame, the stack's first. */
		else if (stack_is_ours(ip))
			ip = 0;
	}
	r->addr = addr;
	r->size = size;
	r->write = write;
	r->first_bad = bad;
	r->bug_type = kasan_ops->bug_type(addr, size, bad);
	title_function(r, ip, 1);
	complete(r);
	finish(r);
}

void kasan_report(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	report_access(addr, size, write, ip, FROM_HERE, NULL);
}

void kasan_report_from(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	report_access(addr, size, write, ip, FROM_IP, NULL);
}

void kasan_report_at(uintptr_t addr, size_t size, int write, const void *uctx)
{
	report_access(addr, size, write, 0, FROM_FAULT, uctx);
}

void kasan_halt_unrecoverable(void)
{
	log_printf("ukasan: built without recovery (UKASAN_RECOVER=0): cannot continue after a "
	           "report, %s\n",
	           opt.abort_on_error ? "aborting" : "exiting");
	report_end_run();
}

void kasan_report_async(const void *uctx)
{
	if (!enter())
		return;
	struct kasan_report_info *r = start(REPORT_ASYNC);
	r->bug_type = "invalid-access";
	r->npcs = stack_capture_context(uctx, 1, r->pcs, STACK_MAX_FRAMES);
	r->exact = 1;
	finish(r);
}

static void report_free(uintptr_t addr, const char *type, const char *detail, int retired);

/* From inside our free(): the stack starts at its caller. */
void kasan_report_free(uintptr_t addr, const char *type)
{
	report_free(addr, type, NULL, 0);
}

static void copy_detail(struct kasan_report_info *r, const char *detail)
{
	size_t n = detail ? strnlen(detail, sizeof(r->detail) - 1) : 0;
	rt_memcpy(r->detail, detail, n);
	r->detail[n] = 0;
}

void kasan_report_free_detail(uintptr_t addr, const char *type, const char *detail)
{
	report_free(addr, type, detail, 1);
}

/* retired: the free being checked marked the object freed and has not yet
 * written its free record. */
static void report_free(uintptr_t addr, const char *type, const char *detail, int retired)
{
	if (!enter())
		return;
	struct kasan_report_info *r = start(REPORT_FREE);
	copy_detail(r, detail);
	r->npcs = stack_capture(r->pcs, STACK_MAX_FRAMES);
	r->bug_type = type;
	r->addr = addr;
	r->first_bad = untag(addr);
	r->write = 1;
	title_function(r, 0, 1);
	complete(r);
	if (retired && r->where == WHERE_HEAP) {
		r->object.freed = 0;
		r->object.free.present = 0;
	}
	finish(r);
}

/* The second address's description; under the report lock, as record. */
static struct kasan_report_info other;

void kasan_report_pair(const char *type, uintptr_t a, size_t an, uintptr_t b, size_t bn,
                       uintptr_t ip)
{
	if (!enter())
		return;
	struct kasan_report_info *r = start(REPORT_PAIR);
	r->npcs =
	    stack_trim_to(r->pcs, stack_capture(r->pcs, STACK_MAX_FRAMES), ip, STACK_MAX_FRAMES);
	r->bug_type = type;
	r->addr = r->first_bad = a;
	r->size = an;
	r->addr2 = b;
	r->size2 = bn;
	r->write = an != 0; /* a copy's destination */
	title_function(r, ip, 1);
	kasan_ops->describe(r);
	/* Neither byte is bad: the shadow around them says nothing. */
	if (kasan_describe(b, &other)) {
		other.has_memory = 0;
		r->other = &other;
	}
	finish(r);
}

/* From inside our malloc(): no address, the request is the bug. */
void kasan_report_alloc(const char *type, const char *detail)
{
	if (!enter())
		return;
	struct kasan_report_info *r = start(REPORT_ALLOC);
	r->npcs = stack_capture(r->pcs, STACK_MAX_FRAMES);
	r->bug_type = type;
	copy_detail(r, detail);
	title_function(r, 0, 1);
	finish(r);
}

/* The shadow address of the last wild access reported on this thread: the
 * fault goes on to end the program, and gets no second report. */
static __thread uintptr_t wild_reported __attribute__((tls_model("initial-exec")));

/* A shadow load faulted in the gap: the program accessed the shadow region
 * itself (a wild pointer). Like the kernel's hint for non-canonical
 * addresses, the range is known to a granule; size and direction are not. */
void kasan_report_wild_fault(uintptr_t shadow_addr, const void *uctx)
{
	uintptr_t pc = fault_pc(uctx);
	/* Set first: one not printed (another report in progress, or
	 * kasan_multi_shot off) is counted here, not again by the oops. */
	wild_reported = shadow_addr;
	if (!enter())
		return;
	struct kasan_report_info *r = start(REPORT_WILD);
	r->bug_type = "wild-memory-access";
	r->npcs = stack_capture_context(uctx, 1, r->pcs, STACK_MAX_FRAMES);
	r->exact = 1;
	r->pc = pc;
	r->addr = shadow_to_mem((const void *)shadow_addr);
	r->size = GRANULE;
	title_function(r, pc, 0);
	print(r, 0);
}

/* The trace of a fault that ends the program. At a bad pc the unwinder
 * cannot start (it reads the code there), so it starts at the caller, with
 * the bad pc as frame 0, as the kernel's trace shows it. */
static void capture_fatal(struct kasan_report_info *r, const struct fatal_fault *f, void *uctx)
{
	struct fault_saved saved;
	r->exact = 1;
	if (!f->bad_pc) {
		r->npcs = stack_capture_context(uctx, 1, r->pcs, STACK_MAX_FRAMES);
		return;
	}
	r->pcs[0] = f->pc;
	r->npcs = 1;
	if (fault_context_to_caller(uctx, f, &saved) != 0)
		return;
	r->npcs += stack_capture_context(uctx, 0, r->pcs + 1, STACK_MAX_FRAMES - 1);
	fault_context_restore(uctx, &saved);
}

static void report_fatal_fault(const struct fatal_fault *f, void *uctx)
{
	struct kasan_report_info *r = start(REPORT_OOPS);
	capture_fatal(r, f, uctx);
	r->pc = f->pc;
	r->addr = f->addr;
	r->sig = f->sig;
	r->si_code = f->si_code;
	r->error_code = f->error_code;
	r->stack_overflow = f->stack_overflow;
	r->stack_lo = f->stack_lo;
	r->stack_hi = f->stack_hi;
	r->in_runtime = !f->bad_pc && dl_own_text(f->pc);
	/* The stack ran out in this library, in code the compiler called from
	 * the program's frame (a fake frame's allocation, a check): the
	 * overflow is the program's, and its report starts at the program's
	 * frame. Named by where the last byte ran out, one recursion would
	 * give two titles and two signatures from run to run. */
	int skip = 0;
	while (f->stack_overflow && skip < r->npcs - 1 && dl_own_text(r->pcs[skip]))
		skip++;
	if (skip) {
		rt_memmove(r->pcs, r->pcs + skip, (size_t)(r->npcs - skip) * sizeof(r->pcs[0]));
		r->npcs -= skip;
		r->exact = 0;
		r->pc = r->pcs[0];
	}
	/* A bad pc has no function: its line names the address. */
	if (f->bad_pc && !skip)
		fmt_buf(r->function, sizeof(r->function), "0x%lx", (unsigned long)f->pc);
	else
		title_function(r, r->pc, 0);
	print(r, 0);
}

/* Any mode, KFENCE's preload too, where a fault the program made is the
 * program's (it dies of it as without ukasan): a stack overflow, and a
 * fault in this library's own code, would otherwise end the program with
 * no word. The second is a bug of ours, or a wild pointer given to a
 * function we wrap; either way the process dies, and says where. */
int kasan_report_unseen_fault(const struct fatal_fault *f, void *uctx)
{
	if ((!f->stack_overflow && (f->bad_pc || !dl_own_text(f->pc))) || !enter())
		return 0;
	report_fatal_fault(f, uctx);
	return 1;
}

/* KASAN's modes: any other fault that ends the program gets the kernel's
 * oops first, as AddressSanitizer reports a SEGV. */
int kasan_report_oops(const struct fatal_fault *f, void *uctx)
{
	if (f->sig == SIGSEGV && wild_reported && wild_reported == f->addr)
		return 1;
	if (!enter())
		return 1;
	report_fatal_fault(f, uctx);
	return 1;
}

/* A frame's description: "N" objects, then "OFFSET SIZE LEN NAME" each. */
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

int frame_count(const char **d, unsigned long *n)
{
	const char *p = parse_num(*d, n);
	if (!p)
		return 0;
	*d = p;
	return 1;
}

int frame_object_next(const char **d, struct frame_object *o)
{
	unsigned long off, size, len;
	const char *p = *d;
	if (!(p = parse_num(p, &off)) || !(p = parse_num(p, &size)) || !(p = parse_num(p, &len)))
		return 0;
	if (*p != ' ' || strnlen(p + 1, len) < len) /* not the compiler's */
		return 0;
	p++; /* the space before the name */
	size_t k = len < sizeof(o->name) - 1 ? len : sizeof(o->name) - 1;
	rt_memcpy(o->name, p, k);
	o->name[k] = 0;
	/* As the kernel: drop GCC's ":line", a line without a file. */
	for (char *c = o->name; *c; c++)
		if (*c == ':')
			*c = 0;
	o->beg = off;
	o->end = off + size;
	*d = p + len;
	return 1;
}

/* Read-only, for ASan's __asan_get_report_* (runtime/asan_api.c): the last
 * report's record, or NULL before the first (every report sets its task). */
const struct kasan_report_info *kasan_last_report(void)
{
	return __atomic_load_n(&record.tid, __ATOMIC_ACQUIRE) ? &record : NULL;
}

int kasan_last_access(struct kasan_last_access *a)
{
	const struct kasan_report_info *r = kasan_last_report();
	if (!r)
		return 0;
	*a = (struct kasan_last_access){r->npcs ? r->pcs[0] : 0, r->addr, r->write, r->size,
	                                r->bug_type};
	return 1;
}
