// MODE: generic
// EXPECT: BUG: KASAN: bad-__sanitizer_annotate_contiguous_container in bad_bounds+0x
// EXPECT-RE: ^Request by task [^:]+: storage \[0x[0-9a-f]+, 0x[0-9a-f]+\), container bounds 0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+, 0x[0-9a-f]+: not all within the storage$
// EXPECT: BUG: KASAN: bad-__sanitizer_annotate_double_ended_contiguous_container in bad_double+0x
// NOT: container-overflow
// STDOUT: read 0
// RUN: kasan_multi_shot
// A container annotation whose old end lies past the storage's end (LLVM's
// contiguous_container_crash.cpp, bad-bounds): the program's bug, reported
// as ASan reports it, and nothing is marked, so the storage stays readable.
// The same for the double-ended annotation, with a new end before the
// storage's start.
#include <stdio.h>
#include <sanitizer/common_interface_defs.h>

static volatile int one = 1;

__attribute__((noinline)) static void bad_bounds(long *t)
{
	__sanitizer_annotate_contiguous_container(&t[0], &t[0] + 100, &t[0] + 100 + one,
	                                          &t[0] + 50);
	asm volatile("" : : : "memory"); /* no tail call: this frame is the title's */
}

__attribute__((noinline)) static void bad_double(long *t)
{
	__sanitizer_annotate_double_ended_contiguous_container(
	    &t[0], &t[0] + 100, &t[0], &t[0] + 100, &t[0] - one, &t[0] + 50);
	asm volatile("" : : : "memory");
}

int main(void)
{
	long t[100] = {0};
	bad_bounds(t);
	bad_double(t);
	printf("read %ld\n", ((volatile long *)t)[60 * one]);
	return 0;
}
