/* CWE-787 Out-of-bounds Write (to globals and statics): BAD.
 * Bug: snprintf is told a 32-byte global buffer holds 64 bytes.
 * Good twin: cwe787_06_char_global_snprintf_size_good.c
 */
#include <stdio.h>

char global_line[32];

int main(void)
{
	snprintf(global_line, 64, "%s-%s", "a fairly long prefix", "and a suffix too");
	printf("%s\n", global_line);
	return 0;
}
