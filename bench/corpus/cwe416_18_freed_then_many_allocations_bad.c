/* CWE-416 Use After Free: BAD.
 * Bug: a freed object is read after a thousand other allocations and frees.
 * Good twin: cwe416_18_freed_then_many_allocations_good.c
 */
#include <stdio.h>
#include <stdlib.h>

struct item {
	int key;
	int value;
};

int main(void)
{
	struct item *it = (struct item *)malloc(sizeof(*it));
	int i, value;

	if (it == NULL)
		exit(1);
	it->key = 1;
	it->value = 99;
	free(it);
	for (i = 0; i < 1000; i++) {
		void *p = malloc((size_t)(16 + i % 64));
		free(p);
	}
	value = it->value;

	printf("%d\n", value);
	return 0;
}
