/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_49_struct_declare_memcpy_sizeof_pointer_bad.c.
 * Bug there: memcpy into a one-struct stack variable copies sizeof the
 * source array of two structs.
 * Fixed here: memcpy copies sizeof one struct.
 */
#include <stdio.h>
#include <string.h>

struct record {
	int id;
	char tag[12];
};

int main(void)
{
	struct record table[2] = {{1, "first"}, {2, "second"}};
	struct record one;

	memcpy(&one, table, sizeof(one));
	printf("%d %s\n", one.id, one.tag);
	return 0;
}
