/* CWE-787 Out-of-bounds Write (to globals and statics): GOOD, the fixed twin of
 * cwe787_06_char_global_snprintf_size_bad.c.
 * Bug there: snprintf is told a 32-byte global buffer holds 64 bytes.
 * Fixed here: snprintf is given the buffer's size.
 */
#include <stdio.h>

char global_line[32];

int main(void)
{
	snprintf(global_line, sizeof(global_line), "%s-%s", "a fairly long prefix", "and a suffix too");
	printf("%s\n", global_line);
	return 0;
}
