/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_13_char_declare_realloc_bad.c.
 * Bug there: a stack array is passed to realloc() to grow it.
 * Fixed here: the array starts out malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char *bigger;
	data = (char *)malloc(16);
	if (data == NULL)
		exit(1);
	strcpy(data, "start");
	bigger = (char *)realloc(data, 64);
	if (bigger == NULL)
		exit(1);
	strcat(bigger, " grown");
	printf("%s\n", bigger);
	free(bigger);
	return 0;
}
