/* MTE through the kernel: auxv, prctl and PROT_MTE. Raw system calls for
 * mmap and mprotect: in some modes libc's are ukasan's own interposers. */
#define _GNU_SOURCE
#include "mte.h"
#include "sys.h"

#include <stdint.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__aarch64__)

#ifndef HWCAP2_MTE
#define HWCAP2_MTE (1 << 18)
#endif
#ifndef PROT_MTE
#define PROT_MTE 0x20
#endif
#ifndef PR_SET_TAGGED_ADDR_CTRL
#define PR_SET_TAGGED_ADDR_CTRL 55
#define PR_GET_TAGGED_ADDR_CTRL 56
#define PR_TAGGED_ADDR_ENABLE   (1ul << 0)
#endif
#ifndef PR_MTE_TCF_SHIFT
#define PR_MTE_TCF_SHIFT 1
#define PR_MTE_TCF_SYNC  (1ul << PR_MTE_TCF_SHIFT)
#define PR_MTE_TCF_ASYNC (2ul << PR_MTE_TCF_SHIFT)
#define PR_MTE_TCF_MASK  (3ul << PR_MTE_TCF_SHIFT)
#define PR_MTE_TAG_SHIFT 3
#endif

int mte_supported(void)
{
	return (getauxval(AT_HWCAP2) & HWCAP2_MTE) != 0;
}

int mte_set_mode(enum mte_mode mode)
{
	static const unsigned long tcf[] = {
	    [MTE_NONE] = 0,
	    [MTE_SYNC] = PR_MTE_TCF_SYNC,
	    [MTE_ASYNC] = PR_MTE_TCF_ASYNC,
	    [MTE_ASYMM] = PR_MTE_TCF_SYNC | PR_MTE_TCF_ASYNC,
	};
	if ((unsigned)mode > MTE_ASYMM)
		return -1;
	/* The include mask goes to GCR_EL1.Exclude inverted: irg never draws
	 * a tag outside it, whatever its own exclude operand says. */
	unsigned long ctrl = PR_TAGGED_ADDR_ENABLE | tcf[mode] |
	                     ((unsigned long)MTE_TAG_INCLUDE << PR_MTE_TAG_SHIFT);
	return os_syscall(SYS_prctl, PR_SET_TAGGED_ADDR_CTRL, ctrl, 0ul, 0ul, 0ul) == 0 ? 0 : -1;
}

int mte_mode_now(void)
{
	long ctrl = os_syscall(SYS_prctl, PR_GET_TAGGED_ADDR_CTRL, 0ul, 0ul, 0ul, 0ul);
	if (ctrl < 0 || !(ctrl & PR_TAGGED_ADDR_ENABLE))
		return -1;
	switch (ctrl & PR_MTE_TCF_MASK) {
	case PR_MTE_TCF_SYNC:
		return MTE_SYNC;
	case PR_MTE_TCF_ASYNC:
		return MTE_ASYNC;
	case PR_MTE_TCF_SYNC | PR_MTE_TCF_ASYNC:
		return MTE_ASYMM;
	default:
		return MTE_NONE;
	}
}

void *mte_map(size_t size)
{
	long p = os_syscall(SYS_mmap, NULL, size, PROT_READ | PROT_WRITE | PROT_MTE,
	                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0l);
	return p == -1 ? NULL : (void *)p;
}

int mte_protect(void *addr, size_t len)
{
	return os_syscall(SYS_mprotect, addr, len, PROT_READ | PROT_WRITE | PROT_MTE) == 0 ? 0 : -1;
}

#else /* no MTE here */

int mte_supported(void)
{
	return 0;
}

int mte_set_mode(enum mte_mode mode)
{
	(void)mode;
	return -1;
}

int mte_mode_now(void)
{
	return -1;
}

void *mte_map(size_t size)
{
	(void)size;
	return NULL;
}

int mte_protect(void *addr, size_t len)
{
	(void)addr;
	(void)len;
	return -1;
}

#endif
