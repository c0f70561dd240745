/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_25_char_declare_snprintf_unterminated_bad.c.
 * Bug there: snprintf formats with %s a 12-byte stack buffer that holds 12
 * letters and no terminator.
 * Fixed here: the buffer is terminated.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char name[12];
	char line[64];

	memcpy(name, "abcdefghijkl", 12);
	name[11] = '\0';
	snprintf(line, sizeof(line), "name=%s", name);
	printf("%s\n", line);
	return 0;
}
