#include "shadow.h"

#include <string.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../platform/os.h"
#include "../platform/signals.h"

/* The shadow of the shadow: never used, kept inaccessible. Software tags
 * move it (shadow_init_tags): their shadow has a scale of 16. */
static uintptr_t gap_beg = (SHADOW_BEG >> SHADOW_SCALE) + SHADOW_OFFSET;
static uintptr_t gap_end = ((SHADOW_END - 1) >> SHADOW_SCALE) + SHADOW_OFFSET; /* inclusive */
#define GAP_BEG gap_beg
#define GAP_END gap_end

static int ready;
static size_t pages_released;
UKASAN_EXPORT int __ukasan_shadow_mid;

int shadow_ready(void)
{
	return ready;
}

static int in_mid_shadow(uintptr_t a)
{
	return __ukasan_shadow_mid && a >= (uintptr_t)shadow_of(SHADOW_MID_BEG) &&
	       a < (uintptr_t)shadow_of(SHADOW_MID_END);
}

int shadow_in_gap(uintptr_t a)
{
	return ready && a >= GAP_BEG && a <= GAP_END && !in_mid_shadow(a) &&
	       !(__ukasan_shadow_mid && a >= SHADOW_MID_BEG && a < SHADOW_MID_END);
}

#if ARCH_SHADOW_ON_DEMAND
/* Mapped a chunk at a time when first touched, from the fault handler:
 * the kernel's KASAN_VMALLOC shadow populated on demand, for the whole address space.
 * 4 MiB of shadow (32 MiB of memory) a chunk: under qemu-user a fault and
 * its mapping cost 45 us at 1 MiB, 53 us at 4 MiB, 144 us at 16 MiB. */
#define CHUNK_SHIFT 22
static uint8_t chunks[(SHADOW_END - SHADOW_BEG) >> CHUNK_SHIFT]; /* 1: mapped */
/* The same shadow address faulting again and again: not ours after all. */
static __thread uintptr_t last_fault __attribute__((tls_model("initial-exec")));
static __thread int same_faults __attribute__((tls_model("initial-exec")));

static int chunk_mapped(uintptr_t s)
{
	return __atomic_load_n(&chunks[(s - SHADOW_BEG) >> CHUNK_SHIFT], __ATOMIC_ACQUIRE);
}

int shadow_mapped(uintptr_t addr)
{
	return chunk_mapped((uintptr_t)shadow_of(addr));
}

/* 0: mapped now (the access may be retried); -1: not ours to map. No
 * claim is taken first: a handler interrupting this thread between a claim
 * and the mapping could never see it finished. Whoever maps the chunk
 * first wins; the others find it taken and wait for the winner to say so. */
static int populate(uintptr_t s)
{
	if (s < SHADOW_BEG || s >= SHADOW_END || (s >= GAP_BEG && s <= GAP_END))
		return -1;
	uint8_t *st = &chunks[(s - SHADOW_BEG) >> CHUNK_SHIFT];
	if (__atomic_load_n(st, __ATOMIC_ACQUIRE))
		return 0; /* mapped after this fault was taken */
	if (os_reserve_at(ALIGN_DOWN(s, 1ul << CHUNK_SHIFT), 1ul << CHUNK_SHIFT, OS_PROT_RW)) {
		__atomic_store_n(st, 1, __ATOMIC_RELEASE);
		return 0;
	}
	/* Taken: by another thread about to say so, or by something not ours. */
	for (int i = 0; i < 1000 && !__atomic_load_n(st, __ATOMIC_ACQUIRE); i++)
		os_yield();
	return __atomic_load_n(st, __ATOMIC_ACQUIRE) ? 0 : -1;
}

static int on_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	(void)uctx;
	uintptr_t a = (uintptr_t)info->si_addr;
	same_faults = a == last_fault ? same_faults + 1 : 0;
	last_fault = a;
	return same_faults < 8 && populate(a) == 0;
}

static int map_on_demand(void)
{
	signals_keep_segv_open();
	if (signals_hook(SIGSEGV, on_fault) || populate(SHADOW_BEG)) {
		uint64_t as = os_address_space_limit();
		if (as != OS_UNLIMITED) {
			log_printf("ukasan: cannot map shadow memory at 0x%lx: the address-space "
			           "limit (ulimit -v, RLIMIT_AS) is %lu KiB; run without the limit "
			           "(ulimit -v unlimited)\n",
			           (unsigned long)SHADOW_BEG, (unsigned long)(as >> 10));
			return -1;
		}
		log_printf("ukasan: cannot map shadow memory at 0x%lx (does the kernel give "
		           "programs 48-bit addresses?)\n",
		           (unsigned long)SHADOW_BEG);
		return -1;
	}
	return 0;
}

int shadow_init(void)
{
	if (ready)
		return 0;
	if (map_on_demand())
		return -1;
	rt_memset(shadow_of(0), SHADOW_NULL_PAGE, os_page_size() >> SHADOW_SCALE);
	ready = 1;
	return 0;
}

int shadow_init_tags(void)
{
	if (ready)
		return 0;
	gap_beg = (uintptr_t)tag_shadow_of(SHADOW_BEG);
	gap_end = (uintptr_t)tag_shadow_of(TAG_SHADOW_END - 1);
	if (map_on_demand())
		return -1;
	ready = 1;
	return 0;
}
#else
int shadow_init_tags(void)
{
	log_printf("ukasan: software tags need arm64's top-byte-ignore\n");
	return -1;
}

static unsigned long hex(const char **p)
{
	unsigned long v = 0;
	for (;; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return v;
		v = v << 4 | (unsigned long)d;
	}
}

/* The first mapping of /proc/self/maps that overlaps [beg, end]: its range
 * and its file (empty for anonymous memory). One line of the file is at
 * most a path (PATH_MAX) and its fields. */
static int in_the_way(uintptr_t beg, uintptr_t end, unsigned long *lo, unsigned long *hi,
                      char *name, size_t namesz)
{
	static char buf[4096 + 128];
	int fd = os_open_read("/proc/self/maps"), found = 0;
	size_t have = 0;
	long n = 1;
	if (fd < 0)
		return 0;
	while (!found && (n > 0 || have)) {
		n = have < sizeof(buf) - 1 ? os_read(fd, buf + have, sizeof(buf) - 1 - have) : 0;
		have += n > 0 ? (size_t)n : 0;
		buf[have] = 0;
		char *nl = memchr(buf, '\n', have);
		if (!nl && n > 0)
			continue;
		size_t len = nl ? (size_t)(nl - buf) : have;
		buf[len] = 0;
		const char *q = buf;
		*lo = hex(&q);
		q++;
		*hi = hex(&q);
		if (*lo <= end && *hi > beg) {
			found = 1;
			const char *path = strchr(q, '/');
			if (!path)
				path = strchr(q, '[');
			size_t k = 0;
			for (; path && path[k] && k + 1 < namesz; k++)
				name[k] = path[k];
			name[k] = 0;
		}
		have -= nl ? len + 1 : len;
		memmove(buf, buf + (nl ? len + 1 : len), have);
	}
	os_close(fd);
	return found;
}

static int reserve(uintptr_t beg, uintptr_t end, enum os_prot prot)
{
	if (os_reserve_at(beg, end - beg + 1, prot))
		return 0;
	/* The instrumented code computes shadow addresses with the offset
	 * compiled into it (ukasan-cc passes AddressSanitizer's), so the
	 * shadow cannot move: say what is in the way. */
	unsigned long lo, hi;
	static char name[256];
	if (in_the_way(beg, end, &lo, &hi, name, sizeof(name))) {
		log_printf(
		    "ukasan: cannot reserve shadow memory at [0x%lx, 0x%lx]: %s is mapped at "
		    "[0x%lx, 0x%lx) inside it, and the shadow's place is compiled into "
		    "the instrumented code; link it at another address, or as "
		    "position-independent code (no -Ttext-segment or -no-pie)\n",
		    (unsigned long)beg, (unsigned long)end, *name ? name : "anonymous memory", lo,
		    hi);
		return -1;
	}
	/* Nothing in the way: an address-space limit refuses it (the shadow
	 * is address space, not memory). */
	uint64_t as = os_address_space_limit();
	if (as != OS_UNLIMITED) {
		log_printf("ukasan: cannot reserve shadow memory at [0x%lx, 0x%lx]: the "
		           "address-space limit (ulimit -v, RLIMIT_AS) is %lu KiB, and the shadow "
		           "needs %lu GiB of address space (mapped on demand, not memory); run "
		           "without the limit (ulimit -v unlimited)\n",
		           (unsigned long)beg, (unsigned long)end, (unsigned long)(as >> 10),
		           (unsigned long)((SHADOW_END - SHADOW_BEG) >> 30));
		return -1;
	}
	log_printf("ukasan: cannot reserve shadow memory at [0x%lx, 0x%lx]: the range is already "
	           "in use (is the program built as a position-independent executable?)\n",
	           (unsigned long)beg, (unsigned long)end);
	return -1;
}

/* The gap, kept inaccessible; with MidMem (shadow.h) in use at start, the
 * gap but MidMem and MidShadow, as ASan's layout then is. */
static int reserve_gap(void)
{
	unsigned long lo, hi;
	char name[8];
	uintptr_t mid_s = (uintptr_t)shadow_of(SHADOW_MID_BEG);
	uintptr_t mid_e = (uintptr_t)shadow_of(SHADOW_MID_END);
	if (SHADOW_MID_BEG <= GAP_BEG || SHADOW_MID_END - 1 > GAP_END ||
	    !in_the_way(SHADOW_MID_BEG, SHADOW_MID_END - 1, &lo, &hi, name, sizeof(name)) ||
	    in_the_way(GAP_BEG, SHADOW_MID_BEG - 1, &lo, &hi, name, sizeof(name)) ||
	    in_the_way(SHADOW_MID_END, GAP_END, &lo, &hi, name, sizeof(name)))
		return reserve(GAP_BEG, GAP_END, OS_PROT_NONE);
	if (reserve(GAP_BEG, mid_s - 1, OS_PROT_NONE) || reserve(mid_s, mid_e - 1, OS_PROT_RW) ||
	    reserve(mid_e, SHADOW_MID_BEG - 1, OS_PROT_NONE) ||
	    reserve(SHADOW_MID_END, GAP_END, OS_PROT_NONE))
		return -1;
	__ukasan_shadow_mid = 1;
	return 0;
}

int shadow_init(void)
{
	if (ready)
		return 0;
	/* Reads of never-written shadow cost nothing: MAP_NORESERVE anonymous
	 * pages come from the shared zero page until written. */
	if (reserve(SHADOW_BEG, GAP_BEG - 1, OS_PROT_RW) ||
	    reserve(GAP_END + 1, SHADOW_END - 1, OS_PROT_RW) || reserve_gap())
		return -1;
	/* The first page: so an inline check on a NULL-based pointer reports a
	 * null-ptr-deref instead of passing and crashing on the access. */
	rt_memset(shadow_of(0), SHADOW_NULL_PAGE, os_page_size() >> SHADOW_SCALE);
	ready = 1;
	return 0;
}
#endif

void shadow_poison(uintptr_t addr, size_t size, uint8_t code)
{
	if (!ready || !size)
		return;
	rt_fill(shadow_of(addr), code, ALIGN_UP(size, GRANULE) >> SHADOW_SCALE);
}

static int all_zero(const uint8_t *p, const uint8_t *e)
{
	for (; p < e && ((uintptr_t)p & 7); p++)
		if (*p)
			return 0;
	for (; p + 8 <= e; p += 8)
		if (*(const uint64_t *)p)
			return 0;
	for (; p < e; p++)
		if (*p)
			return 0;
	return 1;
}

/* The shadow pages the last large poisoning wrote, so in memory: the
 * unpoisoning that follows (libhfuzz's next input) need not ask mincore
 * about them, a system call that cost 10% of the pair. Cleared when shadow
 * pages are released. A stale span costs one fault, never a wrong byte. */
static uintptr_t resident_lo, resident_hi;

/* A program that unpoisons one big region again and again (a fuzzer's
 * input buffer: libhfuzz unpoisons 8 MiB and poisons past the input, every
 * input) must not pay for shadow that stays zero: a page never written
 * (not in memory: mincore) reads as zero and is not even read, so it is
 * never faulted in, and a page of zeros is only read. What does change is
 * written by runs of pages, one memset each, and stays resident: the next
 * poisoning would fault a released page in again. */
static void set_zero(uintptr_t s, uintptr_t e)
{
	const size_t page = os_page_size(), batch = 256;
	unsigned char in[256];
	uintptr_t run = 0; /* the start of the pages to write, 0: none */
	uintptr_t rlo = __atomic_load_n(&resident_lo, __ATOMIC_RELAXED);
	uintptr_t rhi = __atomic_load_n(&resident_hi, __ATOMIC_RELAXED);
	for (uintptr_t pg = ALIGN_DOWN(s, page); pg < e;) {
		uintptr_t stop = pg + batch * page < e ? pg + batch * page : ALIGN_UP(e, page);
		int known = 2; /* 2: all in memory; 1: in[] says; 0: unknown; -1: none */
		if (pg >= rlo && pg < rhi) {
			stop = stop < rhi ? stop : rhi;
		} else {
			stop = pg < rlo && stop > rlo ? rlo : stop;
#if ARCH_SHADOW_ON_DEMAND
			/* Chunks never mapped read 00, and asking would fail.
			 * A batch ends with its chunk: one that ran on into a
			 * chunk not mapped failed mincore whole, and its pages,
			 * then read for want of an answer, mapped that chunk
			 * and faulted a zero page in under each, resident to
			 * mincore (1 MiB of shadow per chunk boundary crossed
			 * from a chunk in use, as a fake stack's shadow below a
			 * fresh mapping's makes it). */
			uintptr_t chunk_end =
			    ALIGN_DOWN(pg, 1ul << CHUNK_SHIFT) + (1ul << CHUNK_SHIFT);
			stop = stop < chunk_end ? stop : chunk_end;
			if (!chunk_mapped(pg))
				known = -1;
			else
#endif
				known = os_pages_resident((void *)pg, stop - pg, in) == 0;
		}
		for (size_t i = 0; pg < stop; i++, pg += page) {
			uintptr_t lo = pg > s ? pg : s, hi = pg + page < e ? pg + page : e;
			int keep = known < 0 || (known == 1 && !(in[i] & 1)) ||
			           all_zero((const uint8_t *)lo, (const uint8_t *)hi);
			if (!keep && !run)
				run = lo;
			if (keep && run) {
				rt_memset((void *)run, 0, lo - run);
				run = 0;
			}
		}
	}
	if (run)
		rt_memset((void *)run, 0, e - run);
}

void shadow_set(uintptr_t s, uintptr_t e, uint8_t code)
{
	if (!ready || s >= e)
		return;
	/* Poisoning writes every byte anyway; below two pages a system call
	 * costs more than the memset. */
	size_t page = os_page_size();
	if (code && e - s >= 2 * page) {
		__atomic_store_n(&resident_hi, 0, __ATOMIC_RELAXED);
		rt_memset((void *)s, code, e - s);
		__atomic_store_n(&resident_lo, ALIGN_DOWN(s, page), __ATOMIC_RELAXED);
		__atomic_store_n(&resident_hi, ALIGN_UP(e, page), __ATOMIC_RELAXED);
	} else if (code || e - s < 2 * page) {
		rt_memset((void *)s, code, e - s);
	} else {
		set_zero(s, e);
	}
}

/* Zero shadow bytes [s, e). Whole pages inside, when there are at least
 * min_pages of them, go back to the OS instead: they read as the shared
 * zero page, which costs no memory, no page clearing, and keeps every later
 * shadow load of them in one cached page (AddressSanitizer does the same
 * above 64 KiB of shadow). */
static void zero(uintptr_t s, uintptr_t e, int check)
{
	/* Shadow never written reads as the shared zero page: writing zeros
	 * there would make it resident for nothing. */
	if (check) {
		uintptr_t a = s;
		for (; a < e && (a & 7); a++)
			if (*(const uint8_t *)a)
				break;
		for (; a + 8 <= e && !*(const uint64_t *)a; a += 8)
			;
		for (; a < e && !*(const uint8_t *)a; a++)
			;
		if (a == e)
			return;
	}
	rt_fill((void *)s, 0, e - s);
}

static void shadow_zero(uintptr_t s, uintptr_t e, size_t min_pages, int check)
{
	size_t page = os_page_size();
	uintptr_t ps = ALIGN_UP(s, page), pe = ALIGN_DOWN(e, page);
	if (ps >= pe || pe - ps < min_pages * page) {
		zero(s, e, check);
		return;
	}
	zero(s, ps, check);
	__atomic_store_n(&resident_hi, 0, __ATOMIC_RELAXED); /* pages go back */
#if ARCH_SHADOW_ON_DEMAND
	/* Chunk by chunk, the mapped ones: under qemu-user a range with a hole
	 * fails whole (the kernel does the mapped parts), and chunks never
	 * mapped read 00 already. */
	const uintptr_t chunk = 1ul << CHUNK_SHIFT;
	for (uintptr_t c = ALIGN_DOWN(ps, chunk); c < pe; c += chunk) {
		uintptr_t lo = c > ps ? c : ps, hi = c + chunk < pe ? c + chunk : pe;
		if (chunk_mapped(c))
			os_discard((void *)lo, hi - lo);
	}
#else
	os_discard((void *)ps, pe - ps);
#endif
	__atomic_add_fetch(&pages_released, (pe - ps) / page, __ATOMIC_RELAXED);
	zero(pe, e, check);
}

static void unpoison(uintptr_t addr, size_t size, size_t min_pages)
{
	if (!ready || !size)
		return;
	uintptr_t s = (uintptr_t)shadow_of(addr);
	shadow_zero(s, s + (size >> SHADOW_SCALE), min_pages, 0);
	if (size & (GRANULE - 1))
		*shadow_of(addr + size) = (int8_t)(size & (GRANULE - 1));
}

void shadow_unpoison(uintptr_t addr, size_t size)
{
	/* Not one page: a system call per allocation of 32 KiB or so would
	 * cost more than the memset. */
	unpoison(addr, size, 2);
}

void shadow_unpoison_resident(uintptr_t addr, size_t size)
{
	unpoison(addr, size, SIZE_MAX);
}

void shadow_release(uintptr_t addr, size_t size)
{
	if (!ready || !size)
		return;
	shadow_zero((uintptr_t)shadow_of(addr), (uintptr_t)shadow_of(addr + size), 1, 0);
}

size_t shadow_pages_released(void)
{
	return pages_released;
}

size_t shadow_resident_bytes(void)
{
	size_t mid = __ukasan_shadow_mid ? os_resident_bytes((uintptr_t)shadow_of(SHADOW_MID_BEG),
	                                                     (uintptr_t)shadow_of(SHADOW_MID_END))
	                                 : 0;
	return os_resident_bytes(SHADOW_BEG, GAP_BEG) + os_resident_bytes(GAP_END + 1, SHADOW_END) +
	       mid;
}

static void forget(uintptr_t s, uintptr_t e)
{
#if ARCH_SHADOW_ON_DEMAND
	/* Chunks never mapped read 00 already: reading them would map them. */
	const uintptr_t chunk = 1ul << CHUNK_SHIFT;
	for (uintptr_t c = ALIGN_DOWN(s, chunk); c < e; c += chunk) {
		uintptr_t lo = c > s ? c : s, hi = c + chunk < e ? c + chunk : e;
		if (chunk_mapped(c))
			shadow_zero(lo, hi, 1, 1);
	}
#else
	shadow_zero(s, e, 1, 1);
#endif
}

void shadow_forget(uintptr_t addr, size_t size)
{
	if (!ready || !size || !shadow_covers(addr) || !shadow_covers(addr + size - 1))
		return;
	forget((uintptr_t)shadow_of(addr), (uintptr_t)shadow_of(addr + size));
}

/* Software tags (arm64 only; shadow_init_tags fails elsewhere). */
void tag_shadow_set(uintptr_t addr, size_t size, uint8_t tag)
{
	if (!ready || !size)
		return;
	rt_memset(tag_shadow_of(addr), tag, ALIGN_UP(size, TAG_GRANULE) >> TAG_SHADOW_SCALE);
}

int tag_shadow_mapped(uintptr_t addr)
{
#if ARCH_SHADOW_ON_DEMAND
	return ready && untag(addr) < TAG_VA_END && chunk_mapped((uintptr_t)tag_shadow_of(addr));
#else
	(void)addr;
	return 0;
#endif
}

void tag_shadow_release(uintptr_t addr, size_t size)
{
	if (!ready || !size)
		return;
	shadow_zero((uintptr_t)tag_shadow_of(addr),
	            (uintptr_t)tag_shadow_of(ALIGN_UP(addr + size, TAG_GRANULE)), 1, 0);
}

void tag_shadow_forget(uintptr_t addr, size_t size)
{
	if (!ready || !size || addr >= TAG_VA_END || addr + size > TAG_VA_END)
		return;
	forget((uintptr_t)tag_shadow_of(addr), (uintptr_t)tag_shadow_of(addr + size));
}
