/* check_asan_flags.sh's program: two heap overflows, each followed by a
 * line on stdout, so that the output tells whether the program went on
 * after the first report; with "ub", a signed overflow first, for UBSan. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "ub")) {
		volatile int big = INT_MAX;
		int sum = big + argc;
		printf("sum %d\n", sum);
	}
	volatile char *p = malloc(13);
	p[13] = 1;
	printf("after first\n");
	p[14] = 2;
	printf("after second\n");
	free((void *)p);
	return 0;
}
