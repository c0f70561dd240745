// MODE: generic
// VARIANTS: clang clang-O2
// CFLAGS: -fsanitize-ignorelist=$ROOT/tests/generic/_ignorelist.txt
// EXPECT: BUG: KASAN: slab-out-of-bounds in checked_overflow
// COUNT: 1 BUG: KASAN:
// NOT: UBSAN:
// STDOUT: done
//
// clang's -fsanitize-ignorelist (fun: entries): the function it names is
// not instrumented, neither its address checks nor the array bounds
// checks, as with clang's ASan (LLVM's ignorelist.cpp); the rest of the
// file is. ukasan-cc hands the list to clang's front end, which alone sees
// ukasan's sanitizers. GCC has no such option.
#include <stdio.h>
#include <stdlib.h>

static volatile int index_of = 10;

__attribute__((noinline)) int ignored_overflow(void)
{
	char x[10] = {0};
	asm volatile("" : : "r"(x) : "memory");
	return x[index_of];
}

__attribute__((noinline)) int checked_overflow(void)
{
	char *volatile p = malloc(10);
	int v = p[index_of];
	free(p);
	return v;
}

int main(void)
{
	int v = ignored_overflow();
	v += checked_overflow();
	printf("done\n");
	return v & 0;
}
