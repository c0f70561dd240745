#define _GNU_SOURCE
#include "stack.h"

#include <dlfcn.h>
#include <string.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "unwind.h"

static uintptr_t self_start, self_end;

void stack_init(void)
{
	struct dl_find_object fo;
	if (_dl_find_object((void *)&stack_init, &fo) == 0) {
		self_start = (uintptr_t)fo.dlfo_map_start;
		self_end = (uintptr_t)fo.dlfo_map_end;
	}
}

int stack_is_ours(uintptr_t pc)
{
	return pc >= self_start && pc < self_end;
}

/* A walk that may read memory that is not there (another stack than the
 * thread's, a signal's registers), under signals_guarded: a fault ends it
 * with the frames stored before (pcs zeroed first; no frame is 0). */
struct guarded {
	uintptr_t *pcs;
	int max, n, exact;
	const uintptr_t *regs; /* NULL: from the caller */
	uintptr_t hi;
};

static void walk_guarded(void *arg)
{
	struct guarded *g = arg;
	g->n = g->regs ? unwind_from_regs(g->regs, g->exact, g->hi, g->pcs, g->max)
	               : unwind_anywhere(g->pcs, g->max, g->hi);
}

static int run_guarded(struct guarded *g)
{
	rt_memset(g->pcs, 0, (size_t)g->max * sizeof(g->pcs[0]));
	g->n = -1;
	if (signals_guarded(walk_guarded, g, NULL) != 0)
		for (g->n = 0; g->n < g->max && g->pcs[g->n]; g->n++)
			;
	return g->n;
}

/* Where a walk from sp may read: up to the thread's stack's top when sp is
 * on it (its bounds known already: finding them may allocate), else as far
 * as the guard lets it. */
static uintptr_t stack_top_for(uintptr_t sp);

/* The cached unwinder (a few ns a frame once warm); on another stack than
 * the thread's, the same rules read under a guard. Our own frames at the
 * top are left out. */
__attribute__((noinline)) int stack_capture(uintptr_t *pcs, int max)
{
	uintptr_t tmp[STACK_MAX_FRAMES + 16];
	int want = max + 16 < (int)(sizeof(tmp) / sizeof(tmp[0]))
	               ? max + 16
	               : (int)(sizeof(tmp) / sizeof(tmp[0]));
	int n = unwind_fast(tmp, want, 0);
	if (n < 0) {
		struct guarded g = {
		    tmp, want, 0, 1, NULL, stack_top_for((uintptr_t)__builtin_frame_address(0))};
		n = run_guarded(&g);
	}
	int i = 0, k = 0;
	while (i < n && stack_is_ours(tmp[i]))
		i++;
	for (; i < n && k < max; i++)
		pcs[k++] = tmp[i];
	return k;
}

void stack_forget_code(void)
{
	unwind_cache_flush();
}

int stack_trim_to(uintptr_t *pcs, int n, uintptr_t ip, int max)
{
	if (!ip)
		return n;
	for (int i = 0; i < n; i++) {
		if (pcs[i] != ip)
			continue;
		if (i > 0 && i < 4) {
			rt_memmove(pcs, pcs + i, (size_t)(n - i) * sizeof(pcs[0]));
			return n - i;
		}
		return n;
	}
	/* Not on the stack at all: the unwinder did not reach it (Go calls
	 * __asan_report_error from its system stack, which frame pointers do
	 * not lead back from). The access is the first frame, as ASan's. */
	if (max <= 0)
		return n;
	if (n == max)
		n--;
	rt_memmove(pcs + 1, pcs, (size_t)n * sizeof(pcs[0]));
	pcs[0] = ip;
	return n + 1;
}

int stack_capture_context(const void *uctx, int exact, uintptr_t *pcs, int max)
{
	uintptr_t regs[4];
	if (max <= 0)
		return 0;
	arch_context_regs(uctx, regs);
	struct guarded g = {pcs, max, 0, exact, regs, stack_top_for(regs[1])};
	if (run_guarded(&g) <= 0) { /* no rules for the faulting pc */
		pcs[0] = regs[0];
		return 1;
	}
	return g.n;
}

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* One multiply per frame on the serial path (the allocator hashes every
 * stack it records), one full mix at the end. */
static uint64_t hash64(const uintptr_t *pcs, int n)
{
	uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)n;
	for (int i = 0; i < n; i++) {
		h = (h + pcs[i]) * 0x9e3779b97f4a7c15ull;
		h ^= h >> 29;
	}
	return mix64(h);
}

uint32_t stack_hash(const uintptr_t *pcs, int n)
{
	uint64_t h = hash64(pcs, n);
	return (uint32_t)(h ^ (h >> 32));
}

/* Depot: records in one reserved region, filled by an atomic bump pointer,
 * found through an open-addressed table of 64-bit slots. A slot holds 40
 * bits of the stack's hash beside the record's offset, so a lookup reads one
 * cache line of the table and no record at all when the stack is known;
 * with the 20 bits the slot index takes, 60 bits of hash must agree.
 * Never freed, like the kernel's; when full, new stacks are not saved. */
struct record {
	uint32_t n;
	uint32_t pad;
	uintptr_t pcs[];
};

#define DEPOT_BYTES (64u << 20)
/* A stack's slot is at random in its table, so each new stack touches a
 * page of it. Where every allocation saves its stack (KASAN, kmemleak=on)
 * the table is one level of 1M slots (8 MiB), made resident by the first
 * few thousand stacks. Where only KFENCE's samples do (the preload at its
 * defaults, a few stacks a second, in every process of a machine that
 * preloads it), the table grows in levels: 512 slots (one page), then
 * 1K, ... 64K, each taken once the one before it is 3/4 full. A process
 * with a few hundred stacks touches one page of table where it touched one
 * per stack (up to 128); a lookup reads every level made so far. */
#define TABLE_ORDER       20
#define SMALL_FIRST_ORDER 9
#define SMALL_LEVELS      8
#define LEVELS_MAX        SMALL_LEVELS

/* One pointer is published: the table sits at depot + DEPOT_BYTES, so a
 * thread that sees the depot sees its table. (A table pointer stored
 * beside it was written by every thread racing to make the depot, the
 * loser's after its mapping was gone.) */
static char *depot;
/* Offset 0 stays "none": records start at 16. */
static uint32_t depot_used = 16;
static uint32_t first_order = TABLE_ORDER, levels = 1;
/* The level new stacks go into; it only grows. */
static uint32_t level_top;
static uint32_t level_fill[LEVELS_MAX];

void depot_samples_only(void)
{
	if (!__atomic_load_n(&depot, __ATOMIC_ACQUIRE)) {
		first_order = SMALL_FIRST_ORDER;
		levels = SMALL_LEVELS;
	}
}

/* The slots of levels 0..k-1: (2^k - 1) << first_order. Level k's follow
 * them, and the table is the slots below level `levels`. */
static size_t slots_below(uint32_t k)
{
	return (((size_t)1 << k) - 1) << first_order;
}

static uint64_t *level_at(char *d, uint32_t k)
{
	return (uint64_t *)(d + DEPOT_BYTES) + slots_below(k);
}

/* The depot, made by the first thread to need it; NULL when there is no
 * memory. */
static char *depot_ready(void)
{
	char *d = __atomic_load_n(&depot, __ATOMIC_ACQUIRE);
	if (d)
		return d;
	size_t len = DEPOT_BYTES + slots_below(levels) * sizeof(uint64_t);
	char *mem = os_reserve(len, OS_PROT_RW);
	if (!mem)
		return NULL;
	if (!__atomic_compare_exchange_n(&depot, &d, mem, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
		os_release(mem, len);
		return d;
	}
	return mem;
}

static struct record *rec_at(char *d, uint32_t off)
{
	return (struct record *)(d + off);
}

/* The stack's record in level k, or 0 where the level does not hold it.
 * With add, a stack it does not hold is added, unless the level is 3/4
 * full (*full set) or the records' region is. */
static depot_handle_t level_save(char *d, uint32_t k, uint64_t h, const uintptr_t *pcs, int n,
                                 int add, int *full)
{
	uint64_t *table = level_at(d, k);
	uint32_t slots = 1u << (first_order + k);
	uint64_t check = h >> 24; /* 40 bits, kept in the slot */
	uint32_t mask = slots - 1;
	uint32_t i = (uint32_t)h & mask;
	for (;; i = (i + 1) & mask) {
		uint64_t slot = __atomic_load_n(&table[i], __ATOMIC_ACQUIRE);
		if (slot && (slot >> 24) == check)
			return (depot_handle_t)((slot & 0xffffff) << 3);
		if (slot)
			continue;
		if (!add)
			return 0;
		if (__atomic_load_n(&level_fill[k], __ATOMIC_RELAXED) >= slots / 4 * 3) {
			*full = 1;
			return 0;
		}
		uint32_t size = (uint32_t)(sizeof(struct record) + (size_t)n * sizeof(uintptr_t));
		uint32_t off = __atomic_fetch_add(&depot_used, size, __ATOMIC_RELAXED);
		if (off + size > DEPOT_BYTES)
			return 0;
		struct record *r = rec_at(d, off);
		r->n = (uint32_t)n;
		rt_memcpy(r->pcs, pcs, (size_t)n * sizeof(uintptr_t));
		uint64_t mine = (check << 24) | (off >> 3);
		if (__atomic_compare_exchange_n(&table[i], &slot, mine, 0, __ATOMIC_RELEASE,
		                                __ATOMIC_ACQUIRE)) {
			__atomic_add_fetch(&level_fill[k], 1, __ATOMIC_RELAXED);
			return off;
		}
		/* Another thread filled this slot first: its record may be ours. */
		if ((slot >> 24) == check)
			return (depot_handle_t)((slot & 0xffffff) << 3);
	}
}

/* The last few stacks this thread saved, compared frame by frame before
 * any hashing: a loop allocates and frees from the same few stacks, whose
 * hash was a chain of dependent multiplies, a fifth of the allocator's own
 * time. A signal handler's save may run in the middle of one: an entry is
 * cleared (h = 0) before it is rewritten, h is set last, and a reader takes
 * an entry only if its h was the same before and after the comparison. */
#define MEMO_WAYS   4
#define MEMO_FRAMES 16
static __thread struct memo {
	depot_handle_t h;
	uint32_t n;
	uintptr_t pcs[MEMO_FRAMES];
} memo[MEMO_WAYS] __attribute__((tls_model("initial-exec")));
static __thread unsigned memo_next __attribute__((tls_model("initial-exec")));

static depot_handle_t memo_find(const uintptr_t *pcs, int n)
{
	for (int w = 0; w < MEMO_WAYS; w++) {
		struct memo *m = &memo[w];
		depot_handle_t h = m->h;
		if (!h || m->n != (uint32_t)n)
			continue;
		__atomic_signal_fence(__ATOMIC_ACQUIRE);
		int i = 0;
		while (i < n && m->pcs[i] == pcs[i])
			i++;
		__atomic_signal_fence(__ATOMIC_ACQUIRE);
		if (i == n && m->h == h)
			return h;
	}
	return 0;
}

static void memo_note(const uintptr_t *pcs, int n, depot_handle_t h)
{
	struct memo *m = &memo[memo_next++ % MEMO_WAYS];
	m->h = 0;
	__atomic_signal_fence(__ATOMIC_RELEASE);
	m->n = (uint32_t)n;
	for (int i = 0; i < n; i++)
		m->pcs[i] = pcs[i];
	__atomic_signal_fence(__ATOMIC_RELEASE);
	m->h = h;
}

static depot_handle_t depot_lookup(char *d, const uintptr_t *pcs, int n);

depot_handle_t depot_save(const uintptr_t *pcs, int n)
{
	char *d = n > 0 ? depot_ready() : NULL;
	if (!d)
		return 0;
	if (n > MEMO_FRAMES)
		return depot_lookup(d, pcs, n);
	depot_handle_t got = memo_find(pcs, n);
	if (!got) {
		got = depot_lookup(d, pcs, n);
		if (got)
			memo_note(pcs, n, got);
	}
	return got;
}

/* The stack's handle, the stack added when new. */
static depot_handle_t depot_lookup(char *d, const uintptr_t *pcs, int n)
{
	uint64_t h = hash64(pcs, n);
	for (uint32_t k = 0; k < levels; k++) {
		uint32_t top = __atomic_load_n(&level_top, __ATOMIC_ACQUIRE);
		int full = 0;
		depot_handle_t got = level_save(d, k, h, pcs, n, k == top, &full);
		if (got)
			return got;
		if (k < top)
			continue;
		if (!full)
			return 0; /* the records' region is full */
		/* Level k is full: new stacks go to the next (another thread may
		 * have moved them there already). */
		if (k + 1 < levels)
			__atomic_compare_exchange_n(&level_top, &top, k + 1, 0, __ATOMIC_RELEASE,
			                            __ATOMIC_RELAXED);
	}
	return 0;
}

int depot_fetch(depot_handle_t h, const uintptr_t **pcs)
{
	char *d = __atomic_load_n(&depot, __ATOMIC_ACQUIRE);
	if (!h || !d || h >= DEPOT_BYTES)
		return 0;
	struct record *r = rec_at(d, h);
	*pcs = r->pcs;
	return (int)r->n;
}

uintptr_t depot_remote_location(uint32_t *bytes)
{
	*bytes = DEPOT_BYTES;
	return (uintptr_t)&depot;
}

static __thread uintptr_t stack_lo, stack_hi __attribute__((tls_model("initial-exec")));
static __thread int bounds_state __attribute__((tls_model("initial-exec")));

/* Once per thread, from the kernel's list of mappings, not from
 * pthread_getattr_np: that takes the thread's lock and allocates under it,
 * and the allocation can be ours, asking for the bounds again. */
int stack_bounds(uintptr_t *lo, uintptr_t *hi)
{
	if (unlikely(bounds_state == 0)) {
		uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
		int r = os_thread_stack(sp, &stack_lo, &stack_hi);
		if (r == 1) { /* a signal stack: ask again on the thread's own */
			*lo = stack_lo;
			*hi = stack_hi;
			return 0;
		}
		bounds_state = r == 0 ? 2 : 3;
	}
	if (bounds_state != 2)
		return -1;
	*lo = stack_lo;
	*hi = stack_hi;
	return 0;
}

static uintptr_t stack_top_for(uintptr_t sp)
{
	if (bounds_state == 2 && sp >= stack_lo && sp < stack_hi)
		return stack_hi;
	return UINTPTR_MAX;
}

__thread struct stack_entry stack_entry_now __attribute__((tls_model("initial-exec")));

int stack_capture_fast(uintptr_t *pcs, int max)
{
	uintptr_t lo = stack_lo, hi = stack_hi;
	uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
	/* Elsewhere (a signal stack, a coroutine's): the unwinders find it.
	 * The bounds known (state 2) are read here, without the call. */
	if ((bounds_state != 2 && stack_bounds(&lo, &hi) != 0) || fp < lo || fp >= hi)
		return stack_capture(pcs, max);
	uintptr_t entry = stack_entry_now.fp;
	if (entry > fp && entry <= hi - 2 * sizeof(uintptr_t) && !(entry & 7) &&
	    ((const uintptr_t *)entry)[1] == stack_entry_now.ret)
		fp = entry;
	int n = 0;
	/* fp <= hi - 16, not fp + 16 <= hi: a record's saved frame pointer
	 * may be data (code built without frame pointers, Rust's, uses x29 and
	 * rbp as it likes), and -8 or -16 would wrap the sum and be read. */
	while (n < max && fp >= lo && fp <= hi - 2 * sizeof(uintptr_t) && !(fp & 7)) {
		uintptr_t next = ((const uintptr_t *)fp)[0], ret = ((const uintptr_t *)fp)[1];
		if (ret < 4096)
			break;
		if (n || !stack_is_ours(ret))
			pcs[n++] = ret;
		if (next <= fp)
			break;
		fp = next;
	}
	return n;
}

/* A fiber switch (ASan's __sanitizer_finish_switch_fiber): this thread runs
 * on [lo, hi) from now on, for the unwinders and the stack's shadow. The
 * bounds it ran on come back in *old_lo and *old_hi (0 when unknown). */
void stack_switch(uintptr_t lo, uintptr_t hi, uintptr_t *old_lo, uintptr_t *old_hi)
{
	uintptr_t l = 0, h = 0;
	if (stack_bounds(&l, &h) != 0)
		l = h = 0;
	*old_lo = l;
	*old_hi = h;
	stack_lo = lo;
	stack_hi = hi;
	bounds_state = hi > lo ? 2 : 3;
}
