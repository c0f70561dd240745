/* Control leaving instrumented frames in ways the compiler did not see:
 * a context switch with swapcontext, and an exception thrown from code
 * built without instrumentation (a no_sanitize function, a library). Both
 * would leave stack redzones behind where other frames will run, and the
 * next clean access there would be a false stack-out-of-bounds; as
 * AddressSanitizer does, the interposers below clear those marks. Programs
 * that annotate their switches (__sanitizer_start_switch_fiber, fiber.c)
 * get more: the stack bounds follow the switch. */
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

#include "../base/compiler.h"
#include "../kasan/kasan.h"
#include "../platform/dynlink.h"

/* The compiler's entry before a call that does not return (generic_abi.c):
 * clears this thread's stack marks below the caller's frame. */
void __asan_handle_no_return(void);

/* The definition the program would have called without ukasan. */
static void *next_of(const void *self, const char *name)
{
	return dl_next_definition(self, name, NULL);
}

/* The stack a context runs on, when it has one of its own (made by
 * makecontext); a stack larger than this is not a coroutine's. */
static void clear_context_stack(const ucontext_t *uc)
{
	uintptr_t sp = (uintptr_t)uc->uc_stack.ss_sp;
	size_t size = uc->uc_stack.ss_size;
	if (kasan_enabled && sp && size && size <= (1ul << 30) && sp + size > sp)
		kasan_forget_range(sp, size);
}

/* The stack switched to may hold the redzones of frames that were left
 * there, with a longjmp or by abandoning a coroutine, or it may be new
 * memory that held anything. Cleared before the switch, and again when the
 * call "returns" (something switched back to oucp), since ucp's stack may
 * then hold anything too. */
UKASAN_EXPORT int swapcontext(ucontext_t *oucp, const ucontext_t *ucp)
{
	static int (*next)(ucontext_t *, const ucontext_t *);
	if (!next)
		next = (int (*)(ucontext_t *, const ucontext_t *))next_of((void *)swapcontext,
		                                                          "swapcontext");
	clear_context_stack(ucp);
	int r = next(oucp, ucp);
	clear_context_stack(ucp);
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
