/* Start-up cost: a program that does almost nothing. One small allocation
 * and a string copy, so that the allocator and the string functions are
 * reached once, as in any real program, then exit. Prints nothing. */
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	(void)argc;
	size_t n = strlen(argv[0]) + 1;
	char *copy = malloc(n);
	if (!copy)
		return 1;
	memcpy(copy, argv[0], n);
	int ok = strcmp(copy, argv[0]) == 0;
	free(copy);
	return ok ? 0 : 1;
}
