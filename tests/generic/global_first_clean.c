// MODE: generic
// CFLAGS: $ROOT/tests/generic/_global_first.c
// NOT: BUG: KASAN
// STDOUT: sum 105
//
// The clean twin of global_underflow_first.c: the globals of two files,
// one after the other file's poisoned descriptors, read whole.
#include <stdio.h>

int prev_global[4] = {1, 2, 3, 4};
extern int first_global[10];
static int *volatile first_ptr = first_global;

int main(void)
{
	int sum = 0;
	for (int i = 0; i < 10; i++)
		sum += first_ptr[i];
	for (int i = 0; i < 4; i++)
		sum += prev_global[i];
	printf("sum %d\n", sum);
	return 0;
}
