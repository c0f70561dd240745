/* The program's definition of G: 10 ints, whatever the library says. */
#include <stdio.h>

int G[10];
static int S[10];
int lib_touch(int i);

int main(void)
{
	printf("%d\n", lib_touch(1) + G[1] + S[1]);
	return 0;
}
