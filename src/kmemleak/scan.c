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
 * writable mappings, and the anonymous one just after, their .bss), every
 * thread's registers and stack from its stack pointer up, each thread's
 * static TLS (around its thread pointer), the regions the program
 * registered, objects it asked to ignore, objects the dynamic linker
 * allocated (the TLS blocks and link maps it keeps in its own memory), and
 * what the heaps add (KASAN's fake stacks and the objects it does not
 * track, KFENCE's sampled objects). */
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

#define MAX_MAPS    65536
#define MAX_THREADS 16384
#define MAX_ROOTS   256
#define WORK_BYTES  (4ul << 30) /* reserved; pages used as the work list grows */

/* The heaps the composition root handed over, in its order. */
#define KMEMLEAK_MAX_HEAPS 4
static const struct leak_heap *kmemleak_heaps[KMEMLEAK_MAX_HEAPS];
static int kmemleak_nheaps;

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

static struct os_map *maps;
static uint8_t *map_has_heap; /* per map: holds objects */
/* A module's .bss in the same mapping as the heap after it (qemu-user's
 * brk, or any kernel that merges the two): [start, first object). */
#define MAX_BSS_HEAPS 8
static struct {
	uintptr_t start, end;
} bss_heap[MAX_BSS_HEAPS];
static int nbss_heap;
static long nmaps;
/* What the heaps are asked about: the private writable mappings, each's
 * index in maps, and the first object a heap has there. */
static struct leak_span *spans;
static long *span_map;
static uintptr_t *span_first;
static struct os_thread *threads;
static work_item *work;
static size_t nwork, work_max, work_peak;
static int overflow;
static uintptr_t lo_bound, hi_bound;
/* The heaps whose objects are looked up, and where each keeps them. */
static int nfinders;
static struct {
	int heap;
	struct leak_span bounds;
} finders[KMEMLEAK_MAX_HEAPS];
static uint64_t own_path;

static struct {
	uintptr_t p;
	size_t size;
} roots[MAX_ROOTS];
static int nroots;

void kmemleak_add_heap(const struct leak_heap *h)
{
	if (h && kmemleak_nheaps < KMEMLEAK_MAX_HEAPS)
		kmemleak_heaps[kmemleak_nheaps++] = h;
}

int kmemleak_active(void)
{
	if (!opt.kmemleak)
		return 0;
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->find)
			return 1;
	return 0;
}

void kmemleak_disable(void)
{
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->thread_ignore)
			kmemleak_heaps[h]->thread_ignore(1);
}

void kmemleak_enable(void)
{
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->thread_ignore)
			kmemleak_heaps[h]->thread_ignore(0);
}

void kmemleak_ignore(const void *p)
{
	if (!kmemleak_active())
		return;
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->ignore && kmemleak_heaps[h]->ignore((uintptr_t)p))
			return;
}

void kmemleak_root_region(const void *p, size_t size, int add)
{
	report_hold();
	if (add && nroots < MAX_ROOTS) {
		roots[nroots].p = (uintptr_t)p;
		roots[nroots++].size = size;
	} else if (!add)
		for (int i = 0; i < nroots; i++)
			if (roots[i].p == (uintptr_t)p && roots[i].size == size) {
				roots[i] = roots[--nroots];
				break;
			}
	report_release();
}

static int setup(void)
{
	if (!maps) {
		maps = os_reserve(MAX_MAPS * sizeof(*maps), OS_PROT_RW);
		map_has_heap = os_reserve(MAX_MAPS, OS_PROT_RW);
		spans = os_reserve(MAX_MAPS * sizeof(*spans), OS_PROT_RW);
		span_map = os_reserve(MAX_MAPS * sizeof(*span_map), OS_PROT_RW);
		span_first = os_reserve(MAX_MAPS * sizeof(*span_first), OS_PROT_RW);
		threads = os_reserve(MAX_THREADS * sizeof(*threads), OS_PROT_RW);
		work = os_reserve(WORK_BYTES, OS_PROT_RW);
		work_max = WORK_BYTES / sizeof(*work);
	}
	return maps && map_has_heap && spans && span_map && span_first && threads && work ? 0 : -1;
}

static long map_of(uintptr_t a)
{
	long l = 0, h = nmaps;
	while (l < h) {
		long m = (l + h) / 2;
		if (a < maps[m].start)
			h = m;
		else if (a >= maps[m].end)
			l = m + 1;
		else
			return m;
	}
	return -1;
}

/* The live object whose requested bytes hold a, as a work item; else 0. */
static work_item find_live(uintptr_t a)
{
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
static void push(work_item w)
{
	if (item_heap(w)->flags_update(item_object(w), LEAK_MARKED, 0) & LEAK_MARKED)
		return;
	if (nwork < work_max) {
		work[nwork++] = w;
		if (nwork > work_peak)
			work_peak = nwork;
	} else
		overflow = 1;
}

static void scan_words(uintptr_t lo, uintptr_t hi)
{
	for (uintptr_t a = ALIGN_UP(lo, 8); a + 8 <= hi; a += 8) {
		uintptr_t v = *(const uintptr_t *)a;
		if (v < lo_bound || v >= hi_bound)
			continue;
		work_item w = find_live(v);
		if (w)
			push(w);
	}
}

/* Only what the maps say is readable. */
static void scan_range(uintptr_t lo, uintptr_t hi)
{
	while (lo < hi) {
		long m = map_of(lo);
		if (m < 0) {
			/* Up to the next mapping. */
			long l = 0, h = nmaps;
			while (l < h) {
				long mid = (l + h) / 2;
				if (maps[mid].start <= lo)
					l = mid + 1;
				else
					h = mid;
			}
			if (l >= nmaps)
				return;
			lo = maps[l].start;
			continue;
		}
		uintptr_t end = maps[m].end < hi ? maps[m].end : hi;
		if ((maps[m].flags & OS_MAP_R) && !(maps[m].flags & OS_MAP_SPECIAL))
			scan_words(lo, end);
		lo = end;
	}
}

static void drain(void)
{
	while (nwork) {
		work_item w = work[--nwork];
		struct leak_object_info info;
		item_heap(w)->describe(item_object(w), &info);
		scan_words(info.base, info.base + ALIGN_DOWN(info.size, 8));
	}
}

/* The anonymous mapping right after a module's file-backed part (not
 * ours): where the dynamic linker maps its .bss. */
static int follows_module(long i)
{
	return i > 0 && maps[i - 1].end == maps[i].start && (maps[i - 1].flags & OS_MAP_FILE) &&
	       maps[i - 1].path_hash != own_path;
}

/* Code that belongs to the dynamic linker. */
static int in_linker(uintptr_t pc)
{
	long m = map_of(pc);
	return m >= 0 && (maps[m].flags & (OS_MAP_LINKER | OS_MAP_X)) == (OS_MAP_LINKER | OS_MAP_X);
}

/* Roots among the objects: ignored ones, and the dynamic linker's. */
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
	int n = depot_fetch(info.stack, &pcs);
	for (int i = 0; i < n && i < 3; i++)
		if (in_linker(pcs[i])) {
			push(item(h, o));
			return;
		}
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
	for (long i = 0; i < nmaps; i++) {
		const struct os_map *m = &maps[i];
		map_has_heap[i] = 0;
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
	for (int h = 0; h < kmemleak_nheaps; h++) {
		const struct leak_heap *heap = kmemleak_heaps[h];
		if (!heap->scan_begin)
			continue;
		struct leak_span b = {0, 0};
		if (heap->scan_begin(spans, n, span_first, &b) != 0) {
			log_printf(
			    "ukasan: kmemleak: the %s heap cannot be scanned; no leak check\n",
			    heap->name);
			return -1;
		}
		for (long k = 0; k < n; k++) {
			long i = span_map[k];
			if (!span_first[k])
				continue;
			if (!map_has_heap[i] && follows_module(i) && nbss_heap < MAX_BSS_HEAPS) {
				bss_heap[nbss_heap].start = maps[i].start;
				bss_heap[nbss_heap++].end = span_first[k];
			}
			map_has_heap[i] = 1;
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

static int is_module_data(long i)
{
	const struct os_map *m = &maps[i];
	if ((m->flags & (OS_MAP_R | OS_MAP_W)) != (OS_MAP_R | OS_MAP_W) || map_has_heap[i])
		return 0;
	if (m->flags & OS_MAP_FILE)
		return m->path_hash != own_path;
	/* .bss: anonymous, right after the module's file-backed part. */
	return !(m->flags & (OS_MAP_SPECIAL | OS_MAP_STACK | OS_MAP_HEAP)) && follows_module(i);
}

/* A thread's stack from sp up, its registers, and its static TLS. */
static void scan_thread(uintptr_t sp, uintptr_t tp, const uintptr_t *regs, int nregs, size_t below)
{
	for (int i = 0; i < nregs; i++) {
		work_item w = find_live(regs[i]);
		if (w)
			push(w);
	}
	long m = map_of(sp);
	if (m >= 0) /* below: the red zone of x86-64's ABI, for interrupted threads */
		scan_range(sp - below > maps[m].start ? sp - below : maps[m].start, maps[m].end);
	long t = tp ? map_of(tp) : -1;
	if (t < 0 || t == m || is_module_data(t))
		return;
	/* glibc puts static TLS beside the thread pointer (below it on
	 * x86-64, above on arm64), and for the main thread in a small mapping
	 * of the dynamic linker's: that mapping whole, or around tp. */
	if (!map_has_heap[t] && maps[t].end - maps[t].start <= (16ul << 20))
		scan_range(maps[t].start, maps[t].end);
	else
		scan_range(tp > (64ul << 10) ? tp - (64ul << 10) : 0, tp + (64ul << 10));
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
	unsigned flags = h->flags_update(o, 0, LEAK_MARKED);
	if (r->fn && !(flags & (LEAK_MARKED | LEAK_IGNORED)))
		r->fn(h, o, r->arg);
}

/* With the other threads stopped. */
static int mark(const struct kmemleak_caller *self, long nthreads)
{
	nmaps = os_maps_read(maps, MAX_MAPS);
	if (nmaps <= 0) {
		nmaps = 0;
		log_printf("ukasan: kmemleak: /proc/self/maps unreadable; no leak check\n");
		return -1;
	}
	long own = map_of((uintptr_t)mark);
	own_path = own >= 0 ? maps[own].path_hash : 0;
	if (find_heap() != 0)
		return -1;
	for (long i = 0; i < nthreads; i++)
		if (threads[i].state == OS_THREAD_BLOCKING && !threads[i].sp) {
			log_printf(
			    "ukasan: kmemleak: thread %d could not be stopped and its stack is "
			    "unknown; no leak check\n",
			    threads[i].tid);
			return -1;
		}
	nwork = 0;
	overflow = 0;
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->each_live)
			kmemleak_heaps[h]->each_live(root_object, (void *)(intptr_t)h);
	for (long i = 0; i < nmaps; i++)
		if (is_module_data(i))
			scan_range(maps[i].start, maps[i].end);
	for (int i = 0; i < nbss_heap; i++)
		scan_range(bss_heap[i].start, bss_heap[i].end);
	scan_thread(self->sp, os_thread_pointer(), self->regs, ARCH_CALLEE_SAVED, 0);
	for (long i = 0; i < nthreads; i++) {
		const struct os_thread *t = &threads[i];
		if (t->state == OS_THREAD_STOPPED)
			scan_thread(t->sp, t->tp, t->regs, OS_THREAD_REGS, 128);
		else if (t->state ==
		         OS_THREAD_BLOCKING) /* no registers: all its stack below sp too */
			scan_thread(t->sp, 0, NULL, 0, 4096);
	}
	for (int i = 0; i < nroots; i++)
		scan_range(roots[i].p, roots[i].p + roots[i].size);
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->each_root)
			kmemleak_heaps[h]->each_root(scan_root, NULL);
	drain();
	if (overflow) {
		log_printf("ukasan: kmemleak: too many objects to scan; no leak check\n");
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
	for (int i = 0; i < nfinders; i++) {
		struct report_pass r = {finders[i].heap, a->ret == 0 ? a->fn : NULL, a->arg};
		kmemleak_heaps[r.heap]->each_live(report_object, &r);
	}
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
	long nthreads = os_threads_stop(threads, MAX_THREADS);
	if (nthreads < 0) {
		log_printf("ukasan: kmemleak: no real-time signal free to stop threads; no leak "
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
		log_printf("ukasan: kmemleak: memory changed under the scan (a fault at 0x%lx); no "
		           "leak check\n",
		           (unsigned long)fault);
	else
		ret = a.ret;
	os_threads_resume();
	os_discard(work, ALIGN_UP(work_peak * sizeof(*work), 4096));
	work_peak = 0;
	return ret;
}
