/* glibc's heap memory not handed out yet, in generic mode.
 *
 * Small chunks (generic_alloc.c) come from glibc's arenas, and what glibc has not handed out
 * (its top chunk: the rest of the break's heap, of a thread arena's heap)
 * would read 00, so an access far past an object, beyond its redzone,
 * would go unseen. That memory is poisoned as heap redzone, as ASan keeps
 * its allocator's unallocated memory and the kernel its slab pages not in
 * use, but only where glibc never unmaps it: the break's heap up to the
 * break, and the first heap of each thread arena up to its usable size
 * (glibc's heap_info, at the heap's 64 MiB-aligned start; an arena and its
 * first heap live as long as the process). An arena's later heaps may be
 * unmapped and the address space reused, by thread stacks and libraries
 * that must not read poisoned: they are left alone.
 *
 * glibc grows its heaps unseen (its own sbrk and mprotect), so growth is
 * found from what it hands out. Whoever takes glibc memory for
 * instrumented code (our chunks; the program's own __libc_malloc calls and
 * unsampled large objects, handed on as they are) compares its chunk's end
 * with how far its heap is known (far_heap_take: the thread's last window,
 * a compare); past it, under the lock, the heap's new memory, from the
 * known end to the current one (a brk(2) system call, or heap_info), is
 * poisoned, then the taker sets its own shadow. A chunk whose taker already
 * compared lies below the known end, which only grows, and every other
 * taker waits for the lock or finds the end moved: no chunk is poisoned
 * under its owner. What glibc keeps for itself (a thread's tcache, the
 * runtime's own allocations) may read poisoned: no instrumented code reads
 * it. The program's own sbrk/brk memory is cleared, and the known end moved
 * past it (kasan_brk_moved). Of the break's heap as it was at start, only
 * the top chunk is: allocations before KASAN's malloc was live are below.
 *
 * Our chunks that go back to glibc are poisoned again there
 * (far_give_back): glibc's free lists, and what merges into the top chunk,
 * read as unallocated too. Memory others give back keeps its shadow (00). */
#include "../base/compiler.h"
#include "../platform/libc_alloc.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "kasan.h"

#include <string.h>

#define GLIBC_HEAP_MAX    (64ul << 20) /* HEAP_MAX_SIZE on 64-bit */
#define GLIBC_MMAPPED     2ul          /* a chunk's size field: IS_MMAPPED */
#define GLIBC_THREAD_HEAP 4ul          /* NON_MAIN_ARENA */
#define FAR_HEAPS         1024

/* The start of glibc's heap_info, the same in every version. */
struct glibc_heap_info {
	void *arena;
	struct glibc_heap_info *prev;
	size_t size; /* usable bytes from the heap's start */
};

static struct {
	int ready, on, thread_heaps;
	struct spinlock lock;
	uintptr_t brk_start, brk_end; /* the break's heap: known up to brk_end */
	/* Thread heaps: known up to end; end = base + GLIBC_HEAP_MAX when left
	 * alone (not an arena's first heap). */
	struct {
		uintptr_t base, end;
		int first;
	} heaps[FAR_HEAPS];
} far;

__thread struct far_window far_seen __attribute__((tls_model("initial-exec")));

static void far_poison(uintptr_t from, uintptr_t to)
{
	if (to > from)
		shadow_poison(from, to - from, SHADOW_SLAB_REDZONE);
}

static void far_main_grew(uintptr_t start, uintptr_t end)
{
	if (end > far.brk_end) {
		uintptr_t brk = os_brk_now();
		if (start < far.brk_start || end > brk) {
			/* glibc's mmap'd fallback: the main arena is not one
			 * heap any more. */
			__atomic_store_n(&far.on, 0, __ATOMIC_RELAXED);
			return;
		}
		far_poison(far.brk_end, brk);
		__atomic_store_n(&far.brk_end, brk, __ATOMIC_RELAXED);
	}
	far_seen.lo = far.brk_start;
	far_seen.hi = far.brk_end;
}

/* An arena's first heap: the arena's state follows its heap_info. glibc's
 * own free reads the heap_info of a thread arena's chunk at that address
 * (heap_for_ptr); mincore(2) checks it is mapped all the same, where no
 * seccomp filter may be in force. */
static int far_first_heap(uintptr_t base)
{
	unsigned char vec;
	if (!os_sandboxed() && os_pages_resident((void *)base, 1, &vec) != 0)
		return 0;
	const struct glibc_heap_info *h = (const struct glibc_heap_info *)base;
	uintptr_t arena = (uintptr_t)h->arena;
	return !h->prev && arena > base && arena <= base + 64 && h->size <= GLIBC_HEAP_MAX;
}

static void far_heap_grew_thread(uintptr_t start, uintptr_t end)
{
	uintptr_t base = start & ~(GLIBC_HEAP_MAX - 1);
	size_t i = (base / GLIBC_HEAP_MAX) % FAR_HEAPS, n = 0;
	for (; n < FAR_HEAPS && far.heaps[i].base != base; n++, i = (i + 1) % FAR_HEAPS)
		if (!far.heaps[i].base) {
			/* Found by the first taker of its memory: from its
			 * chunk up, nothing is handed out yet. */
			far.heaps[i].first = far_first_heap(base);
			far.heaps[i].end = far.heaps[i].first ? start - 8 : base + GLIBC_HEAP_MAX;
			/* Last: release_chunk reads the table unlocked. */
			__atomic_store_n(&far.heaps[i].base, base, __ATOMIC_RELEASE);
			break;
		}
	if (n == FAR_HEAPS)
		return;
	if (end > far.heaps[i].end) {
		size_t size = __atomic_load_n(&((const struct glibc_heap_info *)base)->size,
		                              __ATOMIC_RELAXED);
		if (end > base + size || size > GLIBC_HEAP_MAX)
			return;
		far_poison(far.heaps[i].end, base + size);
		far.heaps[i].end = base + size;
	}
	far_seen.lo = base;
	far_seen.hi = far.heaps[i].end;
}

__attribute__((noinline)) void far_heap_grew(uintptr_t start, uintptr_t end)
{
	if (!__atomic_load_n(&far.on, __ATOMIC_RELAXED)) {
		far_seen.lo = 0;
		far_seen.hi = UINTPTR_MAX;
		return;
	}
	uintptr_t field = *(const uintptr_t *)(start - 8);
	if (field & GLIBC_MMAPPED)
		return;
	spin_lock(&far.lock);
	if (!(field & GLIBC_THREAD_HEAP))
		far_main_grew(start, end);
	else if (far.thread_heaps)
		far_heap_grew_thread(start, end);
	spin_unlock(&far.lock);
}

/* A chunk of ours going back to glibc (release_chunk), raw its glibc
 * pointer: glibc's unallocated memory again, poisoned as such where glibc
 * never unmaps it, as ASan poisons a chunk that leaves its quarantine;
 * elsewhere its shadow is cleared. Its size field tells its arena. */
void far_give_back(uintptr_t raw, size_t span)
{
	int keep = 0;
	uintptr_t field = *(const uintptr_t *)(raw - 8);
	if (!__atomic_load_n(&far.on, __ATOMIC_RELAXED)) {
	} else if (!(field & GLIBC_THREAD_HEAP)) {
		keep =
		    raw >= far.brk_start && raw < __atomic_load_n(&far.brk_end, __ATOMIC_RELAXED);
	} else {
		uintptr_t base = raw & ~(GLIBC_HEAP_MAX - 1);
		size_t i = (base / GLIBC_HEAP_MAX) % FAR_HEAPS;
		for (size_t n = 0; n < FAR_HEAPS; n++, i = (i + 1) % FAR_HEAPS) {
			uintptr_t b = __atomic_load_n(&far.heaps[i].base, __ATOMIC_ACQUIRE);
			if (b == base || !b) {
				keep = b && far.heaps[i].first;
				break;
			}
		}
	}
	if (keep)
		shadow_poison(raw - 8, span, SHADOW_SLAB_REDZONE);
	else
		shadow_release(raw - 8, span);
}

void kasan_libc_handed(void *p)
{
	if (!p || !__atomic_load_n(&far.ready, __ATOMIC_RELAXED))
		return;
	uintptr_t raw = (uintptr_t)p, field = *(const uintptr_t *)(raw - 8);
	if (field & GLIBC_MMAPPED)
		return;
	size_t usable = (field & ~7ul) - 8; /* to the next chunk's size field */
	far_heap_take(raw, raw + usable + 8);
	shadow_unpoison(raw, usable);
}

void kasan_brk_moved(uintptr_t from, uintptr_t to)
{
	if (to <= from || !__atomic_load_n(&far.ready, __ATOMIC_RELAXED))
		return;
	spin_lock(&far.lock);
	shadow_release(from, to - from);
	if (to > far.brk_end)
		__atomic_store_n(&far.brk_end, to, __ATOMIC_RELAXED);
	spin_unlock(&far.lock);
}

/* At start, glibc's top chunk in the break's heap, found by walking the
 * heap's chunks from an in-use one of the main arena (from glibc, before
 * any other thread) to the one that ends at the break; the chunks before
 * it may be anyone's (the allocations made before KASAN's malloc was live).
 * The top's first 8 bytes are the last chunk's. 0 when the heap is not
 * glibc's chunks end to end. */
static uintptr_t far_brk_top(void *probe, uintptr_t brk)
{
	uintptr_t c = (uintptr_t)probe - 16, top = 0;
	if (!probe || (*(const size_t *)(c + 8) & (GLIBC_MMAPPED | GLIBC_THREAD_HEAP)) || c >= brk)
		c = brk;
	for (size_t n = 0; c < brk && n < 100000; n++) {
		size_t size = *(const size_t *)(c + 8) & ~7ul;
		if (size < 32 || (size & 15) || size > brk - c)
			break;
		if (c + size == brk) {
			top = c + 8;
			break;
		}
		c += size;
	}
	return top;
}

void far_heap_init(void)
{
	if (!libc_alloc_is_glibc())
		return;
	far.brk_start = os_brk_start();
	void *probe = libc_alloc()->malloc(1); /* may grow the heap: first */
	far.brk_end = os_brk_now();
	uintptr_t top = far_brk_top(probe, far.brk_end);
	libc_alloc()->free(probe);
	far_poison(top, top ? far.brk_end : 0);
	const char *t = os_getenv("GLIBC_TUNABLES");
	/* Huge-page heaps have another size and alignment. */
	far.thread_heaps = !(t && strstr(t, "hugetlb"));
	far.on = 1;
	libc_alloc_hook(far_mend_kept);
	__atomic_store_n(&far.ready, 1, __ATOMIC_RELEASE);
}

/* Reported writes over glibc's size fields.
 *
 * A small object's right redzone ends with the next chunk's size field,
 * and for some sizes that field is all of it (generic_alloc.c), as ASan's
 * redzones cost no more than its own header. A program runs on after a
 * report (kasan.fault=report, the kernel's default) and makes the write it
 * was reported for: an overflow by one element lands on the field, and
 * glibc would abort, or worse, at its next free or split there. So the
 * report keeps each glibc size field under the write, with its value
 * (far_keep_fields), and before glibc runs again (any call through
 * libc_alloc(), and a chunk's release, which reads its own field) they are
 * written back (far_mend), as at the writing thread's next report. A kept
 * field is mended once it differs (the write landed); one the writing
 * thread finds unchanged is dropped. A field read by glibc in a thread
 * already inside it when the write lands is the one case left. */
#define KEPT_MAX 64

static struct kept {
	uintptr_t at; /* 0: the slot is free */
	uint64_t value;
	int tid, ready;
} kept[KEPT_MAX];
int far_kept;
static struct spinlock mend_lock;

static void keep(uintptr_t at, uint64_t value)
{
	int tid = os_tid();
	for (int i = 0; i < KEPT_MAX; i++)
		if (__atomic_load_n(&kept[i].ready, __ATOMIC_ACQUIRE) && kept[i].at == at) {
			/* Kept already, with the value before the first write. */
			__atomic_store_n(&kept[i].tid, tid, __ATOMIC_RELAXED);
			return;
		}
	for (int i = 0; i < KEPT_MAX; i++) {
		uintptr_t free_slot = 0;
		if (!__atomic_compare_exchange_n(&kept[i].at, &free_slot, at, 0, __ATOMIC_ACQUIRE,
		                                 __ATOMIC_RELAXED))
			continue;
		kept[i].value = value;
		kept[i].tid = tid;
		__atomic_store_n(&kept[i].ready, 1, __ATOMIC_RELEASE);
		__atomic_add_fetch(&far_kept, 1, __ATOMIC_SEQ_CST);
		libc_alloc_hold(1);
		return;
	}
}

void far_keep_fields(uintptr_t raw, uintptr_t addr, size_t size)
{
	if (!__atomic_load_n(&far.ready, __ATOMIC_RELAXED) || !size)
		return;
	/* This thread's earlier writes have landed: they go first, so that
	 * a loop of bad writes holds one slot at a time, not one each. */
	far_mend();
	uintptr_t end = size > UINTPTR_MAX - addr ? UINTPTR_MAX : addr + size;
	uintptr_t field = raw - 8; /* the chunk's own, then its neighbours' */
	for (int n = 0; n < KEPT_MAX && field < end; n++) {
		uint64_t value = *(const uint64_t *)field;
		if (field + 8 > addr)
			keep(field, value);
		size_t chunk = value & ~7ul;
		if (chunk < 32 || (chunk & 15) || (value & GLIBC_MMAPPED) || chunk >= end - field)
			break;
		field += chunk;
	}
}

void far_mend_kept(void)
{
	/* Never waits: a signal handler may call malloc in the middle. */
	if (!spin_trylock(&mend_lock))
		return;
	int tid = os_tid();
	for (int i = 0; i < KEPT_MAX; i++) {
		struct kept *k = &kept[i];
		if (!__atomic_load_n(&k->ready, __ATOMIC_ACQUIRE))
			continue;
		uint64_t *field = (uint64_t *)k->at;
		if (__atomic_load_n(field, __ATOMIC_RELAXED) != k->value)
			__atomic_store_n(field, k->value, __ATOMIC_RELAXED);
		else if (__atomic_load_n(&k->tid, __ATOMIC_RELAXED) != tid)
			continue; /* its write has not landed yet */
		__atomic_store_n(&k->ready, 0, __ATOMIC_RELAXED);
		__atomic_store_n(&k->at, 0, __ATOMIC_RELEASE);
		if (!__atomic_sub_fetch(&far_kept, 1, __ATOMIC_SEQ_CST)) {
			libc_alloc_hold(0);
			if (__atomic_load_n(&far_kept, __ATOMIC_SEQ_CST))
				libc_alloc_hold(1);
		}
	}
	spin_unlock(&mend_lock);
}

void far_fork_prepare(void)
{
	spin_lock(&far.lock);
}

void far_fork_parent(void)
{
	spin_unlock(&far.lock);
}

void far_fork_child(void)
{
	spin_reset(&far.lock);
	spin_reset(&mend_lock);
}
