/* CWE-416 Use After Free: BAD.
 * Bug: a helper builds a string in a malloc'd buffer, frees it and returns
 * the pointer, which the caller reads.
 * Good twin: cwe416_08_return_freed_pointer_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *make_greeting(const char *who)
{
	char *buffer = (char *)malloc(64);

	if (buffer == NULL)
		exit(1);
	snprintf(buffer, 64, "hello, %s", who);
	free(buffer);
	return buffer;
}

int main(void)
{
	char *greeting = make_greeting("world");

	printf("%c\n", greeting[0]);

	return 0;
}
