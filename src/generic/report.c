/* KASAN reports in the kernel's format (mm/kasan/report.c). */
#include <signal.h>
#include <string.h>

#include "../core/common.h"

#include "../alloc/kasan_alloc.h"
#include "../core/log.h"
#include "../core/options.h"
#include "../kfence/kfence.h"
#include "../platform/os.h"
#include "../report/symbolize.h"
#include "../shadow/shadow.h"
#include "kasan.h"

static const char *const cache_names[] = {"malloc",   "calloc", "realloc",
                                          "memalign", "new",    "new[]"};

static int reported;
static __thread int depth __attribute__((tls_model("initial-exec")));
int kasan_current_tid(void)
{
	return os_tid();
}

static uintptr_t first_bad_addr(uintptr_t addr, size_t size)
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

static const char *bug_type(uintptr_t addr, size_t size, uintptr_t bad)
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
	case SHADOW_VMALLOC_INVALID:
		return "vmalloc-out-of-bounds";
	case SHADOW_NULL_PAGE:
		return "null-ptr-deref";
	default:
		return "unknown-crash";
	}
}

static void print_stack_handle(const char *what, uint32_t tid, depot_handle_t h)
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

static void describe_chunk(uintptr_t addr, const struct chunk *c)
{
	int freed = (c->state & ~CHUNK_LARGE) == CHUNK_QUARANTINED;
	uintptr_t obj = chunk_object(c);
	size_t size = chunk_size(c);
	print_stack_handle("Allocated", c->alloc_tid, c->alloc_stack);
	if (freed) {
		const struct free_meta *fm = chunk_free_meta(c);
		print_stack_handle("Freed", fm->free_tid, fm->free_stack);
	}
	report_printf("The buggy address belongs to the object at %016lx\n", (unsigned long)obj);
	report_printf(" which belongs to the cache %s%s of size %zu\n", cache_names[c->api % 6],
	              (c->state & CHUNK_LARGE) ? "-large" : "", size);
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

static void describe_global(uintptr_t addr, const struct asan_global *g)
{
	report_printf("The buggy address belongs to the variable:\n");
	report_printf(" %s+0x%lx/0x%lx", g->name, (unsigned long)(addr - g->beg),
	              (unsigned long)g->size_with_redzone);
	if (g->location && g->location->file)
		report_printf(" %s:%d", g->location->file, g->location->line);
	report_printf("\n");
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

static int describe_stack(uintptr_t addr)
{
	uintptr_t lo, hi;
	char comm[16];
	if (stack_bounds(&lo, &hi) != 0 || addr < lo || addr >= hi)
		return 0;
	os_task_name(comm);
	report_printf("The buggy address belongs to stack of task %s/%d\n", comm,
	              kasan_current_tid());
	const int8_t *sp = shadow_of(addr), *bottom = shadow_of(lo);
	while (sp >= bottom && (uint8_t)*sp != SHADOW_STACK_LEFT)
		sp--;
	while (sp >= bottom && (uint8_t)*sp == SHADOW_STACK_LEFT)
		sp--;
	const uintptr_t *frame = (const uintptr_t *)shadow_to_mem(sp + 1);
	if (sp < bottom || (uintptr_t)frame < lo || frame[0] != FRAME_MAGIC) {
		report_printf("\n");
		return 1;
	}
	char fn[256];
	sym_function(frame[2], 1, fn, sizeof(fn));
	report_printf(" and is located at offset %lu in frame:\n %s\n",
	              (unsigned long)(addr - (uintptr_t)frame), fn);
	if (frame[1])
		print_frame_objects((const char *)frame[1]);
	report_printf("\n");
	return 1;
}

static void print_shadow(uintptr_t bad)
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

/* What the address belongs to (heap object, global or stack), then the
 * shadow around the first bad byte. */
static void describe_address(uintptr_t addr, uintptr_t bad)
{
	struct chunk *c = shadow_covers(addr) ? kasan_find_chunk(bad) : NULL;
	const struct asan_global *g = c ? NULL : kasan_find_global(bad);
	if (c)
		describe_chunk(addr, c);
	else if (g)
		describe_global(addr, g);
	if (c || g)
		report_printf("\n");
	else if (shadow_covers(addr))
		describe_stack(addr);
	if (shadow_covers(bad))
		print_shadow(bad);
}

static int begin(void)
{
	if (depth)
		return 0;
	if (!opt.kasan_multi_shot && __atomic_exchange_n(&reported, 1, __ATOMIC_RELAXED))
		return 0;
	depth++;
	return 1;
}

static void finish(int write)
{
	report_printf("==================================================================\n");
	report_end();
	depth--;
	if (opt.kasan_fault == FAULT_PANIC || (opt.kasan_fault == FAULT_PANIC_ON_WRITE && write)) {
		log_printf("ukasan: kasan.fault=%s set, aborting\n",
		           opt.kasan_fault == FAULT_PANIC ? "panic" : "panic_on_write");
		os_die(SIGABRT);
	}
}

/* As the kernel's, the title names the function that made the access: the
 * return address of the check, so for memcpy and friends their caller. */
static void header(const char *type, uintptr_t ip, const uintptr_t *pcs, int n)
{
	char fn[256];
	if (ip)
		sym_function(ip, 0, fn, sizeof(fn));
	else if (n)
		sym_function(pcs[0], 0, fn, sizeof(fn));
	else
		fmt_buf(fn, sizeof(fn), "<unknown>");
	report_begin();
	report_printf("==================================================================\n");
	report_printf("BUG: KASAN: %s in %s\n", type, fn);
}

static void call_trace(const uintptr_t *pcs, int n)
{
	char comm[16];
	os_task_name(comm);
	report_printf("\nCPU: %d UID: %u PID: %d Comm: %s\nCall Trace:\n <TASK>\n", os_cpu(),
	              os_uid(), kasan_current_tid(), comm);
	sym_print_stack(pcs, n, 0);
	report_printf(" </TASK>\n\n");
}

static void report_access(uintptr_t addr, size_t size, int write, uintptr_t ip, int from_ip)
{
	uintptr_t bad = first_bad_addr(addr, size);
	/* KASAN leaves KFENCE's objects to KFENCE, as in the kernel. */
	if (kfence_report_access(bad, write, from_ip ? ip : 0))
		return;
	if (!begin())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture(pcs, STACK_MAX_FRAMES);
	if (from_ip)
		n = stack_trim_to(pcs, n, ip);
	char comm[16];
	os_task_name(comm);
	header(bug_type(addr, size, bad), ip, pcs, n);
	report_printf("%s of size %zu at addr %016lx by task %s/%d\n", write ? "Write" : "Read",
	              size, (unsigned long)addr, comm, kasan_current_tid());
	call_trace(pcs, n);
	describe_address(addr, bad);
	finish(write);
}

void kasan_report(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	report_access(addr, size, write, ip, 0);
}

void kasan_report_from(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	report_access(addr, size, write, ip, 1);
}

void kasan_report_free(uintptr_t addr, int known_chunk, uintptr_t ip)
{
	(void)ip; /* inside our free(): the caller is the first frame instead */
	if (!begin())
		return;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture(pcs, STACK_MAX_FRAMES);
	char comm[16];
	os_task_name(comm);
	header(known_chunk ? "double-free" : "invalid-free", 0, pcs, n);
	report_printf("Free of addr %016lx by task %s/%d\n", (unsigned long)addr, comm,
	              kasan_current_tid());
	call_trace(pcs, n);
	describe_address(addr, addr);
	finish(1);
}

/* A shadow load faulted in the gap: the program accessed the shadow region
 * itself (a wild pointer). Like the kernel's hint for non-canonical
 * addresses, the range is known to a granule; size and direction are not. */
void kasan_report_wild_fault(uintptr_t shadow_addr, uintptr_t pc)
{
	if (!begin())
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
	depth--;
}
