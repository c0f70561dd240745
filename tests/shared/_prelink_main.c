#include <stdio.h>
#include <stdlib.h>

int *getG(void);
int global_overflow(int i);
int heap_overflow(int i);

int main(int argc, char **argv)
{
	long p = (long)getG();
	printf("SO mapped at %lx\n", p & ~0xffffffffUL);
	*getG() = 0;
	/* What an overflowing read returns is whatever lies past the object
	 * (for the heap one, glibc's next size field): not the status. */
	if (argc > 1 && argv[1][0] == 'g') {
		global_overflow(10);
		return 0;
	}
	if (argc > 1 && argv[1][0] == 'h') {
		heap_overflow(10);
		return 0;
	}
	/* In bounds: the last element of each. */
	printf("%d\n", global_overflow(9) + heap_overflow(9) > 0);
	return 0;
}
