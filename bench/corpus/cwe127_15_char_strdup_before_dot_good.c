/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_15_char_strdup_before_dot_bad.c.
 * Bug there: the character before the first '.' of a strdup'd name is read;
 * the name starts with '.', so the byte before the buffer is read.
 * Fixed here: the read happens only when the dot is not the first
 * character.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *name = strdup(".profile"); /* a file name from a directory listing */
	char *dot;

	if (name == NULL)
		exit(1);
	dot = strchr(name, '.');
	if (dot != NULL && dot > name)
		printf("%c\n", dot[-1]);
	else
		printf("no stem\n");
	free(name);
	return 0;
}
