/* CWE-787 Out-of-bounds Write (to globals and statics): BAD.
 * Bug: a 31-character string is strcpy'd into a 16-byte global array.
 * Good twin: cwe787_01_char_global_strcpy_good.c
 */
#include <stdio.h>
#include <string.h>

char global_name[16];

int main(void)
{
	const char *input = "0123456789abcdefghijklmnopqrstu";

	strcpy(global_name, input);
	printf("%s\n", global_name);
	return 0;
}
