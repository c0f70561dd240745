/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_05_struct_declare_loop_off_by_one_bad.c.
 * Bug there: a loop initialises an array of 10 structs on the stack with i
 * <= 10.
 * Fixed here: the loop stops at i < 10.
 */
#include <stdio.h>

struct two_ints {
	int a;
	int b;
};

int main(void)
{
	struct two_ints items[10];
	int i;

	for (i = 0; i < 10; i++) {
		items[i].a = i;
		items[i].b = -i;
	}
	printf("%d %d\n", items[0].a, items[9].b);
	return 0;
}
