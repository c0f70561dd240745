/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_05_struct_field_pointer_free_bad.c.
 * Bug there: the address of the second field of a malloc'd struct is passed
 * to free().
 * Fixed here: the struct's own address is freed.
 */
#include <stdio.h>
#include <stdlib.h>

struct pair {
	long first;
	long second;
};

static void release_second(long *p)
{
	free(p);
}

int main(void)
{
	struct pair *p = (struct pair *)malloc(sizeof(*p));

	if (p == NULL)
		exit(1);
	p->first = 1;
	p->second = 2;
	printf("%ld\n", p->first + p->second);
	release_second(&p->first);
	return 0;
}
