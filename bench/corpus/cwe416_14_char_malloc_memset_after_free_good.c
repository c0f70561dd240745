/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_14_char_malloc_memset_after_free_bad.c.
 * Bug there: a freed buffer is cleared with memset (a scrub done too late).
 * Fixed here: the scrub happens before the free.
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
	memset(secret, 0, size);
	free(secret);
	return 0;
}
