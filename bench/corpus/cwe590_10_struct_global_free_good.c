/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_10_struct_global_free_bad.c.
 * Bug there: the address of a global struct is passed to free().
 * Fixed here: the struct is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>

struct config {
	int verbose;
	int level;
};

struct config *default_config;

int main(void)
{
	struct config *c;

	c = (struct config *)malloc(sizeof(*c));
	if (c == NULL)
		exit(1);
	c->verbose = 0;
	c->level = 1;
	printf("%d\n", c->level);
	free(c);
	return 0;
}
