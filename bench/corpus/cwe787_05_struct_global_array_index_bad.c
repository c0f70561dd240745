/* CWE-787 Out-of-bounds Write (to globals and statics): BAD.
 * Bug: an index of 8 from a source function, checked only for >= 0, writes
 * a global array of 8 structs.
 * Good twin: cwe787_05_struct_global_array_index_good.c
 */
#include <stdio.h>

struct slot {
	int used;
	int value;
};

struct slot slots[8];

static int source(void)
{
	return 8;
}

int main(void)
{
	int i = source();

	if (i >= 0) {
		slots[i].used = 1;
		slots[i].value = 42;
	}
	printf("%d\n", slots[0].used);
	return 0;
}
