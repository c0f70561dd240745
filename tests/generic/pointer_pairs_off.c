// MODE: generic
// CFLAGS: -fsanitize=pointer-compare,pointer-subtract
// pointer_pairs.c's invalid pairs without the option, off by default as in
// ASan: the calls are made and nothing is reported.
// NOT: BUG:
#include "_pointer_pairs.h"

int main(void)
{
	pointer_pairs_bad();
	return 0;
}
