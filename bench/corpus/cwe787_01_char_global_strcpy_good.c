/* CWE-787 Out-of-bounds Write (to globals and statics): GOOD, the fixed twin of
 * cwe787_01_char_global_strcpy_bad.c.
 * Bug there: a 31-character string is strcpy'd into a 16-byte global array.
 * Fixed here: the copy is bounded by the array's size.
 */
#include <stdio.h>
#include <string.h>

char global_name[16];

int main(void)
{
	const char *input = "0123456789abcdefghijklmnopqrstu";

	snprintf(global_name, sizeof(global_name), "%s", input);
	printf("%s\n", global_name);
	return 0;
}
