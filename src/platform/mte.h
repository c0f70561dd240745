/* The Memory Tagging Extension's system interface: whether the CPU has it,
 * the thread's tag check mode, and PROT_MTE memory. The instructions that
 * read and set tags are in arch/aarch64/mte.h. Elsewhere than arm64 every
 * call fails: mte_supported() is 0. */
#ifndef UKASAN_PLATFORM_MTE_H
#define UKASAN_PLATFORM_MTE_H

#include <stddef.h>
#include <stdint.h>

/* Tags irg may draw (prctl's include mask): 0x1..0xD. 0x0 marks memory that
 * is not ours (never allocated, or handed out untagged), 0xE freed memory,
 * 0xF is kept back (the kernel's KASAN_TAG_KERNEL has no user meaning, but a
 * pointer tagged 0xF is what a stray all-ones top nibble looks like). */
#define MTE_TAG_UNTAGGED 0x0
#define MTE_TAG_FREED    0xE
#define MTE_TAG_RESERVED 0xF
#define MTE_TAG_INCLUDE  0x3ffe
#define MTE_TAG_EXCLUDE  ((uint16_t)~MTE_TAG_INCLUDE)

/* What a tag mismatch does. ASYMM asks for both sync and async: Linux
 * then takes the CPU's preferred mode (sysfs mte_tcf_preferred, async
 * unless the administrator chose otherwise; asymmetric where chosen and
 * the CPU has it); qemu-user takes sync. */
enum mte_mode { MTE_NONE, MTE_SYNC, MTE_ASYNC, MTE_ASYMM };

int mte_supported(void);
/* For the calling thread only: threads created afterwards inherit it,
 * threads that exist already keep theirs. Also turns on the tagged address
 * ABI (system calls take tagged pointers) and sets irg's tags to
 * MTE_TAG_INCLUDE. 0 on success, -1 if the kernel refuses. */
int mte_set_mode(enum mte_mode mode);
/* The calling thread's mode, as asked (MTE_ASYMM for both bits); -1 when
 * the tagged address ABI is off or the kernel has no such control. */
int mte_mode_now(void);
/* Anonymous private PROT_MTE memory, readable and writable, committed on
 * first touch; NULL on failure. Released with os_release. Fresh pages'
 * tags are 0. */
void *mte_map(size_t size);
/* Make [addr, addr + len) readable, writable and PROT_MTE (page-aligned,
 * anonymous); 0 on success. */
int mte_protect(void *addr, size_t len);

#endif
