/* Writes the terminating NUL one byte past the allocation. */
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char *name = "kfence";
	char *copy = malloc(strlen(name)); /* forgot the + 1 */
	memcpy(copy, name, strlen(name) + 1);
	free(copy);
	return 0;
}
