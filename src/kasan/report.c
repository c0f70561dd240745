/* KASAN reports in the kernel's format (mm/kasan/report.c): the parts every
 * mode shares. What the mode's metadata says (the bug type, the memory
 * state, a stack frame's objects) comes from report_generic.c. */
#include <signal.h>
#include <string.h>

#include "../base/common.h"

#include "object.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kfence/kfence.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../shadow/shadow.h"
#include "../stack/symbolize.h"
#include "kasan.h"
#include "report.h"
#include "tags.h"

static const char *const cache_names[] = {"malloc",   "calloc", "realloc",
                                          "memalign", "new",    "new[]"};

static int reported;
static __thread int depth __attribute__((tls_model("initial-exec")));
int kasan_current_tid(void)
{
	return os_tid();
}

void kasan_print_track(const char *what, uint32_t tid, depot_handle_t h)
{
	const uintptr_t *pcs;
	int n = depot_fetch(h, &pcs);
	report_printf("%s by task %u:\n", what, tid);
	if (n)
		sym_print_stack(pcs, n, 0);
	else
		report_printf(" (stack is not available)\n");
	report_printf("\n");
}

void kasan_describe_object(uintptr_t addr, uintptr_t obj, size_t size, int api, int large,
                           int freed)
{
	report_printf("The buggy address belongs to the object at %016lx\n", (unsigned long)obj);
	report_printf(" which belongs to the cache %s%s of size %zu\n", cache_names[api % 6],
	              large ? "-large" : "", size);
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
	report_printf(" %s %zu-byte region [%016lx, %016lx)\n", freed ? "freed" : "allocated", size,
	              (unsigned long)obj, (unsigned long)(obj + size));
}

static void describe_chunk(uintptr_t addr, const struct chunk *c)
{
	int freed = (c->state & ~CHUNK_LARGE) == CHUNK_QUARANTINED;
	kasan_print_track("Allocated", c->alloc_tid, c->alloc_stack);
	if (freed) {
		const struct free_meta *fm = chunk_free_meta(c);
		kasan_print_track("Freed", fm->free_tid, fm->free_stack);
	}
	kasan_describe_object(addr, chunk_object(c), chunk_size(c), c->api,
	                      (c->state & CHUNK_LARGE) != 0, freed);
}

static void describe_global(uintptr_t addr, const struct asan_global *g)
{
	report_printf("The buggy address belongs to the variable:\n");
	report_printf(" %s+0x%lx/0x%lx", g->name, (unsigned long)(addr - g->beg),
	              (unsigned long)g->size_with_redzone);
	if (g->location && g->location->file)
		report_printf(" %s:%d", g->location->file, g->location->line);
	report_printf("\n");
}

/* What the address belongs to (heap object, global or stack), then the
 * shadow around the first bad byte. */
static void describe_address(uintptr_t addr, uintptr_t bad)
{
	if (kasan_mode != KASAN_GENERIC) {
		tags_describe(addr);
		tags_print_memory_state(bad);
		return;
	}
	struct chunk *c = kasan_has_metadata(addr) ? kasan_find_chunk(bad) : NULL;
	const struct asan_global *g = c ? NULL : kasan_find_global(bad);
	if (c)
		describe_chunk(addr, c);
	else if (g)
		describe_global(addr, g);
	if (c || g)
		report_printf("\n");
	else if (kasan_has_metadata(addr) && !kasan_describe_stack(addr))
		kasan_describe_fake_frame(addr);
	if (kasan_has_metadata(bad))
		kasan_print_memory_state(bad);
}

int kasan_report_enter(void)
{
	if (depth)
		return 0;
	if (!opt.kasan_multi_shot && __atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		return 0;
	depth++;
	return 1;
}

void kasan_report_leave(void)
{
	depth--;
}

static void finish(int write)
{
	report_printf("==================================================================\n");
	report_end();
	kasan_report_leave();
	if (opt.kasan_fault == FAULT_PANIC || (opt.kasan_fault == FAULT_PANIC_ON_WRITE && write)) {
		log_printf("ukasan: kasan.fault=%s set, aborting\n",
		           opt.kasan_fault == FAULT_PANIC ? "panic" : "panic_on_write");
		os_die(SIGABRT);
	}
}

/* As the kernel's, the title names the function that made the access: the
 * return address of the check, so for memcpy and friends their caller. */
static void header(const char *type, uintptr_t ip, int exact, const uintptr_t *pcs, int n)
{
	char fn[256];
	if (ip)
		sym_function(ip, exact, fn, sizeof(fn));
	else if (n)
		sym_function(pcs[0], 0, fn, sizeof(fn));
	else
		fmt_buf(fn, sizeof(fn), "<unknown>");
	/* A tag fault inside a library function with no symbol (glibc's
	 * memset variants, chosen by IFUNC, are local): its caller, as when a
	 * check runs before the call. */
	for (int i = 1; fn[0] == '0' && fn[1] == 'x' && i < n && i < 3; i++)
		sym_function(pcs[i], 0, fn, sizeof(fn));
	report_begin();
	report_printf("==================================================================\n");
	report_printf("BUG: KASAN: %s in %s\n", type, fn);
}

static void call_trace(const uintptr_t *pcs, int n, int exact)
{
	char comm[16];
	os_task_name(comm);
	report_printf("\nCPU: %d UID: %u PID: %d Comm: %s\nCall Trace:\n <TASK>\n", os_cpu(),
	              os_uid(), kasan_current_tid(), comm);
	sym_print_stack(pcs, n, exact);
	report_printf(" </TASK>\n\n");
}

enum stack_from { FROM_HERE, FROM_IP, FROM_FAULT };

static void report_access(uintptr_t addr, size_t size, int write, uintptr_t ip,
                          enum stack_from from, const void *uctx)
{
	int tags = kasan_mode != KASAN_GENERIC;
	uintptr_t bad = tags ? tags_first_bad(addr, size) : kasan_first_bad(addr, size);
	/* KASAN leaves KFENCE's objects to KFENCE, as in the kernel. */
	if (kfence_report_access(bad, write, from == FROM_IP ? ip : 0))
		return;
	if (!kasan_report_enter())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n;
	if (from == FROM_FAULT) {
		ip = fault_pc(uctx);
		n = stack_capture_from(ip, pcs, STACK_MAX_FRAMES);
	} else {
		n = stack_capture(pcs, STACK_MAX_FRAMES);
		if (from == FROM_IP)
			n = stack_trim_to(pcs, n, ip);
	}
	char comm[16];
	os_task_name(comm);
	int exact = from == FROM_FAULT;
	header(tags ? tags_bug_type(addr, size) : kasan_bug_type(addr, size, bad), ip, exact, pcs,
	       n);
	report_printf("%s of size %zu at addr %016lx by task %s/%d\n", write ? "Write" : "Read",
	              size, (unsigned long)addr, comm, kasan_current_tid());
	if (tags)
		tags_print_tags(addr, bad);
	call_trace(pcs, n, exact);
	describe_address(addr, bad);
	finish(write);
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
	           "report, aborting\n");
	os_die(SIGABRT);
}

void kasan_report_async(const void *uctx)
{
	if (!kasan_report_enter())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture_from(fault_pc(uctx), pcs, STACK_MAX_FRAMES);
	report_begin();
	report_printf("==================================================================\n");
	report_printf("BUG: KASAN: invalid-access\n");
	report_printf("Asynchronous fault: no details available\n");
	call_trace(pcs, n, 1);
	finish(0);
}

static void report_free(uintptr_t addr, const char *type)
{
	if (!kasan_report_enter())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture(pcs, STACK_MAX_FRAMES);
	char comm[16];
	os_task_name(comm);
	header(type, 0, 0, pcs, n);
	report_printf("Free of addr %016lx by task %s/%d\n", (unsigned long)addr, comm,
	              kasan_current_tid());
	if (kasan_mode != KASAN_GENERIC)
		tags_print_tags(addr, untag(addr));
	call_trace(pcs, n, 0);
	describe_address(addr, untag(addr));
	finish(1);
}

void kasan_report_free(uintptr_t addr, int known_chunk, uintptr_t ip)
{
	(void)ip; /* inside our free(): the caller is the first frame instead */
	report_free(addr, known_chunk ? "double-free" : "invalid-free");
}

void tags_report_free(uintptr_t addr, const char *bug_type, uintptr_t ip)
{
	(void)ip;
	report_free(addr, bug_type);
}
