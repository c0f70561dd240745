/* Looks a month up in a global table with a 1-based index. */
#include <stdio.h>

static const char *const months[12] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

__attribute__((noinline)) static const char *month_name(int m)
{
	return months[m]; /* should be m - 1 */
}

int main(int argc, char **argv)
{
	(void)argv;
	printf("%s\n", month_name(argc + 11)); /* December, run without arguments */
	return 0;
}
