/* Looks up the length of a month in a global table with a 1-based index. */
#include <stdio.h>

static const int month_days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

__attribute__((noinline)) static int days_in(int m)
{
	return month_days[m]; /* should be m - 1 */
}

int main(int argc, char **argv)
{
	(void)argv;
	/* December, run without arguments: the read past the table is
	 * reported, and the program goes on with whatever it read. */
	printf("December has %d days\n", days_in(argc + 11));
	return 0;
}
