/* The project's test: passes when sum(10) is 45. */
#include <stdio.h>

#include "sum.h"

int main(void)
{
	long s = sum(10);
	printf("sum(10) = %ld\n", s);
	return s == 45 ? 0 : 1;
}
