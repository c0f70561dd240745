/* Copies a name into a buffer sized without room for its terminating NUL. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_name(const char *name)
{
	char *s = malloc(strlen(name)); /* should be strlen + 1 */
	for (size_t i = 0; i <= strlen(name); i++)
		s[i] = name[i];
	return s;
}

int main(void)
{
	char *s = copy_name("ukasan");
	printf("%s\n", s);
	free(s);
	return 0;
}
