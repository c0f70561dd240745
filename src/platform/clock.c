/* The clocks, read through the kernel's vDSO directly: glibc's
 * clock_gettime does the same, but calling it maps a page of libc's code
 * (and the kernel's fault-around, 64 KiB of it) that a program which
 * never asks the time would not have resident. Where the vDSO or its
 * function is missing (qemu-user without one), the system call. */
#define _GNU_SOURCE
#include "os.h"
#include "sys.h"

#include <elf.h>
#include <link.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#include <time.h>

#if defined(__x86_64__)
#define VDSO_GETTIME "__vdso_clock_gettime"
#elif defined(__aarch64__)
#define VDSO_GETTIME "__kernel_clock_gettime"
#endif

typedef int (*gettime_fn)(clockid_t, struct timespec *);

/* The vDSO's program headers (their count, -1 when it has none that make
 * sense) and its loaded extent [*lo, *hi), mapped from its first byte. */
static int vdso_image(const ElfW(Phdr) * *phdrs, const ElfW(Phdr) * *load, uintptr_t *lo,
                      uintptr_t *hi)
{
	const ElfW(Ehdr) *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_phentsize != sizeof(ElfW(Phdr)) ||
	    eh->e_phoff > 4096 || eh->e_phnum > (4096 - eh->e_phoff) / sizeof(ElfW(Phdr)))
		return -1;
	const ElfW(Phdr) *ph = (const void *)((const char *)eh + eh->e_phoff);
	for (int i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_type == PT_LOAD) {
			if (ph[i].p_offset != 0 || ph[i].p_memsz > (64u << 20))
				return -1;
			*phdrs = ph;
			*load = &ph[i];
			*lo = (uintptr_t)eh;
			*hi = *lo + ph[i].p_memsz;
			return eh->e_phnum;
		}
	return -1;
}

/* The address of the vDSO's symbol name, from its dynamic symbol table
 * (DT_HASH gives its size); NULL when anything is missing. The image is
 * the kernel's, but every offset is still kept within its loaded extent. */
static void *vdso_symbol(const char *name)
{
	const ElfW(Phdr) * ph, *load, *dynamic = NULL;
	uintptr_t lo, hi;
	int n = vdso_image(&ph, &load, &lo, &hi);
	for (int i = 0; i < n; i++)
		if (ph[i].p_type == PT_DYNAMIC)
			dynamic = &ph[i];
	if (!dynamic)
		return NULL;
	/* Mapped from its first byte: link-time addresses are off by this. */
	uintptr_t bias = lo - load->p_vaddr;
#define INSIDE(a, n) ((a) >= lo && (a) <= hi && (n) <= hi - (a))
	uintptr_t d = bias + dynamic->p_vaddr;
	if (!INSIDE(d, dynamic->p_memsz))
		return NULL;
	const ElfW(Dyn) *dyn = (const void *)d;
	uintptr_t symtab = 0, strtab = 0, hash = 0, strsz = 0;
	for (size_t i = 0; i < dynamic->p_memsz / sizeof(*dyn) && dyn[i].d_tag != DT_NULL; i++) {
		uintptr_t v = dyn[i].d_un.d_ptr;
		if (dyn[i].d_tag == DT_SYMTAB)
			symtab = bias + v;
		else if (dyn[i].d_tag == DT_STRTAB)
			strtab = bias + v;
		else if (dyn[i].d_tag == DT_HASH)
			hash = bias + v;
		else if (dyn[i].d_tag == DT_STRSZ)
			strsz = v;
	}
	/* DT_HASH's second word: the number of symbols. */
	if (!INSIDE(hash, 8) || !INSIDE(strtab, strsz))
		return NULL;
	uint32_t nsyms = ((const uint32_t *)hash)[1];
	if (!INSIDE(symtab, (uintptr_t)nsyms * sizeof(ElfW(Sym))))
		return NULL;
	const ElfW(Sym) *sym = (const void *)symtab;
	size_t want = strlen(name);
	for (uint32_t i = 0; i < nsyms; i++) {
		uintptr_t at = bias + sym[i].st_value;
		if (sym[i].st_name >= strsz || strsz - sym[i].st_name <= want ||
		    ELF64_ST_TYPE(sym[i].st_info) != STT_FUNC || !sym[i].st_value || !INSIDE(at, 1))
			continue;
		if (!memcmp((const char *)strtab + sym[i].st_name, name, want + 1))
			return (void *)at;
	}
	return NULL;
#undef INSIDE
}

/* The vDSO's extent, for the unwinder (arm64's signal trampoline is
 * there, with no CFI that covers it); empty when there is none. */
static uintptr_t vdso_lo, vdso_hi;
static int vdso_known;

int os_in_vdso(uintptr_t pc)
{
	if (!__atomic_load_n(&vdso_known, __ATOMIC_ACQUIRE)) {
		const ElfW(Phdr) * ph, *load;
		uintptr_t lo = 0, hi = 0;
		if (vdso_image(&ph, &load, &lo, &hi) < 0)
			lo = hi = 0;
		__atomic_store_n(&vdso_lo, lo, __ATOMIC_RELAXED);
		__atomic_store_n(&vdso_hi, hi, __ATOMIC_RELAXED);
		__atomic_store_n(&vdso_known, 1, __ATOMIC_RELEASE);
	}
	return pc >= __atomic_load_n(&vdso_lo, __ATOMIC_RELAXED) &&
	       pc + 8 <= __atomic_load_n(&vdso_hi, __ATOMIC_RELAXED);
}

/* 0: not looked up yet; 1: none (the system call). */
static uintptr_t gettime;

static int clock_read(clockid_t clock, struct timespec *ts)
{
	uintptr_t f = __atomic_load_n(&gettime, __ATOMIC_ACQUIRE);
	if (!f) {
		f = 1;
#ifdef VDSO_GETTIME
		void *p = vdso_symbol(VDSO_GETTIME);
		if (p)
			f = (uintptr_t)p;
#endif
		__atomic_store_n(&gettime, f, __ATOMIC_RELEASE);
	}
	if (f != 1)
		return ((gettime_fn)f)(clock, ts);
	return (int)os_syscall(SYS_clock_gettime, (long)clock, ts);
}

uint64_t os_now_ns(void)
{
	struct timespec ts = {0, 0};
	clock_read(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t os_realtime_ns(void)
{
	struct timespec ts = {0, 0};
	clock_read(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
