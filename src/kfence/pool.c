/* The KFENCE pool: object pages between guard pages, as the kernel's.
 *   page 0, 1: guards; object i at page 2i+2; its right guard at 2i+3.
 * An object page is readable only while allocated: one mprotect at
 * allocation and one at free, nothing else on the normal path. */
#include "kfence.h"

#include <errno.h>
#include <string.h>

#include "../base/compiler.h"

#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../platform/signals.h"

struct kfence_pool kfence;
static struct kfence_hooks hooks;

static struct spinlock pool_lock;
static uint32_t free_head, free_tail; /* index + 1 */
/* Set while this thread is inside the pool, so an allocation from a signal
 * handler that interrupted us falls back to glibc instead of deadlocking. */
static __thread int in_pool __attribute__((tls_model("initial-exec")));

/* The canary depends only on the address's low three bits, so a page of it
 * is made once and copied and compared with glibc's vectorised memcpy and
 * __memcmpeq: many bytes at a time, beyond seed 004's eight. Byte-wise work
 * happens only once a difference is known. */
static unsigned char *canary_page;
extern int __memcmpeq(const void *a, const void *b, size_t n);

static uintptr_t obj_page(unsigned i)
{
	return kfence.base + (2 * (uintptr_t)i + 2) * kfence.page;
}

static void count(enum kfence_counter c, long d)
{
	__atomic_add_fetch(&kfence.counters[c], d, __ATOMIC_RELAXED);
}

static int kfence_fault(int sig, siginfo_t *info, void *uctx);

static void pool_init(void)
{
	unsigned n = (unsigned)opt.kfence_num_objects;
	if (n == 0 || (!opt.kfence_sample_interval && !opt.kfence_sample_rate))
		return;
	kfence.page = os_page_size();
	size_t pool = (size_t)(n + 1) * 2 * kfence.page;
	size_t meta = ALIGN_UP(n * sizeof(struct kfence_meta) + (2 * n + 2), kfence.page);
	void *p = os_reserve(pool, OS_PROT_NONE);
	void *m = os_reserve(meta, OS_PROT_RW);
	canary_page = os_reserve(kfence.page, OS_PROT_RW);
	if (!p || !m || !canary_page) {
		if (p)
			os_release(p, pool);
		if (m)
			os_release(m, meta);
		return;
	}
	for (size_t i = 0; i < kfence.page; i++)
		canary_page[i] = kfence_canary(i);
	kfence.meta = m;
	kfence.page_open = (unsigned char *)m + n * sizeof(struct kfence_meta);
	kfence.num_objects = n;
	for (unsigned i = 0; i < n; i++)
		kfence.meta[i].next = i + 2 <= n ? i + 2 : 0;
	free_head = 1;
	free_tail = n;
	signals_hook(SIGSEGV, kfence_fault);
	__atomic_store_n(&kfence.size, pool, __ATOMIC_RELAXED);
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

/* Slots freed by a signal handler that interrupted this thread inside the
 * pool, where the pool lock may be held: pushed here without it (index + 1,
 * linked through next), and moved to the free list by the next taker. Only
 * pushes race with the taker's exchange, so there is no ABA. */
static uint32_t deferred;

static void append_locked(unsigned idx)
{
	kfence.meta[idx].next = 0;
	if (free_tail)
		kfence.meta[free_tail - 1].next = idx + 1;
	else
		free_head = idx + 1;
	free_tail = idx + 1;
}

static void defer_slot(unsigned idx)
{
	uint32_t head = __atomic_load_n(&deferred, __ATOMIC_RELAXED);
	do
		kfence.meta[idx].next = head;
	while (!__atomic_compare_exchange_n(&deferred, &head, idx + 1, 1, __ATOMIC_RELEASE,
	                                    __ATOMIC_RELAXED));
}

static int take_slot(void)
{
	spin_lock(&pool_lock);
	for (uint32_t d = __atomic_exchange_n(&deferred, 0, __ATOMIC_ACQUIRE); d;) {
		uint32_t next = kfence.meta[d - 1].next;
		append_locked(d - 1);
		d = next;
	}
	uint32_t i = free_head;
	if (i) {
		free_head = kfence.meta[i - 1].next;
		if (!free_head)
			free_tail = 0;
	}
	spin_unlock(&pool_lock);
	return (int)i - 1;
}

static void put_slot(unsigned idx)
{
	spin_lock(&pool_lock);
	append_locked(idx);
	spin_unlock(&pool_lock);
}

/* Re-protect pages that a report opened so the access could go on. */
static void close_page(size_t page_index)
{
	if (__atomic_exchange_n(&kfence.page_open[page_index], 0, __ATOMIC_RELAXED))
		os_protect((void *)(kfence.base + page_index * kfence.page), kfence.page,
		           OS_PROT_NONE);
}

static void set_canary(uintptr_t page, uintptr_t obj, size_t size)
{
	uintptr_t end = obj + size;
	rt_memcpy((void *)page, canary_page, obj - page);
	rt_memcpy((void *)end, canary_page + (end - page), page + kfence.page - end);
}

static void track(struct kfence_track *t, const uintptr_t *pcs, int n)
{
	t->tid = os_tid();
	t->cpu = os_cpu();
	t->ns = os_now_ns();
	t->stack = depot_save(pcs, n);
}

void *kfence_alloc(size_t size, size_t align, int api, int zero)
{
	if (!kfence.base || in_pool)
		return NULL;
	if (size > kfence.page || align > kfence.page) {
		count(KF_SKIP_INCOMPAT, 1);
		return NULL;
	}
	/* A full pool costs no unwinding (a racy look is enough here). */
	if (!__atomic_load_n(&free_head, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&deferred, __ATOMIC_RELAXED)) {
		count(KF_SKIP_CAPACITY, 1);
		return NULL;
	}
	in_pool = 1;
	uintptr_t pcs[STACK_MAX_FRAMES];
	long live = __atomic_load_n(&kfence.counters[KF_ALLOCATED], __ATOMIC_RELAXED);
	int crowded = live * 100 > (long)(opt.kfence_skip_covered_thresh * kfence.num_objects);
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
	int idx = take_slot();
	if (idx < 0) {
		count(KF_SKIP_CAPACITY, 1);
		in_pool = 0;
		return NULL;
	}
	struct kfence_meta *m = &kfence.meta[idx];
	uintptr_t page = obj_page((unsigned)idx);
	close_page(2 * (size_t)idx + 1);
	close_page(2 * (size_t)idx + 3);
	__atomic_store_n(&kfence.page_open[2 * idx + 2], 0, __ATOMIC_RELAXED);
	if (os_protect((void *)page, kfence.page, OS_PROT_RW) != 0) {
		/* Out of VMAs (vm.max_map_count) or memory: leave it to glibc. */
		put_slot((unsigned)idx);
		count(KF_SKIP_CAPACITY, 1);
		in_pool = 0;
		return NULL;
	}
	if (align < 16)
		align = 16;
	size_t placed = size ? size : 1;
	uintptr_t obj =
	    (kfence_random() & 1) ? page : ALIGN_DOWN(page + kfence.page - placed, align);
	set_canary(page, obj, size);
	if (hooks.object_placed)
		hooks.object_placed(page, kfence.page, obj, size);
	if (zero)
		rt_memset((void *)obj, 0, size);
	spin_lock(&m->lock);
	m->addr = obj;
	m->size = size;
	m->api = api;
	m->cover_hash = hash;
	m->oob_written = 0;
	track(&m->alloc, pcs, n);
	rt_memset(&m->free, 0, sizeof(m->free));
	__atomic_store_n(&m->state, OBJ_ALLOCATED, __ATOMIC_RELEASE);
	spin_unlock(&m->lock);
	kfence_cover(hash, 1);
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

static long slot_of(uintptr_t addr)
{
	size_t pi = (addr - kfence.base) / kfence.page;
	return (pi & 1) || pi < 2 ? -1 : (long)(pi / 2 - 1);
}

/* The object a pool address is nearest to for an invalid free: a guard page
 * is charged to the object on its left, as the kernel does. */
static struct kfence_meta *nearest_meta(uintptr_t addr)
{
	size_t pi = (addr - kfence.base) / kfence.page;
	if (pi < 2)
		return NULL;
	return &kfence.meta[(pi & 1) ? (pi - 1) / 2 - 1 : pi / 2 - 1];
}

/* The first corrupted byte of [a, end), reported; as the kernel, one report
 * per side of the object. */
static void check_side(uintptr_t a, uintptr_t end, uintptr_t page, struct kfence_meta *m)
{
	if (a >= end || !__memcmpeq((void *)a, canary_page + (a - page), end - a))
		return;
	for (; a < end; a++)
		if (*(const unsigned char *)a != kfence_canary(a)) {
			report_slot(KF_ERR_CORRUPTION, a, 0, NULL, 0, m);
			return;
		}
}

static void check_canary(struct kfence_meta *m)
{
	uintptr_t page = ALIGN_DOWN(m->addr, kfence.page);
	check_side(page, m->addr, page, m);
	check_side(m->addr + m->size, page + kfence.page, page, m);
}

void kfence_free(void *p)
{
	uintptr_t addr = (uintptr_t)p;
	long idx = slot_of(addr);
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
		report_slot(KF_ERR_INVALID_FREE, addr, 0, NULL, 0, m ? m : nearest_meta(addr));
		return;
	}
	track(&m->free, pcs, n);
	__atomic_store_n(&m->state, OBJ_FREED, __ATOMIC_RELEASE);
	meta_unlock(m, locked);
	if (!m->oob_written)
		check_canary(m);
	uintptr_t page = ALIGN_DOWN(addr, kfence.page);
	if (hooks.object_freed)
		hooks.object_freed(page, kfence.page);
	os_protect((void *)page, kfence.page, OS_PROT_NONE);
	close_page(2 * (size_t)idx + 1);
	close_page(2 * (size_t)idx + 3);
	kfence_cover(m->cover_hash, -1);
	count(KF_ALLOCATED, -1);
	count(KF_FREES, 1);
	if (nested)
		defer_slot((unsigned)idx);
	else
		put_slot((unsigned)idx);
	in_pool = nested;
}

int kfence_report_access(uintptr_t addr, int is_write, uintptr_t ip)
{
	if (!kfence_owns((void *)addr))
		return 0;
	long idx = slot_of(addr);
	if (idx < 0 || idx >= (long)kfence.num_objects)
		return 0;
	struct kfence_meta *m = &kfence.meta[idx];
	if (__atomic_load_n(&m->state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED ||
	    (addr >= m->addr && addr < m->addr + m->size))
		return 0;
	if (is_write) /* one report for one bug: the canary will not match */
		m->oob_written = 1;
	report_slot(KF_ERR_OOB, addr, is_write, NULL, ip, m);
	return 1;
}

size_t kfence_size(const void *p)
{
	long idx = slot_of((uintptr_t)p);
	if (idx < 0 || kfence.meta[idx].addr != (uintptr_t)p ||
	    __atomic_load_n(&kfence.meta[idx].state, __ATOMIC_ACQUIRE) != OBJ_ALLOCATED)
		return (size_t)-1;
	return kfence.meta[idx].size;
}

static struct kfence_meta *allocated_at(uintptr_t page_addr)
{
	if (page_addr - kfence.base >= kfence.size)
		return NULL;
	long idx = slot_of(page_addr);
	if (idx < 0 || idx >= (long)kfence.num_objects)
		return NULL;
	struct kfence_meta *m = &kfence.meta[idx];
	return __atomic_load_n(&m->state, __ATOMIC_ACQUIRE) == OBJ_ALLOCATED ? m : NULL;
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
	size_t pi = (addr - kfence.base) / kfence.page;
	int is_write = fault_is_write(uctx);
	struct kfence_meta *m = NULL;
	enum kfence_error type = KF_ERR_INVALID;
	if (pi & 1) {
		/* A guard page: blame the nearer allocated neighbour. */
		struct kfence_meta *l = allocated_at(addr - kfence.page);
		struct kfence_meta *r = allocated_at(addr + kfence.page);
		if (l && r)
			m = addr - (l->addr + l->size) <= r->addr - addr ? l : r;
		else
			m = l ? l : r;
		if (m)
			type = KF_ERR_OOB;
	} else if (pi >= 2) {
		m = &kfence.meta[pi / 2 - 1];
		int locked = meta_lock(m);
		int state = m->state;
		meta_unlock(m, locked);
		if (state == OBJ_ALLOCATED)
			return 1; /* raced with a new allocation: the page is open now */
		if (state == OBJ_FREED)
			type = KF_ERR_UAF;
		else
			m = NULL;
	}
	report_slot(type, addr, is_write, uctx, 0, m);
	/* As the kernel: report once, then let the access proceed. */
	__atomic_store_n(&kfence.page_open[pi], 1, __ATOMIC_RELAXED);
	os_protect((void *)(kfence.base + pi * kfence.page), kfence.page, OS_PROT_RW);
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
}
