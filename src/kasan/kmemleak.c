/* kmemleak's scan of generic mode's heap (the kernel's mm/kmemleak.c, in
 * a process): with the other threads stopped, every word of the roots that
 * points into a live object marks it, the marked objects are scanned in
 * turn, and what stays unmarked is unreferenced.
 *
 * No registry of live objects is kept: the allocator's shadow already says
 * where every object starts (its left redzone ends there), so the scan
 * finds the objects by reading the shadow of the heap's mappings, 1/8 of
 * their size, and the allocation path pays nothing. A word is taken for a
 * pointer when it is 8-byte aligned in memory and points anywhere inside a
 * live object's requested bytes (interior pointers count, as in LSan); its
 * object is found by walking the shadow left to the redzone.
 *
 * Roots, as LSan's: the writable data of every loaded module (file-backed
 * writable mappings, and the anonymous one just after, their .bss), every
 * thread's registers and stack from its stack pointer up, each thread's
 * static TLS (around its thread pointer), the regions the program
 * registered, objects it asked to ignore, and objects the dynamic linker
 * allocated (the TLS blocks and link maps it keeps in its own memory).
 * Objects we do not list are scanned as roots: KFENCE's sampled objects and
 * unsampled large ones. */
#include "../base/compiler.h"
#include "../config/log.h"
#include "../kfence/kfence.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../platform/threads.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "generic.h"
#include "kmemleak.h"
#include "kmemleak_scan.h"
#include "mode.h"
#include "object.h"

#define MAX_MAPS    65536
#define MAX_THREADS 16384
#define MAX_ROOTS   256
#define WORK_BYTES  (4ul << 30) /* reserved; pages used as the work list grows */

static struct os_map *maps;
static uint8_t *heapy; /* per map: holds objects */
/* A module's .bss in the same mapping as the heap after it (qemu-user's
 * brk, or any kernel that merges the two): [start, first object). */
#define MAX_BSS_HEAPS 8
static struct {
	uintptr_t start, end;
} bss_heap[MAX_BSS_HEAPS];
static int nbss_heap;
static long nmaps;
static struct os_thread *threads;
static struct chunk **work;
static size_t nwork, work_max, work_peak;
static int overflow;
static uintptr_t lo_bound, hi_bound;
static uint64_t own_path;

static struct {
	uintptr_t p;
	size_t size;
} roots[MAX_ROOTS];
static int nroots;

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
		heapy = os_reserve(MAX_MAPS, OS_PROT_RW);
		threads = os_reserve(MAX_THREADS * sizeof(*threads), OS_PROT_RW);
		work = os_reserve(WORK_BYTES, OS_PROT_RW);
		work_max = WORK_BYTES / sizeof(*work);
	}
	return maps && heapy && threads && work ? 0 : -1;
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

/* A live small object's header. Memory that only looks like one (a run
 * of bytes equal to CHUNK_LIVE where the shadow happens to end a redzone:
 * a fuzzer's repeated bytes) has an impossible size, and the scan would
 * read gigabytes past the heap. */
static int small_live(const struct chunk *c)
{
	if (!c || c->state != CHUNK_LIVE || c->size >= 4096)
		return 0;
	if (!c->size)
		return 1;
	/* Its end as the shadow marks it: a partial granule or a poisoned one
	 * (the right redzone, or the program's own poisoning, as a container's
	 * unused tail), never an addressable one. */
	uintptr_t end = chunk_object(c) + c->size;
	int8_t tail = *shadow_of(ALIGN_DOWN(end, GRANULE));
	return tail < 0 || ((end & (GRANULE - 1)) && tail == (int8_t)(end & (GRANULE - 1)));
}

/* Whether the scan must look for objects of size 0 inside redzones (the
 * shadow shows no start for them: their first granule is redzone). */
static int empties;

/* The live object of size 0 that starts at a, if any. */
static struct chunk *empty_at(uintptr_t a)
{
	if (!empties || (a & 15) || (uint8_t)*shadow_of(a) != SHADOW_SLAB_REDZONE)
		return NULL;
	struct chunk *c = generic_chunk_of(a);
	return c && !c->size && small_live(c) ? c : NULL;
}

/* The object whose requested bytes hold a, when live; else NULL. */
static struct chunk *small_find(uintptr_t a)
{
	if (!shadow_covers(a))
		return NULL;
	if (*shadow_of(a) < 0)
		return empty_at(a);
	uintptr_t g = ALIGN_DOWN(a, GRANULE);
	/* Small objects are under a page, their alignment too. */
	for (int i = 0; i < 4096 / (int)GRANULE + 2; i++, g -= GRANULE) {
		int8_t left = *shadow_of(g - GRANULE);
		if ((uint8_t)left == SHADOW_SLAB_REDZONE) {
			struct chunk *c = generic_chunk_of(g);
			if (!small_live(c))
				return NULL;
			return a < g + c->size || (a == g && !c->size) ? c : NULL;
		}
		if (left != 0)
			return NULL;
	}
	return NULL;
}

static struct chunk *find_live(uintptr_t a)
{
	if (a < lo_bound || a >= hi_bound)
		return NULL;
	long m = map_of(a);
	if (m >= 0 && heapy[m])
		return small_find(a);
	if (!large_owns(a))
		return NULL;
	struct large_meta *lm = large_find(a);
	if (!lm || lm->c.state != (CHUNK_LIVE | CHUNK_LARGE) || a < lm->obj ||
	    a >= lm->obj + (lm->size ? lm->size : 1))
		return NULL;
	return &lm->c;
}

/* The mark stays in the object's header until the report pass clears it:
 * every object find_live can reach must be one each_small or
 * large_each_live lists, or a later scan would take it as marked already
 * and never follow its pointers (the objects behind it, false leaks). */
static void push(struct chunk *c)
{
	uint32_t tid = c->alloc_tid;
	if (tid & CHUNK_TID_MARKED)
		return;
	c->alloc_tid = tid | CHUNK_TID_MARKED;
	if (nwork < work_max) {
		work[nwork++] = c;
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
		struct chunk *c = find_live(v);
		if (c)
			push(c);
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
		struct chunk *c = work[--nwork];
		uintptr_t obj = chunk_object(c);
		scan_words(obj, obj + ALIGN_DOWN(chunk_size(c), 8));
	}
}

/* Small objects in [lo, hi), from the shadow: an object starts where a
 * run of left-redzone bytes ends. Shadow pages never touched read zero and
 * are skipped unread. */
static size_t each_small(uintptr_t lo, uintptr_t hi, void (*fn)(struct chunk *c, void *arg),
                         void *arg)
{
	const size_t page = 4096;
	uintptr_t s0 = (uintptr_t)shadow_of(lo), s1 = (uintptr_t)shadow_of(hi);
	size_t found = 0;
	uint8_t prev = 0;
	unsigned char vec[256];
	for (uintptr_t sp = ALIGN_DOWN(s0, page); sp < s1; sp += sizeof(vec) * page) {
		size_t len = sizeof(vec) * page;
		if (os_resident(sp, len, vec) != 0)
			for (size_t i = 0; i < sizeof(vec); i++)
				vec[i] =
				    os_resident(sp + i * page, page, &vec[i]) == 0 && (vec[i] & 1);
		for (size_t i = 0; i < sizeof(vec) && sp + i * page < s1; i++) {
			uintptr_t b = sp + i * page, e = b + page;
			if (!(vec[i] & 1) || !shadow_mapped(shadow_to_mem((void *)b))) {
				prev = 0;
				continue;
			}
			if (b < s0)
				b = s0;
			if (e > s1)
				e = s1;
			for (; b < e; b++) {
				/* Whole words of redzone or of addressable bytes are
				 * passed at once, but an object may start at the first
				 * byte of a zero word (64-byte aligned, 64 bytes or
				 * more): only the bytes after it are skipped unread. */
				if (!(b & 7) && b + 8 <= e) {
					uint64_t w = *(const uint64_t *)b;
					if ((w == 0xfcfcfcfcfcfcfcfcull && !empties) ||
					    (!w && prev != SHADOW_SLAB_REDZONE)) {
						prev = (uint8_t)w;
						b += 7;
						continue;
					}
				}
				uint8_t s = *(const uint8_t *)b;
				if (prev == SHADOW_SLAB_REDZONE && s < 8) {
					struct chunk *c =
					    generic_chunk_of(shadow_to_mem((void *)b));
					if (small_live(c)) {
						found++;
						fn(c, arg);
					}
				} else if (prev == SHADOW_SLAB_REDZONE && s == prev) {
					struct chunk *c = empty_at(shadow_to_mem((void *)b));
					if (c) {
						found++;
						fn(c, arg);
					}
				}
				prev = s;
			}
		}
	}
	return found;
}

static void note_first(struct chunk *c, void *arg)
{
	uintptr_t *first = arg;
	if (!*first || (uintptr_t)c < *first)
		*first = (uintptr_t)c;
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
static void root_object(struct chunk *c, void *arg)
{
	(void)arg;
	if (c->alloc_tid & CHUNK_TID_IGNORED) {
		push(c);
		return;
	}
	const uintptr_t *pcs;
	int n = depot_fetch(c->alloc_stack, &pcs);
	for (int i = 0; i < n && i < 3; i++)
		if (in_linker(pcs[i])) {
			push(c);
			return;
		}
}

static void root_large(struct large_meta *m, void *arg)
{
	root_object(&m->c, arg);
}

static void scan_unsampled(uintptr_t p, size_t size, void *arg)
{
	(void)arg;
	scan_range(p, p + size);
}

/* KFENCE's pages may be closed by a report: copied, not read in place. */
/* kasan.stack_use_after_return keeps address-taken locals there. */
static void scan_fake_frame(uintptr_t lo, uintptr_t hi, void *arg)
{
	(void)arg;
	scan_range(lo, hi);
}

static void scan_kfence(void)
{
	static uintptr_t buf[512];
	for (unsigned i = 0; kfence.meta && i < kfence.num_objects; i++) {
		struct kfence_meta *m = &kfence.meta[i];
		if (m->state != OBJ_ALLOCATED)
			continue;
		for (size_t off = 0; off < m->size; off += sizeof(buf)) {
			size_t n = m->size - off < sizeof(buf) ? m->size - off : sizeof(buf);
			n = os_copy_readable(buf, (const void *)(m->addr + off), n);
			scan_words((uintptr_t)buf, (uintptr_t)buf + ALIGN_DOWN(n, 8));
		}
	}
}

/* Classifies the maps: which hold small objects (and the bounds of where
 * any object lies). */
static void find_heap(void)
{
	lo_bound = UINTPTR_MAX;
	hi_bound = 0;
	nbss_heap = 0;
	for (long i = 0; i < nmaps; i++) {
		const struct os_map *m = &maps[i];
		heapy[i] = 0;
		if ((m->flags & (OS_MAP_R | OS_MAP_W)) != (OS_MAP_R | OS_MAP_W) ||
		    (m->flags & (OS_MAP_FILE | OS_MAP_SPECIAL | OS_MAP_STACK)) ||
		    !shadow_covers(m->start) || !shadow_covers(m->end - 1) ||
		    large_owns(m->start) || kfence_owns((void *)m->start))
			continue;
		uintptr_t first = 0;
		if (each_small(m->start, m->end, note_first, &first)) {
			heapy[i] = 1;
			if (follows_module(i) && !(m->flags & (OS_MAP_SPECIAL | OS_MAP_STACK)) &&
			    nbss_heap < MAX_BSS_HEAPS) {
				bss_heap[nbss_heap].start = m->start;
				bss_heap[nbss_heap++].end = first;
			}
			lo_bound = m->start < lo_bound ? m->start : lo_bound;
			hi_bound = m->end > hi_bound ? m->end : hi_bound;
		}
	}
	uintptr_t base;
	size_t len;
	for (int i = 0; large_region(i, &base, &len); i++) {
		lo_bound = base < lo_bound ? base : lo_bound;
		hi_bound = base + len > hi_bound ? base + len : hi_bound;
	}
}

static int is_module_data(long i)
{
	const struct os_map *m = &maps[i];
	if ((m->flags & (OS_MAP_R | OS_MAP_W)) != (OS_MAP_R | OS_MAP_W) || heapy[i])
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
		struct chunk *c = find_live(regs[i]);
		if (c)
			push(c);
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
	if (!heapy[t] && maps[t].end - maps[t].start <= (16ul << 20))
		scan_range(maps[t].start, maps[t].end);
	else
		scan_range(tp > (64ul << 10) ? tp - (64ul << 10) : 0, tp + (64ul << 10));
}

struct report_pass {
	leak_fn fn;
	void *arg;
};

static void report_object(struct chunk *c, void *arg)
{
	struct report_pass *r = arg;
	uint32_t tid = c->alloc_tid;
	if (r->fn && !(tid & (CHUNK_TID_MARKED | CHUNK_TID_IGNORED)))
		r->fn(c, r->arg);
	c->alloc_tid &= ~CHUNK_TID_MARKED;
}

static void report_large(struct large_meta *m, void *arg)
{
	report_object(&m->c, arg);
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
	/* The other threads are stopped: the count holds for the scan. */
	empties = __atomic_load_n(&generic_empty_live, __ATOMIC_RELAXED) > 0;
	find_heap();
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
	for (long i = 0; i < nmaps; i++)
		if (heapy[i])
			each_small(maps[i].start, maps[i].end, root_object, NULL);
	large_each_live(root_large, NULL);
	for (long i = 0; i < nmaps; i++)
		if (is_module_data(i))
			scan_range(maps[i].start, maps[i].end);
	for (int i = 0; i < nbss_heap; i++)
		scan_range(bss_heap[i].start, bss_heap[i].end);
	scan_thread(self->sp, os_thread_pointer(), self->regs, KMEMLEAK_REGS, 0);
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
	generic_fake_stack_each_live(scan_fake_frame, NULL);
	unsampled_each(scan_unsampled, NULL);
	scan_kfence();
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
	a->ret = mark(a->self, a->nthreads);
	struct report_pass r = {a->ret == 0 ? a->fn : NULL, a->arg};
	for (long i = 0; i < nmaps; i++)
		if (heapy[i])
			each_small(maps[i].start, maps[i].end, report_object, &r);
	large_each_live(report_large, &r);
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
