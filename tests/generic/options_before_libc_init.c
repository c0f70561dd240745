// MODE: generic
// VARIANTS: clang
// CFLAGS: -fsanitize-coverage=trace-pc-guard
// RUN: kasan.fault=panic
// RUN-WITH: none
// STATUS: signal SIGABRT
// EXPECT: BUG: KASAN: double-free in main
// EXPECT: kasan.fault=panic set, aborting
// With -fsanitize-coverage and no sanitizer runtime of its own, clang links
// its UBSan runtime, whose .preinit_array allocates: the runtime starts
// there, before libc has set environ, and read no options at all (a
// honggfuzz harness ran with ASAN_OPTIONS and UKASAN_OPTIONS ignored, so a
// double free did not abort and honggfuzz never saw it).
#include <stdlib.h>

int main(void)
{
	char *volatile p = malloc(8);
	free(p);
	free(p);
	return 0;
}
