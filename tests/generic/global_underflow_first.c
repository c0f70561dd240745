// MODE: generic
// CFLAGS: $ROOT/tests/generic/_global_first.c
// ARCH: x86_64 -- on arm64 GCC ends the previous file's descriptors (in .data.rel.local) 32 bytes short of the next file's .data, and first_global[-1] lands in that padding, which nothing describes: not caught (clang is caught there too)
// EXPECT: BUG: KASAN: global-out-of-bounds in read_at
// EXPECT: Read of size 4 at addr
// EXPECT:  read_at+
// EXPECT:  main+
// STDOUT: before the first global
//
// Both compilers put a file's array of global descriptors (the
// __asan_register_globals argument) in .data after the file's globals, so
// the next file's first global comes right after it, with no redzone of its
// own on the left: first_global[-1] read the last descriptor unseen. The
// descriptors are poisoned when registered: a global-out-of-bounds.
#include <stdio.h>

int prev_global[4] = {1, 2, 3, 4};
extern int first_global[10];
/* Through a pointer: clang's array bounds check would see the -1 first. */
static int *volatile first_ptr = first_global;

__attribute__((noinline)) static int read_at(int *p, int i)
{
	return p[i];
}

int main(void)
{
	printf("before the first global\n");
	return read_at(first_ptr, -1) + prev_global[0] == 42;
}
