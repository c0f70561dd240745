/* CWE-415 Double Free: BAD.
 * Bug: a struct is freed in a sink function and again by its caller.
 * Good twin: cwe415_03_struct_free_in_sink_good.c
 */
#include <stdio.h>
#include <stdlib.h>

struct two_ints {
	int a;
	int b;
};

static void print_and_release(struct two_ints *p)
{
	printf("%d %d\n", p->a, p->b);
	free(p);
}

int main(void)
{
	struct two_ints *data = (struct two_ints *)malloc(sizeof(struct two_ints));

	if (data == NULL)
		exit(1);
	data->a = 1;
	data->b = 2;
	print_and_release(data);
	free(data);
	return 0;
}
