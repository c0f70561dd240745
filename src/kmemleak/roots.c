/* kmemleak's roots: which memory of the process is read for pointers,
 * and how (scan.c marks what those words reach). The writable data of the
 * loaded modules (up to the end of their .bss, as their ELF headers give
 * it), each thread's stack from its stack pointer up, its registers and
 * static TLS, and, where the program's heap is not tracked, every private
 * writable mapping; never the runtime's own image or its reservations, and
 * only what the maps say is readable. */
#include <elf.h>
#include <link.h>

#include "../base/compiler.h"
#include "../platform/os.h"
#include "../platform/threads.h"
#include "scan.h"
#include "scan_private.h"

/* The runtime's own writable image (its .data and .bss) is never a root,
 * however a range reaches it: kmemleak's own state there (each heap's
 * bounds, which start at its lowest object) would keep objects alive. The
 * kernel shares the mapping of that .bss with an adjacent anonymous one,
 * and the dynamic linker's static TLS block of the main thread, scanned
 * whole, is sometimes mapped right after it (heaps.c finds it). */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
static uintptr_t own_lo, own_hi;

int roots_read_self(void *dst, uintptr_t addr, size_t len)
{
	__builtin_memcpy(dst, (const void *)addr, len);
	return 0;
}

long scan_map_of(uintptr_t a)
{
	long l = 0, h = scan_nmaps;
	while (l < h) {
		long m = (l + h) / 2;
		if (a < scan_maps[m].start)
			h = m;
		else if (a >= scan_maps[m].end)
			l = m + 1;
		else
			return m;
	}
	return -1;
}

static void scan_mapped(uintptr_t lo, uintptr_t hi);

/* Only what the maps say is readable, and none of the runtime's data. */
void scan_range(uintptr_t lo, uintptr_t hi)
{
	if (lo < own_hi && hi > own_lo) {
		if (lo < own_lo)
			scan_mapped(lo, own_lo);
		lo = own_hi;
	}
	if (lo < hi)
		scan_mapped(lo, hi);
}

static void scan_mapped(uintptr_t lo, uintptr_t hi)
{
	while (lo < hi) {
		long m = scan_map_of(lo);
		if (m < 0) {
			/* Up to the next mapping. */
			long l = 0, h = scan_nmaps;
			while (l < h) {
				long mid = (l + h) / 2;
				if (scan_maps[mid].start <= lo)
					l = mid + 1;
				else
					h = mid;
			}
			if (l >= scan_nmaps)
				return;
			lo = scan_maps[l].start;
			continue;
		}
		uintptr_t end = scan_maps[m].end < hi ? scan_maps[m].end : hi;
		if ((scan_maps[m].flags & OS_MAP_R) && !(scan_maps[m].flags & OS_MAP_SPECIAL))
			scan_words(lo, end);
		lo = end;
	}
}

/* The anonymous mapping right after a module's file-backed part (not
 * ours): where the dynamic linker maps its .bss. */
int roots_follows_module(long i)
{
	return i > 0 && scan_maps[i - 1].end == scan_maps[i].start &&
	       (scan_maps[i - 1].flags & OS_MAP_FILE) &&
	       scan_maps[i - 1].path_hash != scan_own_path;
}

/* Code that belongs to the dynamic linker. */
int roots_in_linker(uintptr_t pc)
{
	long m = scan_map_of(pc);
	return m >= 0 &&
	       (scan_maps[m].flags & (OS_MAP_LINKER | OS_MAP_X)) == (OS_MAP_LINKER | OS_MAP_X);
}

int roots_is_module_data(long i)
{
	const struct os_map *m = &scan_maps[i];
	if ((m->flags & (OS_MAP_R | OS_MAP_W)) != (OS_MAP_R | OS_MAP_W) || scan_map_has_heap[i])
		return 0;
	if (m->flags & OS_MAP_FILE)
		return m->path_hash != scan_own_path;
	/* .bss: anonymous, right after the module's file-backed part. */
	return !(m->flags & (OS_MAP_SPECIAL | OS_MAP_STACK | OS_MAP_HEAP)) &&
	       roots_follows_module(i);
}

/* ---- Roots where the program's heap is not tracked ----
 * Only some objects are candidates (KFENCE's sampled ones, under the
 * preload at its defaults), and the others, wherever the program's
 * allocator keeps them, may point to one: every private writable mapping is
 * a root, as a whole. Conservative: a stale pointer in free memory can only
 * hide a leak, never make one. Left out: the heaps' own mappings, what
 * mark() scans anyway (modules' data, libukasan.so's own, the stacks of
 * the threads it scans from their stack pointer up: the dead part below
 * would keep the very pointers a leak lost), memory shared with others
 * (a file's pages), and ukasan's own reservations (KFENCE's metadata holds
 * every sampled object's address). */

/* [lo, hi) but for ukasan's own ranges (in no order; none overlap). */
void scan_not_own(uintptr_t lo, uintptr_t hi)
{
	for (long i = 0; i < scan_nown; i++)
		if (scan_own_ranges[i].start < hi && scan_own_ranges[i].end > lo) {
			if (scan_own_ranges[i].start > lo)
				scan_not_own(lo, scan_own_ranges[i].start);
			lo = scan_own_ranges[i].end;
		}
	if (lo < hi)
		scan_range(lo, hi);
}

static int own_holds(uintptr_t a)
{
	for (long i = 0; i < scan_nown; i++)
		if (a - scan_own_ranges[i].start <
		    scan_own_ranges[i].end - scan_own_ranges[i].start)
			return 1;
	return 0;
}

static int holds_sp(long i, uintptr_t self_sp, long nthreads)
{
	if (self_sp - scan_maps[i].start < scan_maps[i].end - scan_maps[i].start)
		return 1;
	for (long t = 0; t < nthreads; t++)
		if ((scan_threads[t].state == OS_THREAD_STOPPED ||
		     scan_threads[t].state == OS_THREAD_BLOCKING) &&
		    scan_threads[t].sp - scan_maps[i].start < scan_maps[i].end - scan_maps[i].start)
			return 1;
	return 0;
}

static void scan_untracked_map(long i, uintptr_t self_sp, long nthreads)
{
	const struct os_map *m = &scan_maps[i];
	if ((m->flags & (OS_MAP_R | OS_MAP_W)) != (OS_MAP_R | OS_MAP_W) ||
	    (m->flags & (OS_MAP_FILE | OS_MAP_SHARED | OS_MAP_SPECIAL | OS_MAP_STACK)) ||
	    scan_map_has_heap[i] || holds_sp(i, self_sp, nthreads))
		return;
	/* A module's .bss is read as its data; what the kernel merged
	 * after it is the program's memory as any (another allocator's
	 * metadata: tcmalloc's, right after a library's .bss). The
	 * runtime's own .bss is left out by scan_range. */
	uintptr_t lo = roots_is_module_data(i) ? roots_module_data_end(i) : m->start;
	scan_not_own(lo, m->end);
}

static int size_class(const struct os_map *m)
{
	size_t len = m->end - m->start;
	return len < (256ul << 10) ? 0 : len < (4ul << 20) ? 1 : len < (64ul << 20) ? 2 : 3;
}

/* Smaller mappings first, in four passes by size (under 256 KiB, 4 MiB,
 * 64 MiB, and the rest): the scan stops once every candidate is reached
 * (scan.c), and a big heap is most of the reading, where the pointer to a
 * candidate may as well be in a smaller mapping (an array too big for the
 * heap, mapped on its own). */
void scan_untracked(uintptr_t self_sp, long nthreads)
{
	for (int pass = 0; pass < 4; pass++)
		for (long i = 0; i < scan_nmaps; i++)
			if (size_class(&scan_maps[i]) == pass)
				scan_untracked_map(i, self_sp, nthreads);
}

/* Where the module data in mapping i ends. A .bss (the anonymous mapping
 * right after the module's file-backed part) ends with the module's
 * writable segments (p_vaddr + p_memsz), read from its ELF header at its
 * lowest mapping: the kernel merges whatever anonymous memory is mapped
 * next into the same mapping (Python's object arenas right after a
 * library it loaded, megabytes of stale pointers, which kept its leaks in
 * one run of ten), and LSan, reading the segments, never scans past them.
 * The whole mapping when no header is found there. */
uintptr_t roots_module_data_end(long i)
{
	if (scan_maps[i].flags & OS_MAP_FILE)
		return scan_maps[i].end;
	uint64_t path = scan_maps[i - 1].path_hash;
	long first = i - 1;
	for (long k = i - 2; k >= 0; k--) {
		if ((scan_maps[k].flags & OS_MAP_FILE) && scan_maps[k].path_hash == path)
			first = k;
		else if (scan_maps[k].flags & (OS_MAP_FILE | OS_MAP_R | OS_MAP_W | OS_MAP_X))
			break; /* not the module's, nor a gap between its segments */
	}
	const struct os_map *m = &scan_maps[first];
	size_t len = m->end - m->start;
	int (*rd)(void *, uintptr_t, size_t) = scan_remote ? scan_remote->read : roots_read_self;
	ElfW(Ehdr) ehdr, *eh = &ehdr;
	ElfW(Phdr) ph[64];
	if (!(m->flags & OS_MAP_R) || len < sizeof(*eh) || rd(eh, m->start, sizeof(*eh)) != 0 ||
	    eh->e_ident[EI_MAG0] != ELFMAG0 || eh->e_ident[EI_MAG1] != ELFMAG1 ||
	    eh->e_ident[EI_MAG2] != ELFMAG2 || eh->e_ident[EI_MAG3] != ELFMAG3 ||
	    eh->e_phentsize != sizeof(ElfW(Phdr)) || eh->e_phoff > len ||
	    eh->e_phnum > (len - eh->e_phoff) / sizeof(ElfW(Phdr)) || eh->e_phnum > 64 ||
	    rd(ph, m->start + eh->e_phoff, eh->e_phnum * sizeof(ph[0])) != 0)
		return scan_maps[i].end;
	uintptr_t lowest = UINTPTR_MAX, end = 0, page = os_page_size();
	for (int j = 0; j < eh->e_phnum; j++)
		if (ph[j].p_type == PT_LOAD && ph[j].p_vaddr < lowest)
			lowest = ph[j].p_vaddr;
	uintptr_t base = m->start - ALIGN_DOWN(lowest, page);
	for (int j = 0; j < eh->e_phnum; j++)
		if (ph[j].p_type == PT_LOAD && (ph[j].p_flags & PF_W) &&
		    ph[j].p_memsz <= UINTPTR_MAX - ph[j].p_vaddr &&
		    base + ph[j].p_vaddr + ph[j].p_memsz > end)
			end = base + ph[j].p_vaddr + ph[j].p_memsz;
	/* A bad header's sum wraps, and lands anywhere: clipped. */
	if (end >= scan_maps[i].end)
		return scan_maps[i].end;
	return end > scan_maps[i].start ? ALIGN_UP(end, page) : scan_maps[i].start;
}

/* A thread's stack from sp up, its registers, and its static TLS. */
void scan_thread(uintptr_t sp, uintptr_t tp, const uintptr_t *regs, int nregs, size_t below)
{
	for (int i = 0; i < nregs; i++) {
		scan_value(regs[i]);
	}
	long m = scan_map_of(sp);
	/* below: the red zone of x86-64's ABI, for interrupted threads. A
	 * stack of ukasan's own (a signal stack) is scanned as any. */
	if (m >= 0 && own_holds(sp))
		scan_range(sp - below > scan_maps[m].start ? sp - below : scan_maps[m].start,
		           scan_maps[m].end);
	else if (m >= 0)
		scan_not_own(sp - below > scan_maps[m].start ? sp - below : scan_maps[m].start,
		             scan_maps[m].end);
	long t = tp ? scan_map_of(tp) : -1;
	if (t < 0 || t == m ||
	    (roots_is_module_data(t) && roots_module_data_end(t) == scan_maps[t].end))
		return;
	/* glibc puts static TLS beside the thread pointer (below it on
	 * x86-64, above on arm64), and for the main thread in a small mapping
	 * of the dynamic linker's: that mapping whole, or around tp.
	 * The kernel may have merged that mapping with one of ukasan's own
	 * (KFENCE's metadata holds every sampled object's address): not those. */
	if (!scan_map_has_heap[t] && scan_maps[t].end - scan_maps[t].start <= (16ul << 20))
		scan_not_own(scan_maps[t].start, scan_maps[t].end);
	else
		scan_not_own(tp > (64ul << 10) ? tp - (64ul << 10) : 0, tp + (64ul << 10));
}

/* Where the runtime is, in the maps just read: its file (whose data is
 * not a module's root) and its writable image (no root at all). at: an
 * address of its code, here; from outside, the target's runtime. */
void roots_find_own(uintptr_t at)
{
	long own = scan_map_of(scan_remote ? scan_remote->own : at);
	scan_own_path = own >= 0 ? scan_maps[own].path_hash : 0;
	if (!scan_remote)
		kmemleak_own_data((uintptr_t)__ehdr_start, roots_read_self, &own_lo, &own_hi);
	else if (own >= 0) { /* its ELF header starts the first mapping of its file */
		long first = own;
		while (first > 0 && scan_maps[first - 1].path_hash == scan_own_path)
			first--;
		kmemleak_own_data(scan_maps[first].start, scan_remote->read, &own_lo, &own_hi);
	} else
		own_lo = own_hi = 0;
}

/* ---- From outside: another process's words (`ukasan leaks PID`) ---- */

/* A window of the other process's memory, read once for the small objects
 * in it: a system call per object was most of a scan's time (a heap of
 * 1.6M objects of 64 bytes: 1.0 s of system time). */
#define WINDOW (64u << 10)
static uintptr_t window[WINDOW / 8];
static uintptr_t window_lo, window_hi;

void roots_remote_begin(void)
{
	window_lo = window_hi = 0;
}

/* Words of the other process, read a chunk at a time; a chunk that cannot
 * be read whole (a page unmapped or past its file's end) is read a page at
 * a time, the unreadable pages left out. */
void scan_words_remote(uintptr_t lo, uintptr_t hi)
{
	static uintptr_t buf[8192];
	lo = ALIGN_UP(lo, 8);
	if (hi - lo < 4096 && hi > lo) {
		if (lo < window_lo || hi > window_hi) {
			long m = scan_map_of(lo);
			uintptr_t start = ALIGN_DOWN(lo, 4096), end = start + WINDOW;
			if (m >= 0 && end > scan_maps[m].end)
				end = scan_maps[m].end;
			window_lo = window_hi = 0;
			if (m >= 0 && hi <= end &&
			    scan_remote->read(window, start, end - start) == 0) {
				window_lo = start;
				window_hi = end;
			}
		}
		if (lo >= window_lo && hi <= window_hi) {
			scan_values(window + (lo - window_lo) / 8, (hi - lo) / 8);
			return;
		}
	}
	while (lo < hi && hi - lo >= 8) {
		size_t n = hi - lo < sizeof(buf) ? ALIGN_DOWN(hi - lo, 8) : sizeof(buf);
		if (scan_remote->read(buf, lo, n) != 0) {
			size_t page = os_page_size();
			n = ALIGN_UP(lo + 1, page) - lo;
			n = n < hi - lo ? n : ALIGN_DOWN(hi - lo, 8);
			if (scan_remote->read(buf, lo, n) != 0) {
				lo += n;
				continue;
			}
		}
		scan_values(buf, n / 8);
		lo += n;
	}
}
