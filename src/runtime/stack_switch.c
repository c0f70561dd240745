/* Control leaving instrumented frames in ways the compiler did not see:
 * a context switch with swapcontext, and an exception thrown from code
 * built without instrumentation (a no_sanitize function, a library). Both
 * would leave stack redzones behind where other frames will run, and the
 * next clean access there would be a false stack-out-of-bounds; as
 * AddressSanitizer does, the interposers below clear those marks. Programs
 * that annotate their switches (__sanitizer_start_switch_fiber, fiber.c)
 * get more: the stack bounds follow the switch. */
#define _GNU_SOURCE /* REG_RSP */
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#include "../base/compiler.h"
#include "../kasan/kasan.h"
#include "../platform/dynlink.h"
#include "../platform/signals.h"

/* The compiler's entry before a call that does not return (generic_abi.c):
 * clears this thread's stack marks from the caller's frame to the top
 * of its stack, where the frames the call leaves are. */
void __asan_handle_no_return(void);

/* The definition the program would have called without ukasan. */
static void *next_of(const void *self, const char *name)
{
	return dl_next_definition(self, name, NULL);
}

/* The stack a context runs on, when it has one of its own (made by
 * makecontext): [*lo, *lo + *size). Only a context whose saved stack
 * pointer lies in its uc_stack counts: getcontext does not fill uc_stack,
 * so a context that only ever saved a thread's own stack may hold anything
 * there, and clearing the marks of what it points to would hide bugs.
 * (AddressSanitizer's makecontext signs the stack for the same purpose;
 * the stack pointer tells without one more interposer.) */
static int context_stack(const ucontext_t *uc, uintptr_t *lo, size_t *size)
{
	uintptr_t sp = (uintptr_t)uc->uc_stack.ss_sp, n = uc->uc_stack.ss_size, cur;
#if defined(__x86_64__)
	cur = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	cur = (uintptr_t)uc->uc_mcontext.sp;
#else
	return 0;
#endif
	if (!sp || !n || sp + n < sp || cur < sp || cur > sp + n)
		return 0;
	*lo = sp;
	*size = n;
	return 1;
}

/* Every mode's marks of the range go: generic stack redzones, tags. Not
 * kasan_forget_range, which leaves large heap objects alone: a coroutine's
 * stack is often one, and its own redzones outside the range stay. */
static void clear_stack_marks(uintptr_t lo, size_t size)
{
	if (kasan_enabled)
		kasan_clear_stack_marks(lo, size);
}

/* The stack switched to may hold the redzones of frames that were left
 * there, with a longjmp or by abandoning a coroutine, or it may be new
 * memory that held anything. Cleared before the switch, and again when the
 * call "returns" (something switched back to oucp): ucp's stack then holds
 * the marks of whatever ran on it meanwhile, frames left suspended or
 * abandoned, and the program may take that memory back as data. As
 * ASan's interceptor, the range is the one ucp named before the switch. */
UKASAN_EXPORT int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
	static int (*next)(ucontext_t *, const ucontext_t *);
	if (!next)
		next = (int (*)(ucontext_t *, const ucontext_t *))next_of((void *)swapcontext,
		                                                          "swapcontext");
	uintptr_t lo = 0;
	size_t size = 0;
	int own = context_stack(ucp, &lo, &size);
	if (own)
		clear_stack_marks(lo, size);
	int r = next(oucp, ucp);
	if (own)
		clear_stack_marks(lo, size);
	return r;
}

/* Frames the exception unwinds past run no epilogue of their own that
 * would unpoison their redzones. */
UKASAN_EXPORT __attribute__((noreturn)) void __cxa_throw(void *obj, void *type,
                                                         void (*dtor)(void *))
{
	static void (*next)(void *, void *, void (*)(void *));
	if (!next)
		next = (void (*)(void *, void *, void (*)(void *)))next_of((void *)__cxa_throw,
		                                                           "__cxa_throw");
	__asan_handle_no_return();
	next(obj, type, dtor);
	__builtin_unreachable();
}

/* libc++'s std::rethrow_exception (libstdc++ has no such entry); it
 * returns for a null exception. */
UKASAN_EXPORT void __cxa_rethrow_primary_exception(void *obj)
{
	static void (*next)(void *);
	if (!next)
		next = (void (*)(void *))next_of((void *)__cxa_rethrow_primary_exception,
		                                 "__cxa_rethrow_primary_exception");
	__asan_handle_no_return();
	if (next)
		next(obj);
}

/* The unwinder's own entry, for exceptions of other languages (and C++
 * runtimes other than libstdc++'s __cxa_throw); it returns only when no
 * handler was found. */
struct _Unwind_Exception;
UKASAN_EXPORT int _Unwind_RaiseException(struct _Unwind_Exception *e)
{
	static int (*next)(struct _Unwind_Exception *);
	if (!next)
		next = (int (*)(struct _Unwind_Exception *))next_of((void *)_Unwind_RaiseException,
		                                                    "_Unwind_RaiseException");
	__asan_handle_no_return();
	return next(e);
}

/* longjmp and its kin, called from code built without instrumentation (a
 * library's error path: libpng's and libjpeg's jump back to the caller's
 * setjmp): the instrumented frames jumped over keep their redzones, as with
 * an exception. Code built with ukasan-cc calls __asan_handle_no_return
 * itself before these calls; once more costs little. */
typedef void (*jump_fn)(void *, int);

static __attribute__((noreturn)) void jump(jump_fn *next, const void *self, const char *name,
                                           void *env, int val)
{
	if (!*next)
		*next = (jump_fn)next_of(self, name);
	__asan_handle_no_return();
	/* glibc's jumps restore the mask sigsetjmp saved: out of a signal
	 * handler, the program's belief that a fault signal is blocked ends
	 * there (platform/signals.c keeps them open meanwhile). */
	signals_jump(env);
	(*next)(env, val);
	__builtin_unreachable();
}

UKASAN_EXPORT __attribute__((noreturn)) void longjmp(void *env, int val)
{
	static jump_fn next;
	jump(&next, (void *)longjmp, "longjmp", env, val);
}

UKASAN_EXPORT __attribute__((noreturn)) void _longjmp(void *env, int val)
{
	static jump_fn next;
	jump(&next, (void *)_longjmp, "_longjmp", env, val);
}

UKASAN_EXPORT __attribute__((noreturn)) void siglongjmp(void *env, int val)
{
	static jump_fn next;
	jump(&next, (void *)siglongjmp, "siglongjmp", env, val);
}

/* _FORTIFY_SOURCE's longjmp, which checks that the jump goes up the stack. */
UKASAN_EXPORT __attribute__((noreturn)) void __longjmp_chk(void *env, int val)
{
	static jump_fn next;
	jump(&next, (void *)__longjmp_chk, "__longjmp_chk", env, val);
}
