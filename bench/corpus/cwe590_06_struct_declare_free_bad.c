/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: the address of a stack struct is passed to free() by a release
 * function.
 * Good twin: cwe590_06_struct_declare_free_good.c
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
	struct two_ints local;
	data = &local;
	data->a = 1;
	data->b = 2;
	printf("%d %d\n", data->a, data->b);
	release(data);
	return 0;
}
