// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// ASAN_OPTIONS=help=1 lists the options as UKASAN_OPTIONS=help=1 does;
// asked in both, the list is printed once, and the program runs on.
// EXPECT: ukasan: options, as NAME=VALUE in UKASAN_OPTIONS separated by ':', ',' or white space, with their defaults:
// EXPECT-RE: ^  kasan\.stack_use_after_return=on +\S
// EXPECT-RE: ^  detect_stack_use_after_return +kasan\.stack_use_after_return$
// COUNT: 1 ukasan: options,
// COUNT: 2 ukasan:
// STDOUT: ran on
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

int main(int argc, char **argv)
{
	char both[300];
	(void)argc;
	if (!argv[1] || strcmp(argv[1], ASAN_OPTIONS_AGAIN)) {
		snprintf(both, sizeof(both), "%s help=1", getenv("UKASAN_OPTIONS") ?: "");
		setenv("UKASAN_OPTIONS", both, 1);
	}
	with_asan_options(argv, "help=1");
	printf("ran on\n");
	return 0;
}
