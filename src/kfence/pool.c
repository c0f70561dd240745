/* The KFENCE pool: object pages between guard pages, as the kernel's, and
 * after them slots for objects over one page (kfence.h has the layout).
 * An object's pages are accessible only while it is allocated: one
 * mprotect at allocation and one at free, nothing else on the normal path.
 * A large object's pages are also given back to the OS at free, so the
 * large part holds memory only for what is allocated in it; the rest of
 * its slot stays inaccessible and catches an access past either end. */
#include "kfence.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../platform/signals.h"

struct kfence_pool kfence;
static struct kfence_hooks hooks;

/* What a report opened (kfence_pool.slot_open, per slot; head_open for
 * the two guard pages before slot 0), closed again when the slot or a
 * neighbour is allocated or freed. */
#define OPEN_DATA  1 /* a page of the slot's object part */
#define OPEN_GUARD 2 /* the guard page after it */
static unsigned char head_open;

/* One FIFO free list per kind of slot, small and large, so that neither
 * kind's long-lived objects take the other's slots. Slots freed by a
 * signal handler that interrupted this thread inside the pool, where the
 * pool lock may be held, are pushed on deferred without it (index + 1,
 * linked through next), and moved to the list by the next taker. Only
 * pushes race with the taker's exchange, so there is no ABA. */
/* fresh..last (index + 1): never used, taken in address order before the
 * freed ones, as if queued first, no links written (pages kept untouched). */
struct free_list {
	uint32_t head, tail; /* index + 1 */
	uint32_t deferred, fresh, last;
	long live;     /* allocated objects of this kind */
	unsigned size; /* slots of this kind */
};
static struct free_list lists[2];
/* Lock order (platform/lock.h): after KASAN's allocator, before leak_track. */
static struct spinlock pool_lock;
/* Set while this thread is inside the pool, so an allocation from a signal
 * handler that interrupted us falls back to glibc instead of deadlocking. */
static __thread int in_pool __attribute__((tls_model("initial-exec")));

/* The canary depends only on the address's low three bits, so a page of it
 * is made once and copied and compared with glibc's vectorised memcpy and
 * __memcmpeq: many bytes at a time, beyond the eight bytes
 * at a time the kernel's KFENCE canary patch compares. Byte-wise work
 * happens only once a difference is known. */
static unsigned char *canary_page;
extern int __memcmpeq(const void *a, const void *b, size_t n);

static int is_large(long i)
{
	return i >= (long)kfence.num_small;
}

static struct free_list *list_of(long i)
{
	return &lists[is_large(i)];
}

/* Slot i's object part, [slot_lo(i), slot_lo(i) + slot_bytes(i)); its
 * guard page follows. */
static uintptr_t slot_lo(long i)
{
	if (is_large(i))
		return kfence.large_base + (uintptr_t)(i - kfence.num_small) * kfence.large_span;
	return kfence.base + (2 * (uintptr_t)i + 2) * kfence.page;
}

static size_t slot_bytes(long i)
{
	return is_large(i) ? kfence.large_size : kfence.page;
}

/* The slot whose object part or guard page holds a pool address; -1 for the
 * two guard pages before slot 0. */
long kfence_slot_at(uintptr_t addr)
{
	if (addr >= kfence.large_base)
		return kfence.num_small + (long)((addr - kfence.large_base) / kfence.large_span);
	size_t pi = (addr - kfence.base) / kfence.page;
	return pi < 2 ? -1 : (long)(pi / 2 - 1);
}

/* The pages an object lies on, readable while it is allocated: for a small
 * one, its slot's page. */
static uintptr_t obj_lo(uintptr_t addr)
{
	return ALIGN_DOWN(addr, kfence.page);
}

static uintptr_t obj_hi(uintptr_t addr, size_t size)
{
	return ALIGN_UP(addr + (size ? size : 1), kfence.page);
}

static void count(enum kfence_counter c, long d)
{
	__atomic_add_fetch(&kfence.counters[c], d, __ATOMIC_RELAXED);
}

static int kfence_fault(int sig, siginfo_t *info, void *uctx);

/* The large part's address space: kfence.large_objects slots of
 * kfence.large_size and a guard page each, reserved inaccessible (no
 * memory until an object is placed). Under an address-space limit (ulimit
 * -v) it takes at most a sixteenth of it. */
static unsigned large_slots(size_t small, size_t *size)
{
	*size = ALIGN_UP(opt.kfence_large_size, kfence.page);
	if (*size <= kfence.page)
		return 0;
	uint64_t n = opt.kfence_large_objects, span = *size + kfence.page;
	uint64_t limit = os_address_space_limit();
	if (limit != OS_UNLIMITED) {
		uint64_t room = limit / 16 > small ? limit / 16 - small : 0;
		if (n * span > room)
			n = room / span;
	}
	return (unsigned)n;
}

static void pool_init(void)
{
	unsigned n = (unsigned)opt.kfence_num_objects;
	if (n == 0 || (!opt.kfence_sample_interval && !opt.kfence_sample_rate))
		return;
	kfence.page = os_page_size();
	size_t small = (size_t)(n + 1) * 2 * kfence.page, large_size;
	unsigned nl = large_slots(small, &large_size);
	size_t span = large_size + kfence.page;
	void *p = os_reserve(small + nl * span, OS_PROT_NONE);
	if (!p && nl) { /* no room for the large part: the kernel's pool alone */
		nl = 0;
		p = os_reserve(small, OS_PROT_NONE);
	}
	unsigned total = n + nl;
	size_t meta = ALIGN_UP(total * (sizeof(struct kfence_meta) + 1), kfence.page);
	void *m = os_reserve(meta, OS_PROT_RW);
	canary_page = os_reserve(kfence.page, OS_PROT_RW);
	if (!p || !m || !canary_page) {
		if (p)
			os_release(p, small + nl * span);
		if (m)
			os_release(m, meta);
		return;
	}
	for (size_t i = 0; i < kfence.page; i++)
		canary_page[i] = kfence_canary(i);
	kfence.meta = m;
	kfence.slot_open = (unsigned char *)m + total * sizeof(struct kfence_meta);
	kfence.num_objects = total;
	kfence.num_small = n;
	kfence.large_base = (uintptr_t)p + small;
	kfence.large_size = nl ? large_size : 0;
	kfence.large_span = nl ? span : 1;
	lists[0] = (struct free_list){.fresh = 1, .last = n, .size = n};
	if (nl)
		lists[1] = (struct free_list){.fresh = n + 1, .last = total, .size = nl};
	signals_hook(SIGSEGV, kfence_fault);
	__atomic_store_n(&kfence.size, small + nl * span, __ATOMIC_RELAXED);
	__atomic_store_n(&kfence.base, (uintptr_t)p, __ATOMIC_RELEASE);
}

/* kfence.process_sample: a fleet pays for KFENCE in one process in N, as
 * Chrome's GWP-ASan samples processes. Decided once per program image (a
 * process that execs decides again); fork's child has its parent's pool,
 * or none, and so its decision. */
static int process_sampled_out(void)
{
	unsigned long n = opt.kfence_process_sample;
	/* The seed's low bit is always set: its high bits decide. */
	return n > 1 && (os_random_seed() >> 16) % n != 0;
}

void kfence_init(const struct kfence_hooks *h)
{
	if (h)
		hooks = *h;
	if (!process_sampled_out())
		pool_init();
	kfence_sample_start(hooks.delay_first_sample);
}

static void append_locked(struct free_list *l, unsigned idx)
{
	kfence.meta[idx].next = 0;
	if (l->tail)
		kfence.meta[l->tail - 1].next = idx + 1;
	else
		l->head = idx + 1;
	l->tail = idx + 1;
}

static void defer_slot(unsigned idx)
{
	struct free_list *l = list_of(idx);
	uint32_t head = __atomic_load_n(&l->deferred, __ATOMIC_RELAXED);
	do
		kfence.meta[idx].next = head;
	while (!__atomic_compare_exchange_n(&l->deferred, &head, idx + 1, 1, __ATOMIC_RELEASE,
	                                    __ATOMIC_RELAXED));
}

static int take_slot(struct free_list *l)
{
	spin_lock(&pool_lock);
	for (uint32_t d = __atomic_exchange_n(&l->deferred, 0, __ATOMIC_ACQUIRE); d;) {
		uint32_t next = kfence.meta[d - 1].next;
		append_locked(l, d - 1);
		d = next;
	}
	uint32_t i = l->head;
	if (l->fresh && l->fresh <= l->last)
		i = l->fresh++;
	else if (i) {
		l->head = kfence.meta[i - 1].next;
		if (!l->head)
			l->tail = 0;
	}
	spin_unlock(&pool_lock);
	return (int)i - 1;
}

static void put_slot(unsigned idx)
{
	spin_lock(&pool_lock);
	append_locked(list_of(idx), idx);
	spin_unlock(&pool_lock);
}

/* Re-protect what a report opened so the access could go on. i = -1: the
 * pool's first two guard pages. */
static void close_guard(long i)
{
	unsigned char *f = i < 0 ? &head_open : &kfence.slot_open[i];
	if (!(__atomic_load_n(f, __ATOMIC_RELAXED) & OPEN_GUARD) ||
	    !(__atomic_fetch_and(f, (unsigned char)~OPEN_GUARD, __ATOMIC_RELAXED) & OPEN_GUARD))
		return;
	if (i < 0)
		os_protect((void *)kfence.base, 2 * kfence.page, OS_PROT_NONE);
	else
		os_protect((void *)(slot_lo(i) + slot_bytes(i)), kfence.page, OS_PROT_NONE);
}

/* Returns whether a page of the object part had been opened. */
static int close_data(long i)
{
	unsigned char *f = &kfence.slot_open[i];
	if (!(__atomic_load_n(f, __ATOMIC_RELAXED) & OPEN_DATA) ||
	    !(__atomic_fetch_and(f, (unsigned char)~OPEN_DATA, __ATOMIC_RELAXED) & OPEN_DATA))
		return 0;
	os_protect((void *)slot_lo(i), slot_bytes(i), OS_PROT_NONE);
	return 1;
}

/* The canary fills the object's pages around it: [lo, obj) and
 * [obj + size, hi), each within one page. */
static void set_canary(uintptr_t lo, uintptr_t obj, size_t size, uintptr_t hi)
{
	uintptr_t end = obj + size, mask = kfence.page - 1;
	rt_memcpy((void *)lo, canary_page, obj - lo);
	rt_memcpy((void *)end, canary_page + (end & mask), hi - end);
}

static void track(struct kfence_track *t, const uintptr_t *pcs, int n)
{
	t->tid = os_tid();
	t->cpu = os_cpu();
	t->ns = os_now_ns();
	t->stack = depot_save(pcs, n);
}

/* Objects over a page, or aligned beyond one, go to a large slot when
 * their size and alignment fit in it: then both placements fit. */
static int fits_large(size_t placed, size_t align)
{
	if (placed > kfence.large_size)
		return 0;
	return align <= kfence.page ||
	       (align <= kfence.large_size && placed + align <= kfence.large_size);
}

void *kfence_alloc(size_t size, size_t align, int api, int zero)
{
	if (!kfence.base || in_pool)
		return NULL;
	size_t placed = size ? size : 1;
	int large = placed > kfence.page || align > kfence.page;
	if (large && !fits_large(placed, align)) {
		count(KF_SKIP_INCOMPAT, 1);
		return NULL;
	}
	struct free_list *l = &lists[large];
	/* A full pool costs no unwinding (a racy look is enough here). */
	if (!__atomic_load_n(&l->head, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&l->deferred, __ATOMIC_RELAXED) &&
	    __atomic_load_n(&l->fresh, __ATOMIC_RELAXED) > l->last) {
		count(KF_SKIP_CAPACITY, 1);
		return NULL;
	}
	in_pool = 1;
	uintptr_t pcs[STACK_MAX_FRAMES];
	long live = __atomic_load_n(&l->live, __ATOMIC_RELAXED);
	int crowded = live * 100 > (long)(opt.kfence_skip_covered_thresh * l->size);
	/* The covered filter hashes the first 8 frames: only those are needed
	 * to decide, and most allocations are turned away then. */
	int n = stack_capture(pcs, crowded ? 8 : STACK_MAX_FRAMES);
	uint32_t hash = stack_hash(pcs, n < 8 ? n : 8);
	if (crowded && kfence_covered(hash)) {
		count(KF_SKIP_COVERED, 1);
		in_pool = 0;
		return NULL;
	}
	if (crowded)
		n = stack_capture(pcs, STACK_MAX_FRAMES);
	int idx = take_slot(l);
	if (idx < 0) {
		count(KF_SKIP_CAPACITY, 1);
		in_pool = 0;
		return NULL;
	}
	struct kfence_meta *m = &kfence.meta[idx];
	if (align < 16)
		align = 16;
	uintptr_t lo = slot_lo(idx), hi = lo + slot_bytes(idx);
	uintptr_t obj =
	    (kfence_random() & 1) ? ALIGN_UP(lo, align) : ALIGN_DOWN(hi - placed, align);
	uintptr_t olo = obj_lo(obj), ohi = obj_hi(obj, size);
	close_guard(idx - 1);
	close_guard(idx);
	/* A report opened a page of a large slot, and the program may have
	 * written it: the slot's memory goes back, so it reads as zero again. */
	if (close_data(idx) && large)
		os_discard((void *)lo, hi - lo);
	if (os_protect((void *)olo, ohi - olo, OS_PROT_RW) != 0) {
		/* Out of VMAs (vm.max_map_count) or memory: leave it to glibc. */
		put_slot((unsigned)idx);
		count(KF_SKIP_CAPACITY, 1);
		in_pool = 0;
		return NULL;
	}
	set_canary(olo, obj, size, ohi);
	if (hooks.object_placed)
		hooks.object_placed(olo, ohi - olo, obj, size);
	/* A large slot's pages come fresh from the OS (given back at free):
	 * already zero. */
	if (zero && !large)
		rt_memset((void *)obj, 0, size);
	spin_lock(&m->lock);
	m->addr = obj;
	m->size = size;
	m->api = api;
	m->cover_hash = hash;
	m->oob_written = 0;
	m->leak_flags = kfence_leak_new_flags();
	track(&m->alloc, pcs, n);
	rt_memset(&m->free, 0, sizeof(m->free));
	__atomic_store_n(&m->state, OBJ_ALLOCATED, __ATOMIC_RELEASE);
	spin_unlock(&m->lock);
	kfence_cover(hash, 1);
	__atomic_add_fetch(&l->live, 1, __ATOMIC_RELAXED);
	count(KF_ALLOCATED, 1);
	count(KF_ALLOCS, 1);
	in_pool = 0;
	return (void *)obj;
}

/* The fault handler may run on a thread that is inside the pool code (a
 * signal handler interrupting it): it must not wait for a lock then. */
static int meta_lock(struct kfence_meta *m)
{
	if (in_pool)
		return 0;
	spin_lock(&m->lock);
	return 1;
}

static void meta_unlock(struct kfence_meta *m, int locked)
{
	if (locked)
		spin_unlock(&m->lock);
}

/* Report from a copy taken under the slot lock: another thread may reuse
 * the slot while the report is being printed. */
static void report_slot(enum kfence_error type, uintptr_t addr, int is_write, const void *uctx,
                        uintptr_t ip, struct kfence_meta *m)
{
	struct kfence_meta snap;
	if (!m) {
		kfence_report(type, addr, is_write, uctx, ip, NULL, -1);
		return;
	}
	int locked = meta_lock(m);
	snap = *m;
	meta_unlock(m, locked);
	kfence_report(type, addr, is_write, uctx, ip, &snap, m - kfence.meta);
}

/* The first corrupted byte of [a, end), within one page, reported; as the
 * kernel, one report per side of the object. */
static void check_side(uintptr_t a, uintptr_t end, struct kfence_meta *m)
{
	if (a >= end || !__memcmpeq((void *)a, canary_page + (a & (kfence.page - 1)), end - a))
		return;
	for (; a < end; a++)
		if (*(const unsigned char *)a != kfence_canary(a)) {
			report_slot(KF_ERR_CORRUPTION, a, 0, NULL, 0, m);
			return;
		}
}

static void check_canary(struct kfence_meta *m)
{
	check_side(obj_lo(m->addr), m->addr, m);
	check_side(m->addr + m->size, obj_hi(m->addr, m->size), m);
}

void kfence_free(void *p)
{
	uintptr_t addr = (uintptr_t)p;
	/* A pointer into a slot that is not its object's start is charged to
	 * that slot (a guard page to the object on its left, as the kernel). */
	long idx = kfence_slot_at(addr);
	struct kfence_meta *m = idx >= 0 ? &kfence.meta[idx] : NULL;
	uintptr_t pcs[STACK_MAX_FRAMES];
	int n = stack_capture(pcs, STACK_MAX_FRAMES);
	/* Nested: a signal handler interrupted this thread inside the pool,
	 * which may hold the pool lock or this slot's: take neither. */
	int nested = in_pool;
	in_pool = 1;
	int locked = m && !nested;
	if (locked)
		spin_lock(&m->lock);
	if (!m || m->addr != addr || m->state != OBJ_ALLOCATED) {
		meta_unlock(m, locked);
		in_pool = nested;
		report_slot(KF_ERR_INVALID_FREE, addr, 0, NULL, 0, m);
		return;
	}
	track(&m->free, pcs, n);
	__atomic_store_n(&m->state, OBJ_FREED, __ATOMIC_RELEASE);
	meta_unlock(m, locked);
	if (!m->oob_written)
		check_canary(m);
	uintptr_t lo = obj_lo(addr), hi = obj_hi(addr, m->size);
	if (hooks.object_freed)
		hooks.object_freed(lo, hi - lo);
	os_protect((void *)lo, hi - lo, OS_PROT_NONE);
	close_data(idx);
	close_guard(idx - 1);
	close_guard(idx);
	/* The memory goes back to the OS (the range stays reserved and
	 * inaccessible: a use after free is still caught); a small object's at
	 * the defaults too, or the FIFO free list would keep every page used. */
	if (is_large(idx) || !opt.kfence_sample_rate)
		os_discard((void *)slot_lo(idx), slot_bytes(idx));
	kfence_cover(m->cover_hash, -1);
	__atomic_sub_fetch(&list_of(idx)->live, 1, __ATOMIC_RELAXED);
	count(KF_ALLOCATED, -1);
	count(KF_FREES, 1);
	if (nested)
		defer_slot((unsigned)idx);
	else
		put_slot((unsigned)idx);
	in_pool = nested;
}

/* The allocated object whose pages hold a pool address, or NULL. */
static struct kfence_meta *live_object_at(uintptr_t addr)
{
	long idx = kfence_slot_at(addr);
	if (idx < 0)
		return NULL;
	struct kfence_meta *m = &kfence.meta[idx];
	if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED ||
	    addr < obj_lo(m->addr) || addr >= obj_hi(m->addr, m->size))
		return NULL;
	return m;
}

int kfence_report_access(uintptr_t addr, int is_write, uintptr_t ip)
{
	if (!kfence_owns((void *)addr))
		return 0;
	struct kfence_meta *m = live_object_at(addr);
	if (!m || (addr >= m->addr && addr < m->addr + m->size))
		return 0;
	if (is_write) /* one report for one bug: the canary will not match */
		m->oob_written = 1;
	report_slot(KF_ERR_OOB, addr, is_write, NULL, ip, m);
	return 1;
}

size_t kfence_size(const void *p)
{
	if (!kfence_owns(p))
		return (size_t)-1;
	long idx = kfence_slot_at((uintptr_t)p);
	if (idx < 0 || kfence.meta[idx].addr != (uintptr_t)p ||
	    __atomic_load_n(&kfence.meta[idx].state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED)
		return (size_t)-1;
	return kfence.meta[idx].size;
}

/* The allocated object nearest to addr, among slot i's and its two
 * neighbours' (a guard page lies between two slots; the unused part of a
 * large slot between its object and a neighbour's), or NULL: the kernel's
 * choice for a fault in a guard page. */
static struct kfence_meta *nearest_object(uintptr_t addr, long i)
{
	struct kfence_meta *best = NULL;
	uintptr_t best_d = UINTPTR_MAX;
	for (long j = i - 1; j <= i + 1; j++) {
		if (j < 0 || j >= (long)kfence.num_objects)
			continue;
		struct kfence_meta *m = &kfence.meta[j];
		if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED)
			continue;
		uintptr_t a = m->addr, end = a + m->size;
		uintptr_t d = addr < a ? a - addr : addr >= end ? addr - end : 0;
		if (d < best_d) {
			best = m;
			best_d = d;
		}
	}
	return best;
}

/* No locks here: the faulting thread may hold the pool lock (a signal
 * handler inside the allocator), and metadata is read as it stands. */
static int kfence_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	uintptr_t addr = (uintptr_t)info->si_addr;
	/* Only an access the kernel refused: signals.c passes on what a
	 * process sent; a guard page gives SEGV_ACCERR (SEGV_MAPERR under
	 * some emulators). */
	if ((info->si_code != SEGV_ACCERR && info->si_code != SEGV_MAPERR) ||
	    !kfence_owns((void *)addr))
		return 0;
	int is_write = fault_is_write(uctx);
	long i = kfence_slot_at(addr);
	struct kfence_meta *m = NULL;
	enum kfence_error type = KF_ERR_INVALID;
	unsigned char *open = i < 0 ? &head_open : &kfence.slot_open[i];
	unsigned char what = OPEN_GUARD;
	if (i >= 0 && addr < slot_lo(i) + slot_bytes(i)) {
		what = OPEN_DATA;
		struct kfence_meta *s = &kfence.meta[i];
		int locked = meta_lock(s);
		int state = s->state;
		uintptr_t lo = obj_lo(s->addr), hi = obj_hi(s->addr, s->size);
		meta_unlock(s, locked);
		if (state != OBJ_UNUSED && addr >= lo && addr < hi) {
			if (state == OBJ_ALLOCATED)
				return 1; /* raced with a new allocation: the page is open now */
			type = KF_ERR_UAF;
			m = s;
		} else if (is_large(i)) {
			/* The unused part of a large slot: a guard, as the
			 * page after it. */
			m = nearest_object(addr, i);
		}
		/* else an unused small slot's page: invalid, as the kernel */
	} else {
		m = nearest_object(addr, i);
	}
	if (type == KF_ERR_INVALID && m)
		type = KF_ERR_OOB;
	report_slot(type, addr, is_write, uctx, 0, m);
	/* As the kernel: report once, then let the access proceed. */
	__atomic_or_fetch(open, what, __ATOMIC_RELAXED);
	os_protect((void *)ALIGN_DOWN(addr, kfence.page), kfence.page, OS_PROT_RW);
	return 1;
}

void kfence_after_fork_prepare(void)
{
	spin_lock(&pool_lock);
}

void kfence_after_fork_parent(void)
{
	spin_unlock(&pool_lock);
}

void kfence_after_fork_child(void)
{
	spin_reset(&pool_lock);
	in_pool = 0;
	kfence_sample_after_fork_child();
}
