/* CWE-416 Use After Free: BAD.
 * Bug: a freed buffer is cleared with memset (a scrub done too late).
 * Good twin: cwe416_14_char_malloc_memset_after_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 48;
	char *secret = (char *)malloc(size);

	if (secret == NULL)
		exit(1);
	strcpy(secret, "password");
	printf("%zu\n", strlen(secret));
	free(secret);
	memset(secret, 0, size);
	return 0;
}
