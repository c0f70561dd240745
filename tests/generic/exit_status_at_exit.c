// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// RUN: kasan_multi_shot
// Reports from what runs at exit count too: an atexit function, and a
// destructor of the executable (run by the dynamic linker's clean-up,
// before the runtime's own). exit(0) from deep in the program as well.
// STATUS: 1
// EXPECT: BUG: KASAN: slab-use-after-free in at_exit_bug+0x
// EXPECT: BUG: KASAN: slab-use-after-free in destructor_bug+0x
// EXPECT-RE: ^ukasan: 2 reports in this run \(pid \d+\); exit status 1 instead of 0 \(ukasan\.exitcode\)$
// STDOUT: main done
#include "kasan_test.h"

#include <stdio.h>

static char *freed;

KASAN_TEST static void at_exit_bug(void)
{
	kasan_int_result = ((volatile char *)freed)[1];
}

KASAN_TEST __attribute__((destructor)) static void destructor_bug(void)
{
	kasan_int_result = ((volatile char *)freed)[2];
}

KASAN_TEST static void leave(void)
{
	printf("main done\n");
	exit(0);
}

int main(void)
{
	freed = malloc(8);
	free(freed);
	atexit(at_exit_bug);
	leave();
}
