/* Fast x86-64 DWARF unwinder with a per-pc rule cache (see unwind.h).
 *
 * A frame is stepped over by a "rule": where the CFA is (rsp or rbp plus an
 * offset, optionally loaded from there), where the return address and rbp
 * are saved (relative to the CFA, rsp or rbp), and whether the frame is a
 * signal frame. That is all x86-64 needs: the caller's rsp is the CFA, and
 * no CFA rule compilers emit for ordinary code uses another register. The
 * rule for a pc is derived from the .eh_frame FDE covering it, the way
 * DWARF defines it (the row of the CFA program in effect at that pc), once;
 * afterwards it comes from a direct-mapped cache. */
#define _GNU_SOURCE
#include "unwind.h"

#include <dlfcn.h>
#include <stddef.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../platform/os.h"
#include "cfi.h"
#include "stack.h"

#if ARCH_HAS_UNWINDER

/* A rule packed in two words, as cached; the walk unpacks it in registers.
 * w0: CFA offset, return address offset; w1: rbp offset, then the kind, the
 * bases, and the cache generation it was stored in. */
struct packed {
	uint64_t w0, w1;
};

#define P_KIND(p)      ((unsigned)((p).w1 >> 32) & 3)
#define P_CFA_BASE(p)  ((unsigned)((p).w1 >> 34) & 3)
#define P_CFA_DEREF(p) ((unsigned)((p).w1 >> 36) & 1)
#define P_RA_BASE(p)   ((unsigned)((p).w1 >> 37) & 3)
#define P_RBP_BASE(p)  ((unsigned)((p).w1 >> 39) & 3)
#define P_CFA_OFF(p)   ((intptr_t)(int32_t)(p).w0)
#define P_RA_OFF(p)    ((intptr_t)(int32_t)((p).w0 >> 32))
#define P_RBP_OFF(p)   ((intptr_t)(int32_t)(p).w1)
#define P_GEN_SHIFT    41
#define P_GEN_MASK     ((1u << (64 - P_GEN_SHIFT)) - 1)

static struct packed pack(const struct rule *r)
{
	struct packed p;
	p.w0 = (uint32_t)r->cfa_off | (uint64_t)(uint32_t)r->ra_off << 32;
	p.w1 = (uint32_t)r->rbp_off | (uint64_t)(r->kind & 3) << 32 |
	       (uint64_t)(r->cfa_base & 3) << 34 | (uint64_t)(r->cfa_deref & 1) << 36 |
	       (uint64_t)(r->ra_base & 3) << 37 | (uint64_t)(r->rbp_base & 3) << 39;
	return p;
}

/* The cache: one slot per hash of the looked-up pc, each a sequence lock
 * (odd while a writer fills it). A reader copies pc and rule between two
 * reads of the sequence and uses the copy only if both reads saw the same
 * even number, so it never uses a pc with another pc's rule: a writer that
 * overlapped the copy changed the sequence (it is 64 bits, so it cannot wrap
 * back within a read). Writers never wait: one that finds the slot busy
 * leaves it, so a signal handler interrupting a writer of its own thread
 * only misses. Every writer for a pc stores the same rule (it depends only on
 * the object's .eh_frame), so which of two racing writers wins is moot. In
 * a child of fork, a slot a parent's thread was filling stays odd: unused.
 *
 * Rules are tagged with the generation they were computed in; a flush moves
 * to the next one, which also voids what a writer that raced the flush
 * stores (it read the old generation first). */
#ifndef UNWIND_CACHE_ORDER
#define UNWIND_CACHE_ORDER 12
#endif
#define CACHE_SLOTS (1u << UNWIND_CACHE_ORDER)
/* Where only sampled allocations capture stacks (a few a second), 128
 * slots (one page) of the 4096 (128 KB) hold their pcs: a miss costs a
 * microsecond or two of table reading, a few times a second, where each
 * page more of the cache is memory in every process. */
#define UNWIND_CACHE_FEW 7

struct slot {
	uint64_t seq;
	uint64_t pc;
	uint64_t w[2];
};

static struct slot cache[CACHE_SLOTS] __attribute__((aligned(4096)));
static uint32_t cache_gen;
/* The slots in use are the first 2^(64 - cache_shift): a slot is written at
 * random, so each new pc makes a page of the cache resident. Any shift
 * gives an index in the array, so a thread that reads it while it changes
 * only misses. */
static unsigned cache_shift = 64 - UNWIND_CACHE_ORDER;

/* Where few stacks are captured, the pages of unwind tables a walk had to
 * read are given back after it (cfi_tables_of): a rule is read once and
 * cached, and the program itself reads those tables only to throw. */
static int release_tables;

void unwind_cache_few(void)
{
	__atomic_store_n(&cache_shift, 64 - UNWIND_CACHE_FEW, __ATOMIC_RELAXED);
	__atomic_store_n(&release_tables, 1, __ATOMIC_RELAXED);
}

/* The tables one walk read, per object (a stack crosses a few). */
struct tables {
	int n;
	struct cfi_span span[4];
};

static void tables_note(struct tables *t, uintptr_t q)
{
	struct cfi_span s;
	if (t->n == 4 || cfi_tables_of(q, &s))
		return;
	for (int i = 0; i < t->n; i++)
		if (t->span[i].lo == s.lo)
			return;
	t->span[t->n++] = s;
}

/* Only pages of the file: a program may have copied the segment into
 * memory of its own (huge pages), which a discard would zero. */
static void tables_release(const struct tables *t)
{
	for (int i = 0; i < t->n; i++)
		if (os_pages_from_file(t->span[i].lo, t->span[i].hi))
			os_discard((void *)t->span[i].lo, t->span[i].hi - t->span[i].lo);
}

static inline struct slot *slot_of(uintptr_t q)
{
	return &cache[(q * 0x9e3779b97f4a7c15ull) >>
	              __atomic_load_n(&cache_shift, __ATOMIC_RELAXED)];
}

static inline int cache_get(uintptr_t q, uint64_t gen, struct packed *r)
{
	struct slot *s = slot_of(q);
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_ACQUIRE);
	uint64_t pc = __atomic_load_n(&s->pc, __ATOMIC_RELAXED);
	r->w0 = __atomic_load_n(&s->w[0], __ATOMIC_RELAXED);
	r->w1 = __atomic_load_n(&s->w[1], __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	return !(seq & 1) && pc == q && r->w1 >> P_GEN_SHIFT == gen &&
	       __atomic_load_n(&s->seq, __ATOMIC_RELAXED) == seq;
}

static void cache_put(uintptr_t q, struct packed r)
{
	struct slot *s = slot_of(q);
	uint64_t seq = __atomic_load_n(&s->seq, __ATOMIC_RELAXED);
	if ((seq & 1) || !__atomic_compare_exchange_n(&s->seq, &seq, seq + 1, 0, __ATOMIC_ACQUIRE,
	                                              __ATOMIC_RELAXED))
		return;
	/* A reader that sees any of the stores below must see the odd seq. */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	__atomic_store_n(&s->pc, q, __ATOMIC_RELAXED);
	__atomic_store_n(&s->w[0], r.w0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->w[1], r.w1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->seq, seq + 2, __ATOMIC_RELEASE);
}

void unwind_cache_flush(void)
{
	__atomic_add_fetch(&cache_gen, 1, __ATOMIC_RELEASE);
}

/* A word of the stack above our own frame, where every frame we unwind
 * keeps its saved registers: always mapped, never another thread's. */
static inline int load(uintptr_t a, uintptr_t lo, uintptr_t hi, uintptr_t *v)
{
	if (a < lo || a > hi - sizeof(uintptr_t))
		return -1;
	*v = *(const uintptr_t *)a;
	return 0;
}

static inline uintptr_t base_of(unsigned base, uintptr_t cfa, uintptr_t sp, uintptr_t bp)
{
	return base == BASE_CFA ? cfa : base == BASE_RSP ? sp : bp;
}

/* The interrupted registers in the signal context that a handler returning
 * to a trampoline at sp left (arch_is_sigreturn). */
static int sigframe_regs(uintptr_t sp, uintptr_t lo, uintptr_t hi, int lenient, uintptr_t *pc,
                         uintptr_t *nsp, uintptr_t *bp, uintptr_t *lr)
{
	uintptr_t regs[4], uc = sp + ARCH_SIGFRAME_CONTEXT;
	const size_t at[4] = ARCH_CONTEXT_OFFSETS;
	for (int i = 0; i < 4; i++)
		if (load(uc + at[i], lo, hi, &regs[i]))
			return -1;
	if (regs[1] <= sp && !lenient) /* on another stack: the lenient walk's */
		return -1;
	*pc = regs[0];
	*nsp = regs[1];
	*bp = regs[2];
	*lr = regs[3];
	return 0;
}

/* The cache missed: derive the rule from the CFI, and keep it. */
__attribute__((noinline)) static struct packed lookup_slow(uintptr_t q, uint64_t gen,
                                                           struct tables *t)
{
	struct rule r;
	int cacheable;
	cfi_rule(q, &r, &cacheable);
	if (t)
		tables_note(t, q);
	struct packed p = pack(&r);
	p.w1 |= gen << P_GEN_SHIFT;
	if (cacheable)
		cache_put(q, p);
	return p;
}

/* Where a walk starts: the registers of its first frame (lr: arm64's link
 * register, 0 where unknown), whether pc is exact (the frame stopped there,
 * not a return address), and the stack [lo, hi) its loads may read. */
struct start {
	uintptr_t pc, sp, bp, lr, lo, hi;
	int exact;
	/* 1: from inside the runtime, whose leading frames keep records */
	int ours;
	/* 1: a frame the rules do not cover ends the stack, with what was found */
	int lenient;
};

/* sps, if not NULL, gets each frame's stack pointer. Inlined into its
 * callers, the hot one first. Returns -1 where a frame is not covered
 * (not lenient) or a load fails before any frame was found. */
__attribute__((always_inline)) static inline int
walk(struct start s, uintptr_t *pcs, uintptr_t *sps, int max, int drop, struct tables *t)
{
	uintptr_t pc = s.pc, sp = s.sp, bp = s.bp, lr = s.lr;
	const uintptr_t lo = s.lo, hi = s.hi;
	const uint64_t gen = __atomic_load_n(&cache_gen, __ATOMIC_ACQUIRE) & P_GEN_MASK;
	int n = 0, exact = s.exact, ours = s.ours;
	/* A signal frame was met: past it the stack may be another one (a
	 * handler on an alternate stack), which the bounded walk leaves to the
	 * lenient one (-1). */
	int signalled = 0;
	for (int depth = 0; depth < drop + max; depth++) {
		if (depth >= drop) {
			if (sps)
				sps[n] = sp;
			pcs[n++] = pc;
			if (n == max)
				break;
		}
		/* The leading run of our own frames is stepped by their frame
		 * records: the runtime keeps frame pointers, and each of these
		 * frames is stopped at a call, its record made. No CFI of ours is
		 * read, so the preload's sampled stacks keep its .eh_frame out of
		 * memory. Not past the first frame of another object: a frame of
		 * ours a signal interrupted may not have made its record yet.
		 * Where the record is at the frame's top (x86-64). */
		if (ARCH_FRAME_RECORD_AT_CFA && ours && (ours = stack_is_ours(pc)) &&
		    !ARCH_FRAME_RECORD_ODD(pc)) {
			uintptr_t nbp, ra;
			if (bp < sp || load(bp, lo, hi, &nbp) ||
			    load(bp + sizeof(uintptr_t), lo, hi, &ra))
				goto bad;
			if (!ra)
				break;
			exact = 0;
			pc = ra;
			sp = bp + 2 * sizeof(uintptr_t);
			bp = nbp;
			continue;
		}
		uintptr_t q = exact ? pc : pc - 1;
		struct packed r;
		if (q < 4096)
			break; /* no object there: the end, as for libgcc */
		if (unlikely(!cache_get(q, gen, &r)))
			r = lookup_slow(q, gen, t);
		unsigned kind = P_KIND(r);
		/* A signal trampoline the rules do not cover (arm64's): the
		 * interrupted frame's registers are in the context above it.
		 * The code at pc is read in the vDSO, or under the lenient
		 * walk's guard (qemu's trampoline is in no object). */
		if (ARCH_SIGFRAME_CONTEXT && kind != KIND_FRAME && kind != KIND_SIGNAL &&
		    (s.lenient || os_in_vdso(pc)) && arch_is_sigreturn(pc)) {
			signalled = 1;
			if (sigframe_regs(sp, lo, hi, s.lenient, &pc, &sp, &bp, &lr))
				goto bad;
			exact = 1;
			continue;
		}
		if (kind == KIND_END)
			break;
		/* A return address still in its register: known only in the
		 * first frame of a walk from a signal's registers. */
		if (unlikely(kind == KIND_UNSUPPORTED || (P_RA_BASE(r) == BASE_NONE && !lr)))
			return s.lenient ? n : -1;

		uintptr_t cfa = base_of(P_CFA_BASE(r), 0, sp, bp) + P_CFA_OFF(r);
		uintptr_t ra, nbp = bp;
		if (P_CFA_DEREF(r) && load(cfa, lo, hi, &cfa))
			goto bad;
		/* Each step goes up the stack, but for a leaf's frame that has
		 * not moved sp (arm64), left by its link register, and for a
		 * signal frame, which the lenient walk follows to any stack. */
		signalled |= kind == KIND_SIGNAL;
		if ((cfa < sp && !(kind == KIND_SIGNAL && s.lenient)) ||
		    (cfa == sp && P_RA_BASE(r) != BASE_NONE) || cfa > hi)
			goto bad;
		if (P_RA_BASE(r) == BASE_NONE)
			ra = lr;
		else if (load(base_of(P_RA_BASE(r), cfa, sp, bp) + P_RA_OFF(r), lo, hi, &ra))
			goto bad;
		if (P_RBP_BASE(r) != BASE_NONE &&
		    load(base_of(P_RBP_BASE(r), cfa, sp, bp) + P_RBP_OFF(r), lo, hi, &nbp))
			goto bad;
		if (!ra)
			break;
		exact = kind == KIND_SIGNAL;
		pc = ra;
		sp = cfa;
		bp = nbp;
		lr = 0;
		continue;
	bad:
		/* Garbage, or a stack we may not read: stop there. */
		if (signalled && !s.lenient)
			return -1;
		return n ? n : -1;
	}
	return n;
}

/* From the registers where this is inlined, within the thread's stack. */
__attribute__((always_inline)) static inline int unwind_walk(uintptr_t *pcs, uintptr_t *sps,
                                                             int max, int skip, struct tables *t)
{
	struct start s = {.exact = 1, .ours = 1};
	uintptr_t stack_lo, stack_hi;
	ARCH_READ_REGS(s.pc, s.sp, s.bp);
	if (max <= 0)
		return 0;
	if (stack_bounds(&stack_lo, &stack_hi) != 0 || s.sp < stack_lo || s.sp >= stack_hi ||
	    stack_hi - s.sp < sizeof(uintptr_t))
		return -1;
	s.lo = s.sp;
	s.hi = stack_hi;
	if (skip < 0)
		skip = 0;
	if (skip > 4096)
		skip = 4096;
	/* Our frame and our caller's are not reported. */
	return walk(s, pcs, sps, max, skip + 2, t);
}

__attribute__((noinline)) int unwind_fast_sp(uintptr_t *pcs, uintptr_t *sps, int max, int skip)
{
	struct tables t = {0};
	int n = unwind_walk(pcs, sps, max, skip,
	                    __atomic_load_n(&release_tables, __ATOMIC_RELAXED) ? &t : NULL);
	tables_release(&t);
	return n;
}

/* The same walk, one frame more dropped (this one): one copy of it in the
 * code every preloaded process keeps resident. Not a tail call, which
 * would take this frame off the stack the walk counts. */
__attribute__((noinline)) int unwind_fast(uintptr_t *pcs, int max, int skip)
{
	int n = unwind_fast_sp(pcs, NULL, max, skip + 1);
	__asm__ volatile("" ::: "memory");
	return n;
}

/* Anywhere, for a caller that reads under signals_guarded: from the
 * registers here (a signal stack, a coroutine's), the stack read up to hi. */
__attribute__((noinline)) int unwind_anywhere(uintptr_t *pcs, int max, uintptr_t hi)
{
	struct start s = {.exact = 1, .ours = 1, .lenient = 1, .hi = hi};
	ARCH_READ_REGS(s.pc, s.sp, s.bp);
	if (max <= 0)
		return 0;
	s.lo = s.sp;
	return walk(s, pcs, NULL, max, 1, NULL);
}

__attribute__((noinline)) int unwind_from_regs(const uintptr_t regs[4], int exact, uintptr_t hi,
                                               uintptr_t *pcs, int max)
{
	struct start s = {.pc = regs[0],
	                  .sp = regs[1],
	                  .bp = regs[2],
	                  .lr = regs[3],
	                  .lo = regs[1],
	                  .hi = hi,
	                  .exact = exact,
	                  .lenient = 1};
	if (max <= 0)
		return 0;
	return walk(s, pcs, NULL, max, 0, NULL);
}

#else

int unwind_anywhere(uintptr_t *pcs, int max, uintptr_t hi)
{
	(void)pcs, (void)max, (void)hi;
	return -1;
}

int unwind_from_regs(const uintptr_t regs[4], int exact, uintptr_t hi, uintptr_t *pcs, int max)
{
	(void)regs, (void)exact, (void)hi, (void)pcs, (void)max;
	return -1;
}

int unwind_fast(uintptr_t *pcs, int max, int skip)
{
	(void)pcs;
	(void)max;
	(void)skip;
	return -1;
}

int unwind_fast_sp(uintptr_t *pcs, uintptr_t *sps, int max, int skip)
{
	(void)sps;
	return unwind_fast(pcs, max, skip);
}

void unwind_cache_flush(void)
{
}

void unwind_cache_few(void)
{
}

#endif
