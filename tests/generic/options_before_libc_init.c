// MODE: generic
// VARIANTS: clang
// ARCH: x86_64 -- Debian's libclang-rt-16-dev has no arm64 UBSan runtime to link
// CFLAGS: -fsanitize=undefined
// RUN: kasan.fault=panic
// RUN-WITH: none
// STATUS: signal SIGABRT
// EXPECT: BUG: KASAN: double-free in main
// EXPECT: kasan.fault=panic set, aborting
// clang's UBSan runtime, which the driver links for -fsanitize=undefined
// (ukasan-cc leaves it to it then), allocates from its .preinit_array: the
// runtime starts there, and read no options at all (a honggfuzz harness
// built so ignored the log_path and abort_on_error honggfuzz sets: a double
// free did not abort and honggfuzz never saw it).
#include <stdlib.h>

int main(void)
{
	char *volatile p = malloc(8);
	free(p);
	free(p);
	return 0;
}
