/* CWE-787 Out-of-bounds Write (to globals and statics): BAD.
 * Bug: a loop fills a 10-int global array with i <= 10.
 * Good twin: cwe787_02_int_global_loop_off_by_one_good.c
 */
#include <stdio.h>

int global_table[10];

static void fill(int *table, int n)
{
	int i;

	for (i = 0; i <= n; i++)
		table[i] = i;
}

int main(void)
{
	fill(global_table, 10);
	printf("%d\n", global_table[9]);
	return 0;
}
