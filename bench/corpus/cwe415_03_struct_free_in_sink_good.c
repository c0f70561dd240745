/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_03_struct_free_in_sink_bad.c.
 * Bug there: a struct is freed in a sink function and again by its caller.
 * Fixed here: the sink does not free what it does not own.
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
