// MODE: generic
// VARIANTS: gcc-O2
// RUN: ukasan.asan_lines=on
// A function GCC cloned (here parse_digits.constprop.0: its constant
// argument propagated) keeps its symbol's name in the kernel's call trace,
// as the kernel's stacks do, but in the stack of AddressSanitizer's form
// printed beside it (for readers of that form) it has the name
// llvm-symbolizer gives ASan's frames, from the debug information: no
// clone suffix. ClusterFuzz's parser kept the suffix in the crash state
// (libarchive's WARC overflow built by gcc: "xstrpisotime.constprop.0 /
// _warc_rdrtm / ...", ASan's "xstrpisotime / _warc_rdrtm / ...").
// EXPECT: BUG: KASAN: slab-out-of-bounds in parse_digits.constprop.0+0x
// EXPECT: ERROR: AddressSanitizer: heap-buffer-overflow on address
// EXPECT-RE: ^    #0 0x[0-9a-f]+ in parse_digits tests/generic/clone_frames.c:\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] parse_digits\.constprop\.0\+0x
#include <stdlib.h>
#include <string.h>

/* digits from s, in base; reads on while they are digits */
__attribute__((noinline)) static long parse_digits(const char *s, int base)
{
	long v = 0;
	asm volatile("" : : "r"(s) : "memory");
	while (*s >= '0' && *s <= '9')
		v = v * base + (*s++ - '0');
	return v;
}

int main(int argc, char **argv)
{
	(void)argv;
	char *s = malloc(4);
	memset(s, '7', 4); /* no terminator: the parse reads past the end */
	long v = parse_digits(s, 10) + parse_digits(s + argc - 1, 10);
	free(s);
	return (int)(v & 1);
}
