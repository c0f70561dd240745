/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_18_freed_then_many_allocations_bad.c.
 * Bug there: a freed object is read after a thousand other allocations and
 * frees.
 * Fixed here: the object is freed after its last use.
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

	for (i = 0; i < 1000; i++) {
		void *p = malloc((size_t)(16 + i % 64));
		free(p);
	}
	value = it->value;
	free(it);
	printf("%d\n", value);
	return 0;
}
