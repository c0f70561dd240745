/* CWE-126 Buffer Over-read: BAD.
 * Bug: snprintf formats with %s a 12-byte stack buffer that holds 12
 * letters and no terminator.
 * Good twin: cwe126_25_char_declare_snprintf_unterminated_good.c
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char name[12];
	char line[64];

	memcpy(name, "abcdefghijkl", 12);

	snprintf(line, sizeof(line), "name=%s", name);
	printf("%s\n", line);
	return 0;
}
