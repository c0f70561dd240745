/* Hardware tags (the kernel's CONFIG_KASAN_HW_TAGS), for any program under
 * the preload with kasan=on, on a CPU with the Memory Tagging Extension:
 * objects live in PROT_MTE memory (hw_heap.c for small ones, large.c's
 * regions mapped PROT_MTE for large ones), the CPU checks every access's
 * pointer tag (bits 56..59) against the memory's, and a mismatch is a
 * SIGSEGV with si_code SEGV_MTESERR (sync) or SEGV_MTEAERR (async).
 *
 * kasan.mode picks how the CPU reports: sync (at the access, with its
 * address), async (later, no address), asymm (reads sync, writes async,
 * where the CPU and kernel offer it; Linux picks per CPU, qemu takes sync).
 *
 * After a report the thread's checks are turned off (TCF_NONE) so the
 * access completes, as the kernel turns them off on the CPU that faulted;
 * with kasan_multi_shot they come back at the thread's next allocation or
 * free. */
#include <signal.h>

#include "../arch/arch.h"
#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/mte.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../report/report.h"
#include "../shadow/shadow.h"
#include "hw_heap.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "shared.h"
#include "tags.h"

#if defined(__aarch64__)
#include "../arch/aarch64/mte.h"

#ifndef SEGV_MTEAERR
#define SEGV_MTEAERR 8
#define SEGV_MTESERR 9
#endif

static enum mte_mode mode;
static __thread int disarmed __attribute__((tls_model("initial-exec")));

static uint8_t hw_random_tag(void)
{
	return (uint8_t)mte_random_tag(MTE_TAG_EXCLUDE);
}

static void hw_set(uintptr_t addr, size_t size, uint8_t tag)
{
	mte_set_tags(untag(addr), size, tag);
}

/* Only our memory is PROT_MTE; anything else reads as untagged (and may
 * not be mapped at all). */
static uint8_t hw_get(uintptr_t addr)
{
	uintptr_t a = untag(addr);
	if (!hw_heap_owns(a) && !large_owns(a))
		return MTE_TAG_UNTAGGED;
	return (uint8_t)mte_get_tag(a);
}

static void hw_mark_object(uintptr_t obj, size_t size, uint8_t tag)
{
	hw_set(obj, ALIGN_UP(size ? size : 1, TAG_GRANULE), tag);
}

static void *chunk_alloc(size_t align, size_t size)
{
	return hw_heap_alloc(size, align);
}

static void chunk_free(void *p)
{
	hw_heap_free(p);
}

static int chunk_owns(uintptr_t addr)
{
	return hw_heap_owns(addr) && hw_heap_owns(addr - TAG_GRANULE);
}

static void rearm(void);

static const struct tag_backend hw_backend = {
    .invalid = MTE_TAG_FREED,
    .meta = MTE_TAG_UNTAGGED,
    .match_all = 0,
    .random_tag = hw_random_tag,
    .set = hw_set,
    .mark_object = hw_mark_object,
    .get = hw_get,
    .get_raw = hw_get,
    .chunk_alloc = chunk_alloc,
    .chunk_free = chunk_free,
    .chunk_owns = chunk_owns,
    .rearm = rearm,
};

static void rearm(void)
{
	if (disarmed && opt.kasan_multi_shot) {
		disarmed = 0;
		mte_set_mode(mode);
	}
}

static int on_tag_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	if (info->si_code == SEGV_MTEAERR) {
		kasan_report_async(uctx);
		return 1;
	}
	if (info->si_code != SEGV_MTESERR)
		return 0;
	uint32_t insn = 0;
	os_copy_readable(&insn, (const void *)fault_pc(uctx), sizeof(insn));
	kasan_report_at((uintptr_t)info->si_addr, arch_insn_access_size(insn), fault_is_write(uctx),
	                uctx);
	/* Let the access complete: the kernel turns checks off on the CPU. */
	disarmed = 1;
	mte_set_mode(MTE_NONE);
	return 1;
}

/* No shadow: the tags are the CPU's. */
static void print_stats(void)
{
	struct hw_heap_stats h;
	hw_heap_get_stats(&h);
	report_printf("tagged small heap:      %zu kB mapped, %zu kB in use, %zu kB freed "
	              "waiting for reuse\n",
	              (h.mapped + 1023) >> 10, (h.in_use + 1023) >> 10, (h.queued + 1023) >> 10);
}

static const struct kasan_ops hw_tags_ops = {
    .name = "hw_tags",
    TAGS_OPS,
    .owns = tags_owns,
    .rearm = rearm,
    .fork_prepare = hw_heap_fork_prepare,
    .fork_parent = hw_heap_fork_parent,
    .fork_child = hw_heap_fork_child,
    .print_stats = print_stats,
    .leak_heap = &hw_tags_leak_heap,
};

const struct kasan_ops *hw_tags_init(void)
{
	if (!mte_supported()) {
		log_printf("ukasan: kasan=on: this CPU has no memory tagging (MTE); running with "
		           "KFENCE only\n");
		return NULL;
	}
	mode = opt.kasan_hw_mode == KASAN_MODE_ASYNC   ? MTE_ASYNC
	       : opt.kasan_hw_mode == KASAN_MODE_ASYMM ? MTE_ASYMM
	                                               : MTE_SYNC;
	if (mte_set_mode(mode) != 0) {
		log_printf("ukasan: kasan=on: the kernel refused tag checking "
		           "(PR_SET_TAGGED_ADDR_CTRL); running with KFENCE only\n");
		return NULL;
	}
	large_mte = 1;
	kasan_cpu_tag_checks = 1;
	tags_init(&hw_backend);
	signals_hook(SIGSEGV, on_tag_fault);
	return &hw_tags_ops;
}
#else
const struct kasan_ops *hw_tags_init(void)
{
	log_printf("ukasan: kasan=on: hardware tags need arm64's memory tagging (MTE); running "
	           "with KFENCE only\n");
	return NULL;
}
#endif
