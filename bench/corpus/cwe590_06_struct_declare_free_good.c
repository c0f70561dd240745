/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_06_struct_declare_free_bad.c.
 * Bug there: the address of a stack struct is passed to free() by a release
 * function.
 * Fixed here: the struct is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>

struct two_ints {
	int a;
	int b;
};

static void release(struct two_ints *p)
{
	free(p);
}

int main(void)
{
	struct two_ints *data;
	data = (struct two_ints *)malloc(sizeof(*data));
	if (data == NULL)
		exit(1);
	data->a = 1;
	data->b = 2;
	printf("%d %d\n", data->a, data->b);
	release(data);
	return 0;
}
