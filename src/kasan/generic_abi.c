/* The rest of the compiler ABI: globals, stack and alloca redzones,
 * no-return unpoisoning, and clang's __asan_mem* intrinsics. */
#include <string.h>

#include "../config/log.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../platform/signals.h"
#include "../stack/stack.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"

/* Copies go through rt_memcpy and friends (base/compiler.h): memcpy and the
 * fortified entry points are interposed by the checking versions linked into
 * instrumented programs, and shadow memory is not program memory to check. */

/* The access itself cannot go on: report, then let the fault take its
 * course (the program's handler, or death by SIGSEGV as without ukasan).
 * Any other fault that would kill the program gets the kernel's oops
 * first (kasan_report_oops, once every hook, KFENCE's too, declined), as
 * AddressSanitizer reports a SEGV: a wild pointer that no shadow check
 * could see (unmapped memory reads as accessible), or one that
 * uninstrumented code (libc) followed. */
static int wild_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)sig;
	if (shadow_in_gap((uintptr_t)info->si_addr))
		kasan_report_wild_fault((uintptr_t)info->si_addr, uctx);
	return 0;
}

/* Read by the interceptors linked into the program (interceptors/intercept.h):
 * their inline range test needs the shadow mapped and checks on. */
UKASAN_EXPORT int __ukasan_shadow_live;

const struct kasan_ops *generic_init(void)
{
	if (shadow_init() != 0) {
		log_printf("ukasan: this program was built with ukasan-cc and cannot run without "
		           "its shadow memory\n");
		os_exit(1);
	}
	kasan_enabled = 1;
	__ukasan_shadow_live = 1;
	generic_alloc_init();
	generic_fake_stack_init();
	signals_hook(SIGSEGV, wild_fault);
	signals_on_fatal(SIGSEGV, kasan_report_oops);
	signals_on_fatal(SIGBUS, kasan_report_oops);
	return &generic_ops;
}

/* clang's user-space instrumentation (ukasan-cc uses it for clang: only it
 * has stack use after return) calls these from each module's constructor.
 * The runtime is set up before any constructor runs (init.c), and its ABI
 * is checked by ukasan-cc choosing the flags, not by a version symbol. */
UKASAN_EXPORT void __asan_init(void)
{
	kasan_claim(&generic_ops);
}

UKASAN_EXPORT void __asan_version_mismatch_check_v8(void)
{
}

/* Stack: clang writes large frames' redzones through these (the address is
 * a shadow address). */
#define SET_SHADOW(x)                                                                              \
	UKASAN_EXPORT void __asan_set_shadow_##x(uintptr_t shadow, size_t n)                       \
	{                                                                                          \
		rt_memset((void *)shadow, 0x##x, n);                                               \
	}
SET_SHADOW(00)
SET_SHADOW(01)
SET_SHADOW(02)
SET_SHADOW(03)
SET_SHADOW(04)
SET_SHADOW(05)
SET_SHADOW(06)
SET_SHADOW(07)
SET_SHADOW(f1)
SET_SHADOW(f2)
SET_SHADOW(f3)
SET_SHADOW(f5)
SET_SHADOW(f8)

/* GCC's use-after-scope calls. */
UKASAN_EXPORT void __asan_poison_stack_memory(uintptr_t addr, size_t size)
{
	shadow_poison(ALIGN_DOWN(addr, GRANULE), size, 0xf8);
}

UKASAN_EXPORT void __asan_unpoison_stack_memory(uintptr_t addr, size_t size)
{
	shadow_unpoison(addr, size);
}

/* alloca/VLA: a 32-byte left redzone, the partial granule, and a right
 * redzone up to the next 32-byte boundary and 32 bytes past it. */
#define ALLOCA_RZ 32ul

UKASAN_EXPORT void __asan_alloca_poison(uintptr_t addr, size_t size)
{
	if (!kasan_enabled)
		return;
	shadow_poison(addr - ALLOCA_RZ, ALLOCA_RZ, SHADOW_ALLOCA_LEFT);
	shadow_unpoison(addr, size);
	uintptr_t partial = ALIGN_UP(addr + size, GRANULE);
	uintptr_t right = ALIGN_UP(addr + size, ALLOCA_RZ) + ALLOCA_RZ;
	if (right > partial)
		shadow_poison(partial, right - partial, SHADOW_ALLOCA_RIGHT);
}

UKASAN_EXPORT void __asan_allocas_unpoison(uintptr_t top, uintptr_t bottom)
{
	if (!kasan_enabled || !top || top > bottom)
		return;
	rt_memset(shadow_of(top), 0, (bottom - top) >> SHADOW_SCALE);
}

/* Before a call that does not return (longjmp, throw, exit): frames
 * between here and wherever control lands will not unpoison themselves. */
UKASAN_EXPORT void __asan_handle_no_return(void)
{
	uintptr_t lo, hi, sp = (uintptr_t)__builtin_frame_address(0);
	generic_fake_stack_no_return();
	/* Also called by the runtime's __cxa_throw, in any mode: only this
	 * mode's shadow has stack marks to clear. */
	if (!kasan_enabled || kasan_ops != &generic_ops || stack_bounds(&lo, &hi) != 0 || sp < lo ||
	    sp >= hi)
		return;
	if (hi - sp > (64ul << 20)) /* not a stack we know: leave it */
		return;
	rt_memset(shadow_of(ALIGN_DOWN(sp, GRANULE)), 0,
	          (hi - ALIGN_DOWN(sp, GRANULE)) >> SHADOW_SCALE);
}

/* clang's -asan-kernel-mem-intrinsic-prefix calls. */
UKASAN_EXPORT void *__asan_memcpy(void *d, const void *s, size_t n)
{
	if (!generic_check_range((uintptr_t)s, n, 0, RET_IP) ||
	    !generic_check_range((uintptr_t)d, n, 1, RET_IP))
		return d; /* as the kernel: a bad copy is reported, not done */
	/* ASan's memcpy-param-overlap, as the memcpy interceptor's, once both
	 * ranges are good (an overflow into the next object is the overflow);
	 * the copy then goes on. */
	uintptr_t a = (uintptr_t)d, b = (uintptr_t)s;
	if (n && a != b && a < b + n && b < a + n)
		kasan_report_pair("memcpy-param-overlap", a, n, b, n, RET_IP);
	return rt_memcpy(d, s, n);
}

UKASAN_EXPORT void *__asan_memmove(void *d, const void *s, size_t n)
{
	if (!generic_check_range((uintptr_t)s, n, 0, RET_IP) ||
	    !generic_check_range((uintptr_t)d, n, 1, RET_IP))
		return d;
	return rt_memmove(d, s, n);
}

UKASAN_EXPORT void *__asan_memset(void *d, int c, size_t n)
{
	if (!generic_check_range((uintptr_t)d, n, 1, RET_IP))
		return d;
	return rt_memset(d, c, n);
}
