#define _GNU_SOURCE
#include "stack.h"

#include <dlfcn.h>
#include <string.h>
#include <unwind.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "cfi.h"
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

struct walk {
	uintptr_t *pcs;
	int max, n;
	uintptr_t start_pc; /* drop frames until this pc is seen; 0: drop ours */
	int started;
};

/* libgcc trusts .eh_frame, which the dynamic linker never reads: a
 * program whose .eh_frame is corrupt on disk runs normally, and libgcc
 * faults or calls abort() in it. So before libgcc looks up a frame's
 * caller, the caller is found by our own rule for the frame (cfi.c, from
 * the registers libgcc has for it) and its object checked
 * (cfi_pc_sane): the stack ends before a corrupt one. Where our rule
 * cannot say, and for what the checks do not see (a wild pointer in an
 * expression), libgcc runs guarded: a fault in it ends the stack there. */
static int caller_sane(struct _Unwind_Context *ctx)
{
	/* x86-64 only: on arm64 libgcc's registers for a frame did not give
	 * our rule's caller (sw_tags reports made from clang's checks lost
	 * their whole trace), so there libgcc runs guarded alone. */
#if ARCH_HAS_UNWINDER && defined(__x86_64__)
	int before = 0;
	uintptr_t pc = _Unwind_GetIPInfo(ctx, &before), cfa, at, ra;
	struct rule r;
	int cacheable;
	cfi_rule(before ? pc : pc - 1, &r, &cacheable);
	if (r.kind != KIND_FRAME && r.kind != KIND_SIGNAL)
		return 1; /* the end for libgcc too, or not ours to know */
	/* libgcc keeps the stack pointer as the callee's CFA, and as a
	 * register only where a rule restored it: the signal frame's */
	uintptr_t sp = before ? _Unwind_GetGR(ctx, DW_REG_SP) : _Unwind_GetCFA(ctx);
	uintptr_t fp = _Unwind_GetGR(ctx, DW_REG_FP);
	cfa = (r.cfa_base == BASE_RSP ? sp : fp) + (uintptr_t)(intptr_t)r.cfa_off;
	if (r.cfa_deref)
		__builtin_memcpy(&cfa, (const void *)cfa, sizeof(cfa)); /* guarded */
	at = (r.ra_base == BASE_CFA   ? cfa
	      : r.ra_base == BASE_RSP ? sp
	                              : fp) +
	     (uintptr_t)(intptr_t)r.ra_off;
	__builtin_memcpy(&ra, (const void *)at, sizeof(ra));
	/* a signal frame's caller was interrupted at ra, not called from it */
	return ra < 4096 || cfi_pc_sane(r.kind == KIND_SIGNAL ? ra : ra - 1);
#else
	(void)ctx;
	return 1;
#endif
}

/* The unwinder (libgcc with glibc's _dl_find_object) takes no locks and does
 * not allocate, so this is safe in the allocator and in the fault handler. */
static _Unwind_Reason_Code walk_frame(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	int before = 0;
	uintptr_t pc = _Unwind_GetIPInfo(ctx, &before);
	if (!pc)
		return _URC_END_OF_STACK;
	if (!w->started) {
		/* our own frames, and the handler's before start_pc (whose
		 * lookup cfi_pc_sane checked first) */
		if (w->start_pc ? pc != w->start_pc : stack_is_ours(pc))
			return w->start_pc || caller_sane(ctx) ? _URC_NO_REASON : _URC_END_OF_STACK;
		w->started = 1;
	}
	w->pcs[w->n++] = pc;
	if (w->n >= w->max || !caller_sane(ctx))
		return _URC_END_OF_STACK;
	return _URC_NO_REASON;
}

static void backtrace_guarded(void *arg)
{
	_Unwind_Backtrace(walk_frame, arg);
}

/* libgcc's walk, ended by a fault in it (see caller_sane): the frames
 * recorded before it were unwound from memory that could be read. */
static void backtrace(struct walk *w)
{
	signals_guarded(backtrace_guarded, w, NULL);
}

/* The cached unwinder first (a few ns a frame once warm), libgcc where it
 * declines. Not for fault handlers: finding a new thread's stack bounds may
 * allocate, so stack_capture_from keeps to libgcc. */
__attribute__((noinline)) int stack_capture(uintptr_t *pcs, int max)
{
	uintptr_t tmp[STACK_MAX_FRAMES + 16];
	int want = max + 16 < (int)(sizeof(tmp) / sizeof(tmp[0]))
	               ? max + 16
	               : (int)(sizeof(tmp) / sizeof(tmp[0]));
	int n = unwind_fast(tmp, want, 0);
	if (n >= 0) {
		int i = 0, k = 0;
		while (i < n && stack_is_ours(tmp[i]))
			i++;
		for (; i < n && k < max; i++)
			pcs[k++] = tmp[i];
		return k;
	}
	struct walk w = {pcs, max, 0, 0, 0};
	backtrace(&w);
	return w.n;
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

int stack_capture_from(uintptr_t fault_pc, uintptr_t *pcs, int max)
{
	struct walk w = {pcs, max, 0, fault_pc, 0};
	/* x86-64 only, as caller_sane: on arm64 cfi_pc_sane refused the
	 * fault pc of clang's sw_tags builds (linked by lld), and the stack
	 * overflow's trace was that one frame */
#if defined(__x86_64__)
	if (cfi_pc_sane(fault_pc))
#endif
		backtrace(&w);
	if (w.n == 0 && max > 0) { /* no unwind info through the signal frame */
		pcs[0] = fault_pc;
		w.n = 1;
	}
	return w.n;
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

depot_handle_t depot_save(const uintptr_t *pcs, int n)
{
	char *d = n > 0 ? depot_ready() : NULL;
	if (!d)
		return 0;
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

int stack_capture_fast(uintptr_t *pcs, int max)
{
	uintptr_t lo = stack_lo, hi = stack_hi;
	uintptr_t fp = (uintptr_t)__builtin_frame_address(0);
	/* Elsewhere (a signal stack, a coroutine's): the unwinders find it.
	 * The bounds known (state 2) are read here, without the call. */
	if ((bounds_state != 2 && stack_bounds(&lo, &hi) != 0) || fp < lo || fp >= hi)
		return stack_capture(pcs, max);
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
