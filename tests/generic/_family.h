/* Tests of the libc functions that read or write a buffer on the program's
 * behalf, one function family per file. Each case is one call, made on a
 * heap, a stack and a global buffer of FAMILY_SIZE bytes: once exactly in
 * bounds, which must not be reported, and once one byte past, which must be,
 * with the bug type of that memory, the access's direction, size and
 * address, and the caller's line.
 *
 * Every call runs in a child process of its own. In a fortified build glibc
 * aborts a call that overflows an object whose size the compiler knows; the
 * interceptors report first, as AddressSanitizer does, and the other calls
 * must still run. The children are not in multi-shot mode: GCC checks the
 * range of some builtins itself before the interceptor does, and the first
 * report is the one that counts.
 *
 *   FAMILY_CASE(name, "Read" or "Write", PREP, CALL, ADDR, SIZE)
 *
 * defines a case: PREP readies b (the buffer) and anything else the call
 * needs, CALL is the call, ADDR and SIZE the access reported when over is 1.
 * Both may use b, n (FAMILY_SIZE + over, hidden from the compiler) and over.
 * The access's last byte must be the bad one, as it is one byte past.
 * Keep each FAMILY_CASE on one line: the report's trace names that line.
 * FAMILY_RUN(name) runs the case's six calls from main. */
#ifndef FAMILY_H
#define FAMILY_H

#include "kasan_test.h"

#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <ukasan.h>

#define FAMILY_SIZE 16

enum family_where { FAMILY_HEAP, FAMILY_STACK, FAMILY_GLOBAL };

static const char *const family_places[] = {"heap", "stack", "global"};
static const char *const family_types[] = {"slab-out-of-bounds", "stack-out-of-bounds",
                                           "global-out-of-bounds"};

/* In a fortified build the call is made from the inline wrapper in glibc's
 * header, whose line the trace names. */
#if defined(__USE_FORTIFY_LEVEL) && __USE_FORTIFY_LEVEL > 0
#define FAMILY_FORTIFIED 1
#else
#define FAMILY_FORTIFIED 0
#endif

/* The same for a call that a header makes from an inline function in every
 * optimized build, as <wchar.h> does mbrlen's: a test redefines this to 1
 * around such cases. */
#define FAMILY_INLINE_CALL 0

/* The title names the function that made the call: GCC must not clone the
 * case into name.constprop.0 or name.isra.0. */
#ifdef __clang__
#define FAMILY_FN __attribute__((noinline))
#else
#define FAMILY_FN __attribute__((noipa))
#endif

/* Large and zeroed: a source or destination that is never the bad one. */
static char family_big[4 * FAMILY_SIZE + 64];

#define FAMILY_CASE(name, RW, PREP, CALL, ADDR, SIZE)                                              \
	static char name##_global[FAMILY_SIZE];                                                    \
	static FAMILY_FN void name(enum family_where where, int over)                              \
	{                                                                                          \
		char name##_stack[FAMILY_SIZE];                                                    \
		char *b = where == FAMILY_HEAP    ? (char *)malloc(FAMILY_SIZE)                    \
		          : where == FAMILY_STACK ? name##_stack                                   \
		                                  : name##_global;                                 \
		size_t n = FAMILY_SIZE + over;                                                     \
		OPTIMIZER_HIDE_VAR(n);                                                             \
		(void)n;                                                                           \
		PREP;                                                                              \
		if (!over) {                                                                       \
			CALL;                                                                      \
		} else {                                                                           \
			KASAN_EXPECT_FAIL(CALL, .type = family_types[where], .rw = RW,             \
			                  .size = (SIZE), .addr = (ADDR),                          \
			                  .bad = (const char *)(ADDR) + (SIZE)-1,                  \
			                  .inlined = FAMILY_FORTIFIED || FAMILY_INLINE_CALL,       \
			                  .stack_object =                                          \
			                      where == FAMILY_STACK ? #name "_stack" : NULL);      \
		}                                                                                  \
		KASAN_BARRIER();                                                                   \
	}

/* The same with a buffer of BUF bytes, for calls whose access has a size
 * of its own (a struct stat, a timeval): the one-byte-past call is made on
 * b + over, so that the object it is given ends one byte early. Written
 * out again, not as FAMILY_CASE's expansion: an argument with a comma
 * outside parentheses (an initialiser in PREP) would be split anew. */
#define FAMILY_CASE_SIZED(name, BUF, RW, PREP, CALL, ADDR, SIZE)                                   \
	static char name##_global[BUF];                                                            \
	static FAMILY_FN void name(enum family_where where, int over)                              \
	{                                                                                          \
		char name##_stack[BUF];                                                            \
		char *b = where == FAMILY_HEAP    ? (char *)malloc(BUF)                            \
		          : where == FAMILY_STACK ? name##_stack                                   \
		                                  : name##_global;                                 \
		size_t n = (BUF) + over;                                                           \
		OPTIMIZER_HIDE_VAR(n);                                                             \
		(void)n;                                                                           \
		PREP;                                                                              \
		if (!over) {                                                                       \
			CALL;                                                                      \
		} else {                                                                           \
			KASAN_EXPECT_FAIL(CALL, .type = family_types[where], .rw = RW,             \
			                  .size = (SIZE), .addr = (ADDR),                          \
			                  .bad = (const char *)(ADDR) + (SIZE)-1,                  \
			                  .inlined = FAMILY_FORTIFIED || FAMILY_INLINE_CALL,       \
			                  .stack_object =                                          \
			                      where == FAMILY_STACK ? #name "_stack" : NULL);      \
		}                                                                                  \
		KASAN_BARRIER();                                                                   \
	}

static void family_fail(const char *name, enum family_where where, int over, const char *what)
{
	char msg[200];
	snprintf(msg, sizeof(msg), "%s on a %s buffer, %s: %s", name, family_places[where],
	         over ? "one byte past" : "in bounds", what);
	kasan_test_fail(msg);
}

static void family_run(const char *name, void (*fn)(enum family_where, int))
{
	for (int where = FAMILY_HEAP; where <= FAMILY_GLOBAL; where++) {
		for (int over = 0; over <= 1; over++) {
			fflush(stdout);
			fflush(stderr);
			pid_t pid = fork();
			if (pid < 0) {
				kasan_test_fail("fork");
				return;
			}
			if (pid == 0) {
				kasan_expect_row_to_bad = 1;
				unsigned long before = ukasan_report_count();
				fn(where, over);
				unsigned long reports = ukasan_report_count() - before;
				if (!over && reports)
					family_fail(name, where, over, "reported");
				if (over && !reports)
					family_fail(name, where, over, "not reported");
				fflush(stdout);
				_exit(0);
			}
			int st;
			waitpid(pid, &st, 0);
			/* glibc's own check, after the report (which the expectations
			 * look for). */
			int chk_abort = FAMILY_FORTIFIED && over && WIFSIGNALED(st) &&
			                WTERMSIG(st) == SIGABRT;
			/* A child that reported exits 1 (ukasan.exitcode). */
			if (!(WIFEXITED(st) && WEXITSTATUS(st) == over) && !chk_abort)
				family_fail(name, where, over,
				            over ? "the child did not exit with status 1"
				                 : "the child did not exit normally");
		}
	}
}

#define FAMILY_RUN(name) family_run(#name, name)

#endif
