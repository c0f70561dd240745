/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_04_int_2d_array_row_loop_bad.c.
 * Bug there: a loop over the rows of an int[4][4] stack array runs to r <=
 * 4 and writes one row past the end.
 * Fixed here: the loop stops at r < 4.
 */
#include <stdio.h>

int main(void)
{
	int grid[4][4] = {{0}};
	int r, sum = 0;

	for (r = 0; r < 4; r++)
		grid[r][0] = r + 1;
	for (r = 0; r < 4; r++)
		sum += grid[r][0];
	printf("%d\n", sum);
	return 0;
}
