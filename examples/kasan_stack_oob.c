/* Writes one element past the end of an array on the stack. */
#include <stdio.h>

__attribute__((noinline)) static int squares(int n)
{
	int table[8];
	for (int i = 0; i <= n; i++)
		table[i] = i * i;
	return table[n - 1];
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%d\n", squares(argc + 7)); /* 8 without arguments; table holds 0..7 */
	return 0;
}
