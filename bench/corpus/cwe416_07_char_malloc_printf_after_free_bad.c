/* CWE-416 Use After Free: BAD.
 * Bug: printf("%s") prints a malloc'd string after free.
 * Good twin: cwe416_07_char_malloc_printf_after_free_good.c
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
	free(message);
	printf("%s\n", message);
	return 0;
}
