// MODE: generic
// CFLAGS: -fsanitize=pointer-compare,pointer-subtract
// RUN: kasan.detect_invalid_pointer_pairs=1
// The clean twin of pointer_pairs.c: pairs inside one heap object, global
// or stack array (one past the end included), a NULL against a heap
// pointer at level 1, and pointers into memory ukasan knows nothing of
// (mmap): no report.
// NOT: BUG:
// NOT: ukasan:
#include "_pointer_pairs.h"

int main(void)
{
	pointer_pairs_good();
	return 0;
}
