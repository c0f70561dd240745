// MODE: generic
// VARIANTS: gcc-O2 clang-O2 gcc-O3 clang-O3
// RUN: kasan_multi_shot
// NOT: odr-violation
// NOT: BUG: KASAN
// STDOUT: 13 15
//
// No ODR report for what is no second definition: two function-local
// static const tables of one name and equal contents in one file (as
// SQLite's amalgamation has two aiOff). GCC at -O2 folds them into one
// object (identical code folding of read-only variables), whose two
// descriptors then share an address and a size; ASan checks the ODR of
// globals with external linkage only. A second pair of equal tables with
// two names is folded too and is no violation either. Without the fix,
// [gcc-O2] and [gcc-O3] printed "BUG: KASAN: odr-violation in aiOff" and
// "... in primes" (multi-shot shows both) and exited 1. clang-16 keeps the
// tables apart, and marks each static with an ODR indicator of all ones
// ("no check"): its runs pass either way.
#include <stdio.h>

__attribute__((noinline)) static int first(int i)
{
	static const unsigned short aiOff[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	return aiOff[i % 12];
}

__attribute__((noinline)) static int second(int i)
{
	static const unsigned short aiOff[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
	return aiOff[(i + 1) % 12];
}

static const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
static const int also_primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};

__attribute__((noinline)) static int third(int i)
{
	return primes[i % 8] + also_primes[(i + 3) % 8];
}

int main(int argc, char **argv)
{
	(void)argv;
	volatile int i = argc + 4; /* 5, not known at compile time */
	printf("%d %d\n", first(i) + second(i), third(i)); /* 6 + 7, 13 + 2 */
	return 0;
}
