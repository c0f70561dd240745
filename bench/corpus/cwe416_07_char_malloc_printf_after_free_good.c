/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_07_char_malloc_printf_after_free_bad.c.
 * Bug there: printf("%s") prints a malloc'd string after free.
 * Fixed here: it is printed before the free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *message = (char *)malloc(40);

	if (message == NULL)
		exit(1);
	strcpy(message, "message text");
	printf("%s\n", message);
	free(message);
	return 0;
}
