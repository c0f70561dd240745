// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// NOT: BUG: KASAN
// STDOUT: read 0
// ASAN_OPTIONS=detect_container_overflow=0 (kasan.detect_container_overflow
// off): the annotations mark nothing, and a read past the container's end
// is not reported (LLVM's contiguous_container_crash.cpp, its last run).
// tests/api/container_overflow.cc shows such a read reported by default.
#include <stdio.h>
#include <stdlib.h>
#include <sanitizer/common_interface_defs.h>

#include "../kfence/_asan_options.h"

static volatile int one = 1;

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "detect_container_overflow=0");
	long *t = calloc(100, sizeof(long));
	__sanitizer_annotate_contiguous_container(t, t + 100, t + 100, t + 50);
	printf("read %ld\n", ((volatile long *)t)[60 * one]);
	__sanitizer_annotate_contiguous_container(t, t + 100, t + 50, t + 100);
	free(t);
	return 0;
}
