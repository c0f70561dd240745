/* kmemleak's scan (the kernel's mm/kmemleak.c, in a process): with the
 * other threads stopped, every word of the roots that points into a live
 * object marks it, the marked objects are scanned in turn, and what stays
 * unmarked is unreferenced.
 *
 * The objects are the heaps' (base/leak_heap.h): each says which of the
 * process's mappings hold its objects, which object an address falls in,
 * and lists its live ones; kmemleak keeps no registry of its own, and the
 * allocation paths pay nothing. A word is taken for a pointer when it is
 * 8-byte aligned in memory and points anywhere inside a live object's
 * requested bytes (interior pointers count, as in LSan).
 *
 * Roots, as LSan's: the writable data of every loaded module (file-backed
 * writable mappings, and their .bss in the anonymous one just after, up
 * to the end the ELF header gives), every thread's registers and stack
 * from its stack pointer up, each thread's static TLS (around its thread
 * pointer), the regions the program registered, objects it asked to
 * ignore, objects the dynamic linker allocated (the TLS blocks and link
 * maps it keeps in its own memory: its code called the allocator), and
 * what the heaps add (KASAN's fake stacks and the objects it does not
 * track, KFENCE's sampled objects). */
#include <elf.h>
#include <link.h>

#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../platform/threads.h"
#include "../report/report.h"
#include "../stack/stack.h"
#include "kmemleak.h"
#include "scan.h"
#include "scan_private.h"

#define MAX_MAPS    65536
#define MAX_THREADS 16384
#define WORK_BYTES  (4ul << 30) /* reserved; pages used as the work list grows */

/* An object on the work list: the heap's record, with the heap's index in
 * its two low bits (records are 4-byte aligned, base/leak_heap.h). */
typedef uintptr_t work_item;
#define HEAP_BITS 3u

static inline work_item item(int heap, struct leak_object *o)
{
	return (uintptr_t)o | (unsigned)heap;
}

static inline const struct leak_heap *item_heap(work_item w)
{
	return kmemleak_heaps[w & HEAP_BITS];
}

static inline struct leak_object *item_object(work_item w)
{
	return (struct leak_object *)(w & ~(uintptr_t)HEAP_BITS);
}

struct os_map *scan_maps;
uint8_t *scan_map_has_heap; /* per map: holds objects */
/* A module's .bss in the same mapping as the heap after it (qemu-user's
 * brk, or any kernel that merges the two): [start, first object). */
#define MAX_BSS_HEAPS 8
static struct {
	uintptr_t start, end;
} bss_heap[MAX_BSS_HEAPS];
static int nbss_heap;
long scan_nmaps;
/* What the heaps are asked about: the private writable mappings, each's
 * index in maps, and the first object a heap has there. */
static struct leak_span *spans;
static long *span_map;
static uintptr_t *span_first;
struct os_thread *scan_threads;
static work_item *work;
static size_t nwork, work_max, work_peak;
static int overflow;
/* Objects not yet marked, where they were counted (the sampled check: a
 * few candidates among memory that is all roots); SIZE_MAX: not counted.
 * At 0 nothing is left to learn and the scan stops reading: a process
 * holding its sampled objects at exit, as most do, is spared reading the
 * rest of its memory once they are all reached. */
static size_t unmarked_left = SIZE_MAX;
static unsigned counted_heaps; /* a bit per heap whose objects were counted */
static uintptr_t lo_bound, hi_bound;
/* Words are looked up with their top byte cleared when a heap's pointers
 * carry tags there (base/leak_heap.h). */
static uintptr_t word_mask = UINTPTR_MAX;
/* The heaps whose objects are looked up, and where each keeps them. */
static int nfinders;
static struct {
	int heap;
	struct leak_span bounds;
} finders[KMEMLEAK_MAX_HEAPS];
uint64_t scan_own_path;

/* Set while a process is scanned from outside (kmemleak_scan_remote). */
const struct kmemleak_target *scan_remote;

/* The program's own heap is not tracked (kmemleak_roots_untracked): its
 * memory is roots, but for ukasan's own reservations. */
int scan_untracked_roots;
#define MAX_OWN 1024
struct os_range scan_own_ranges[MAX_OWN];
long scan_nown;

void kmemleak_roots_untracked(void)
{
	scan_untracked_roots = 1;
}

/* Why a check could not be made. Not said for the check nobody asked
 * for (the sampled one at the preload's defaults, where untracked_roots is
 * set): a production process's log gets nothing from it but noise. */
#define no_check(...)                                                                              \
	do {                                                                                       \
		if (!scan_untracked_roots || scan_remote)                                          \
			log_printf(__VA_ARGS__);                                                   \
	} while (0)

static int setup(void)
{
	if (!scan_maps) {
		scan_maps = os_reserve(MAX_MAPS * sizeof(*scan_maps), OS_PROT_RW);
		scan_map_has_heap = os_reserve(MAX_MAPS, OS_PROT_RW);
		spans = os_reserve(MAX_MAPS * sizeof(*spans), OS_PROT_RW);
		span_map = os_reserve(MAX_MAPS * sizeof(*span_map), OS_PROT_RW);
		span_first = os_reserve(MAX_MAPS * sizeof(*span_first), OS_PROT_RW);
		scan_threads = os_reserve(MAX_THREADS * sizeof(*scan_threads), OS_PROT_RW);
		work = os_reserve(WORK_BYTES, OS_PROT_RW);
		work_max = WORK_BYTES / sizeof(*work);
	}
	return scan_maps && scan_map_has_heap && spans && span_map && span_first && scan_threads &&
	               work
	           ? 0
	           : -1;
}

/* The live object whose requested bytes hold a, as a work item; else 0. */
static work_item find_live(uintptr_t a)
{
	a &= word_mask;
	if (a < lo_bound || a >= hi_bound)
		return 0;
	for (int i = 0; i < nfinders; i++)
		if (a - finders[i].bounds.start < finders[i].bounds.end - finders[i].bounds.start) {
			int h = finders[i].heap;
			struct leak_object *o = kmemleak_heaps[h]->find(a);
			if (o)
				return item(h, o);
		}
	return 0;
}

/* The mark stays in the object's record until the report pass clears it:
 * every object a heap's find returns must be one its each_live lists, or
 * a later scan would take it as marked already and never follow its
 * pointers (the objects behind it, false leaks). */
static void indirect_add(work_item w);
static work_item classifying; /* the leak whose words are read, in the second pass */

static void push(work_item w)
{
	if (classifying) {
		indirect_add(w);
		return;
	}
	if (item_heap(w)->flags_update(item_object(w), LEAK_MARKED, 0) & LEAK_MARKED)
		return;
	if (unmarked_left != SIZE_MAX && (counted_heaps >> (w & HEAP_BITS) & 1))
		unmarked_left--;
	if (nwork < work_max) {
		work[nwork++] = w;
		if (nwork > work_peak)
			work_peak = nwork;
	} else
		overflow = 1;
}

void scan_value(uintptr_t v)
{
	work_item w = find_live(v);
	if (w)
		push(w);
}

void scan_words(uintptr_t lo, uintptr_t hi)
{
	if (scan_remote) {
		scan_words_remote(lo, hi);
		return;
	}
	uintptr_t a = ALIGN_UP(lo, 8);
	if (a < hi)
		scan_values((const uintptr_t *)a, (hi - a) / 8);
}

/* Words read here or copied from another process (roots.c), each looked
 * up; none once every counted object is marked. */
void scan_values(const uintptr_t *v, size_t n)
{
	if (!unmarked_left)
		return;
	for (size_t i = 0; i < n; i++) {
		uintptr_t a = v[i] & word_mask;
		if (a < lo_bound || a >= hi_bound)
			continue;
		work_item w = find_live(a);
		if (w) {
			push(w);
			if (!unmarked_left)
				return;
		}
	}
}

/* The words of the object w, each looked up. */
static void scan_object(work_item w)
{
	struct leak_object_info info;
	item_heap(w)->describe(item_object(w), &info);
	/* Another process's record may lie (a size past its mapping): only
	 * what its maps say is readable is read. */
	if (scan_remote)
		scan_range(info.base, info.base + ALIGN_DOWN(info.size, 8));
	else
		scan_words(info.base, info.base + ALIGN_DOWN(info.size, 8));
}

static void drain(void)
{
	while (nwork && unmarked_left)
		scan_object(work[--nwork]);
	nwork = 0;
}

/* Roots among the objects: ignored ones, and the dynamic linker's (its
 * TLS blocks, link maps), as LSan's: those whose allocator was called
 * from the linker's code. Not deeper in the stack: a library's
 * constructor, which the linker calls, allocates as the program does. */
static void root_object(struct leak_object *o, void *arg)
{
	int h = (int)(intptr_t)arg;
	struct leak_object_info info;
	kmemleak_heaps[h]->describe(o, &info);
	if (info.flags & LEAK_IGNORED) {
		push(item(h, o));
		return;
	}
	const uintptr_t *pcs;
	int n = scan_remote ? scan_remote->fetch_stack(info.stack, &pcs)
	                    : depot_fetch(info.stack, &pcs);
	if (n > 0 && roots_in_linker(pcs[0]))
		push(item(h, o));
}

static void count_object(struct leak_object *o, void *arg)
{
	(void)o;
	++*(size_t *)arg;
}

static void scan_root(uintptr_t lo, uintptr_t hi, void *arg)
{
	(void)arg;
	scan_range(lo, hi);
}

/* Asks each heap which of the private writable mappings hold its objects
 * (and the bounds of where any object lies). */
static int find_heap(void)
{
	long n = 0;
	for (long i = 0; i < scan_nmaps; i++) {
		const struct os_map *m = &scan_maps[i];
		scan_map_has_heap[i] = 0;
		if ((m->flags & (OS_MAP_R | OS_MAP_W)) != (OS_MAP_R | OS_MAP_W) ||
		    (m->flags & (OS_MAP_FILE | OS_MAP_SPECIAL | OS_MAP_STACK)))
			continue;
		spans[n].start = m->start;
		spans[n].end = m->end;
		span_map[n++] = i;
	}
	lo_bound = UINTPTR_MAX;
	hi_bound = 0;
	nbss_heap = 0;
	nfinders = 0;
	word_mask = UINTPTR_MAX;
	for (int h = 0; h < kmemleak_nheaps; h++) {
		const struct leak_heap *heap = kmemleak_heaps[h];
		if (heap->tagged)
			word_mask = ((uintptr_t)1 << 56) - 1;
		if (!heap->scan_begin)
			continue;
		struct leak_span b = {0, 0};
		if (heap->scan_begin(spans, n, span_first, &b) != 0) {
			no_check("ukasan: kmemleak: the %s heap cannot be scanned; no leak check\n",
			         heap->name);
			return -1;
		}
		for (long k = 0; k < n; k++) {
			long i = span_map[k];
			if (!span_first[k])
				continue;
			if (!scan_map_has_heap[i] && roots_follows_module(i) &&
			    nbss_heap < MAX_BSS_HEAPS) {
				bss_heap[nbss_heap].start = scan_maps[i].start;
				bss_heap[nbss_heap++].end = span_first[k];
			}
			scan_map_has_heap[i] = 1;
		}
		if (heap->find && b.start < b.end) {
			finders[nfinders].heap = h;
			finders[nfinders++].bounds = b;
			lo_bound = b.start < lo_bound ? b.start : lo_bound;
			hi_bound = b.end > hi_bound ? b.end : hi_bound;
		}
	}
	return 0;
}

/* ---- Direct and indirect leaks ----
 * As LSan, a leak another leak points to is indirect (lost with the one
 * that points to it; a cycle's members are all indirect), else direct: the
 * leaks' words are read once more, and the unmarked objects they point
 * to, other than themselves, go in a set. LSan prints direct leaks first,
 * and ClusterFuzz takes its crash state from the first: report.c too. */
#define INDIRECT_BYTES (1ul << 30) /* reserved; used as far as the leaks need */
static work_item *indirect;
static size_t indirect_mask; /* the set's slots less one; 0: no set */
static size_t nleaks;

static int unmarked(work_item w)
{
	return !(item_heap(w)->flags_update(item_object(w), 0, 0) & (LEAK_MARKED | LEAK_IGNORED));
}

static size_t indirect_slot(work_item w)
{
	uint64_t x = (uint64_t)w * 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 32) & indirect_mask;
}

static void indirect_add(work_item w)
{
	if (w == classifying || !unmarked(w))
		return;
	for (size_t i = indirect_slot(w);; i = (i + 1) & indirect_mask) {
		if (indirect[i] == w)
			return;
		if (!indirect[i]) {
			indirect[i] = w;
			return;
		}
	}
}

static int indirect_has(work_item w)
{
	if (!indirect_mask)
		return 0;
	for (size_t i = indirect_slot(w);; i = (i + 1) & indirect_mask) {
		if (indirect[i] == w)
			return 1;
		if (!indirect[i])
			return 0;
	}
}

/* Counts the leaks while there is no set, then reads each one's words. */
static void classify_leak(struct leak_object *o, void *arg)
{
	work_item w = item((int)(intptr_t)arg, o);
	if (!unmarked(w))
		return;
	if (!indirect_mask) {
		nleaks++;
		return;
	}
	classifying = w;
	scan_object(w);
	classifying = 0;
}

/* Fills the set; with no room for it (or no leak), every leak is direct. */
static void classify(void)
{
	indirect_mask = nleaks = 0;
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < nfinders; i++)
			kmemleak_heaps[finders[i].heap]->each_live(
			    classify_leak, (void *)(intptr_t)finders[i].heap);
		size_t slots = 16;
		while (slots < 2 * nleaks && slots < INDIRECT_BYTES / sizeof(*indirect))
			slots *= 2;
		if (pass || !nleaks || slots < 2 * nleaks ||
		    (!indirect && !(indirect = os_reserve(INDIRECT_BYTES, OS_PROT_RW))))
			return;
		indirect_mask = slots - 1;
	}
}

struct report_pass {
	int heap;
	leak_fn fn;
	void *arg;
};

/* The last pass over every object: its mark cleared, and, after a whole
 * scan, passed on when it had none. */
static void report_object(struct leak_object *o, void *arg)
{
	struct report_pass *r = arg;
	const struct leak_heap *h = kmemleak_heaps[r->heap];
	int indirect_leak = r->fn && indirect_has(item(r->heap, o));
	unsigned flags = h->flags_update(o, 0, LEAK_MARKED);
	if (r->fn && !(flags & (LEAK_MARKED | LEAK_IGNORED)))
		r->fn(h, o, indirect_leak, r->arg);
}

/* With the other threads stopped. */
static int mark(const struct kmemleak_caller *self, long nthreads)
{
	scan_nmaps = scan_remote ? os_maps_read_path(scan_remote->maps_path, scan_maps, MAX_MAPS)
	                         : os_maps_read(scan_maps, MAX_MAPS);
	if (scan_nmaps <= 0) {
		scan_nmaps = 0;
		no_check("ukasan: kmemleak: %s unreadable; no leak check\n",
		         scan_remote ? scan_remote->maps_path : "/proc/self/maps");
		return -1;
	}
	roots_find_own((uintptr_t)mark);
	if (find_heap() != 0)
		return -1;
	for (long i = 0; i < nthreads; i++)
		if (scan_threads[i].state == OS_THREAD_BLOCKING && !scan_threads[i].sp) {
			no_check(
			    "ukasan: kmemleak: thread %d could not be stopped and its stack is "
			    "unknown; no leak check\n",
			    scan_threads[i].tid);
			return -1;
		}
	nwork = 0;
	overflow = 0;
	int untracked = scan_untracked_roots && self;
	unmarked_left = SIZE_MAX;
	if (untracked) {
		size_t n = 0;
		counted_heaps = 0;
		for (int i = 0; i < nfinders; i++) {
			kmemleak_heaps[finders[i].heap]->each_live(count_object, &n);
			counted_heaps |= 1u << finders[i].heap;
		}
		unmarked_left = n;
	}
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->each_live)
			kmemleak_heaps[h]->each_live(root_object, (void *)(intptr_t)h);
	/* What looks like a module's .bss may be one of ukasan's own
	 * reservations, placed right after the module's data (KFENCE's
	 * metadata after libgcc_s.so's, which hid every sampled leak). */
	scan_nown = scan_remote ? 0
	                        : os_own_ranges(scan_own_ranges,
	                                        MAX_OWN); /* the tool's mean nothing there */
	for (long i = 0; i < scan_nmaps; i++)
		if (roots_is_module_data(i))
			scan_not_own(scan_maps[i].start, roots_module_data_end(i));
	for (int i = 0; i < nbss_heap; i++)
		scan_not_own(bss_heap[i].start, bss_heap[i].end);
	if (self)
		scan_thread(self->sp, os_thread_pointer(), self->regs, ARCH_CALLEE_SAVED, 0);
	for (long i = 0; i < nthreads; i++) {
		const struct os_thread *t = &scan_threads[i];
		if (t->state == OS_THREAD_STOPPED)
			scan_thread(t->sp, t->tp, t->regs, OS_THREAD_REGS, 128);
		else if (t->state ==
		         OS_THREAD_BLOCKING) /* no registers: all its stack below sp too */
			scan_thread(t->sp, 0, NULL, 0, 4096);
	}
	for (int i = 0; i < kmemleak_nroots; i++) { /* a tagged pointer's region: where it points */
		uintptr_t p = kmemleak_roots[i].p & word_mask;
		scan_range(p, p + kmemleak_roots[i].size);
	}
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->each_root)
			kmemleak_heaps[h]->each_root(scan_root, NULL);
	/* The bulk last, where the rest (and the objects it reached) may have
	 * reached every candidate. */
	if (untracked) {
		drain();
		scan_untracked(self->sp, nthreads);
	}
	drain();
	if (overflow) {
		no_check("ukasan: kmemleak: too many objects to scan; no leak check\n");
		return -1;
	}
	return 0;
}

struct scan_args {
	const struct kmemleak_caller *self;
	long nthreads;
	leak_fn fn;
	void *arg;
	int ret;
};

/* With the other threads stopped: mark, then clear the marks and, after a
 * whole scan, pass on what has none. */
static void scan_stopped(void *p)
{
	struct scan_args *a = p;
	nfinders = 0;
	a->ret = mark(a->self, a->nthreads);
	unmarked_left = SIZE_MAX;
	indirect_mask = 0;
	if (a->ret == 0 && a->fn)
		classify();
	for (int i = 0; i < nfinders; i++) {
		struct report_pass r = {finders[i].heap, a->ret == 0 ? a->fn : NULL, a->arg};
		kmemleak_heaps[r.heap]->each_live(report_object, &r);
	}
	if (indirect_mask)
		os_discard(indirect, (indirect_mask + 1) * sizeof(*indirect));
	indirect_mask = 0;
}

/* This thread's stack is scanned from its caller's frame up, not from
 * here: the scan's own frames hold stale words of earlier calls (a lost
 * pointer left in a dead slot by malloc's frames would be found). */
int kmemleak_scan(const struct kmemleak_caller *self, leak_fn fn, void *arg)
{
	if (setup() != 0)
		return -1;
	/* Stopped first: the maps are read after, so that no arena or stack
	 * appears unseen. */
	long nthreads = os_threads_stop(scan_threads, MAX_THREADS);
	if (nthreads < 0) {
		no_check("ukasan: kmemleak: no real-time signal free to stop threads; no leak "
		         "check\n");
		return -1;
	}
	struct scan_args a = {self, nthreads, fn, arg, -1};
	/* Guarded: a thread that could not be stopped, or an object that is
	 * not what its header says, may leave memory unreadable under the
	 * scan; that ends the check, not the program. */
	int ret = a.ret;
	uintptr_t fault = 0;
	if (signals_guarded(scan_stopped, &a, &fault) != 0)
		no_check("ukasan: kmemleak: memory changed under the scan (a fault at 0x%lx); no "
		         "leak check\n",
		         (unsigned long)fault);
	else
		ret = a.ret;
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->scan_end)
			kmemleak_heaps[h]->scan_end();
	os_threads_resume();
	os_discard(work, ALIGN_UP(work_peak * sizeof(*work), 4096));
	work_peak = 0;
	return ret;
}

/* ---- From outside: `ukasan leaks PID` ----
 * roots.c reads the other process's memory a window at a time
 * (scan_words_remote); its words are looked up by scan_values. */

int kmemleak_scan_remote(const struct kmemleak_target *t, leak_fn fn, void *arg)
{
	if (setup() != 0 || t->nthreads < 0)
		return -1;
	long n = t->nthreads < MAX_THREADS ? t->nthreads : MAX_THREADS;
	rt_memcpy(scan_threads, t->threads, (size_t)n * sizeof(*scan_threads));
	scan_remote = t;
	roots_remote_begin();
	struct scan_args a = {NULL, n, fn, arg, -1};
	scan_stopped(&a);
	scan_remote = NULL;
	os_discard(work, ALIGN_UP(work_peak * sizeof(*work), 4096));
	work_peak = 0;
	return a.ret;
}
