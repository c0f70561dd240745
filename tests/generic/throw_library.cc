// MODE: generic
// NOT: BUG: KASAN
// STDOUT: caught runtime_error
// STDOUT: filled 3000
//
// An exception thrown inside the C++ library (std::locale of a name that
// does not exist: libstdc++ throws std::runtime_error from its own code)
// unwinds instrumented frames with stack arrays, which never unpoison their
// redzones; no instrumented code calls __asan_handle_no_return on the way,
// as the call into the library may return. The runtime's __cxa_throw and
// _Unwind_RaiseException clear the stack's marks from the thrower up, as
// ASan's do. Afterwards an uninstrumented function fills a large local
// array, over those frames' place, with libc's memset, which ukasan checks:
// no report. Without them: stack-out-of-bounds in memset, called from
// later().
#include <locale>
#include <stdexcept>
#include <stdio.h>
#include <string.h>

static volatile int sink;
/* Not a builtin the compiler could expand in place: the call reaches the
 * memset ukasan checks. */
static void *(*volatile fill)(void *, int, size_t) = memset;

__attribute__((noinline)) static void frames(int depth)
{
	char buf[40];
	for (int i = 0; i < 40; i++)
		((volatile char *)buf)[i] = (char)i;
	sink += buf[depth];
	if (depth == 0) {
		std::locale bad("no-such-locale.UKASAN-TEST");
		sink += (int)bad.name().size();
	} else {
		frames(depth - 1);
	}
	sink += buf[1];
}

/* Uninstrumented: its array gets no marks of its own, so the checked
 * memset sees whatever the earlier frames left there. */
__attribute__((noinline, no_sanitize_address)) static void later()
{
	char big[3000];
	fill(big, 1, sizeof(big));
	int n = 0;
	for (int i = 0; i < 3000; i++)
		n += ((volatile char *)big)[i];
	printf("filled %d\n", n);
}

__attribute__((noinline)) static void run()
{
	try {
		frames(8);
	} catch (const std::runtime_error &) {
		printf("caught runtime_error\n");
	}
}

int main()
{
	run();
	later();
	return 0;
}
