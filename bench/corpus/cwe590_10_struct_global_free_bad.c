/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: the address of a global struct is passed to free().
 * Good twin: cwe590_10_struct_global_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>

struct config {
	int verbose;
	int level;
};

struct config default_config = {0, 1};

int main(void)
{
	struct config *c;

	c = &default_config;
	printf("%d\n", c->level);
	free(c);
	return 0;
}
