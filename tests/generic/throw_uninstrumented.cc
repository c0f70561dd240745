// MODE: generic
// NOT: BUG: KASAN
// STDOUT: caught 42
//
// An exception thrown from a function built without instrumentation
// unwinds instrumented frames, which never unpoison their redzones; the
// compiler's __asan_handle_no_return is not called before that throw (nor
// before the call to the thrower: it may return, so neither compiler takes
// it for noreturn). The runtime's __cxa_throw clears the stack's marks from
// the thrower up, as ASan's does, so a large local array of an
// uninstrumented function, later read by instrumented code over those
// frames' place, is clean. Without it: stack-out-of-bounds in consume().
#include <stdio.h>

static volatile int sink;

__attribute__((noinline, no_sanitize_address)) static void thrower()
{
	if (sink >= 0) /* always: but the compilers cannot know */
		throw 42;
}

__attribute__((noinline)) static void frames(int depth)
{
	char buf[40];
	for (int i = 0; i < 40; i++)
		((volatile char *)buf)[i] = (char)i;
	sink += buf[depth];
	if (depth == 0)
		thrower();
	else
		frames(depth - 1);
	sink += buf[1];
}

__attribute__((noinline)) static void consume(const char *p, int n)
{
	for (int i = 0; i < n; i++)
		sink += p[i];
}

/* Uninstrumented: its array gets no marks of its own, so the instrumented
 * reads in consume() see whatever the earlier frames left there. */
__attribute__((noinline, no_sanitize_address)) static void later()
{
	char big[3000];
	for (int i = 0; i < 3000; i++)
		((volatile char *)big)[i] = (char)i;
	consume(big, 3000);
}

__attribute__((noinline)) static void run()
{
	try {
		frames(8);
	} catch (int e) {
		printf("caught %d\n", e);
	}
}

int main()
{
	run();
	later();
	return 0;
}
