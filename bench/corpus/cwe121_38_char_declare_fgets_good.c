/* CWE-121 Stack-based Buffer Overflow: GOOD, the fixed twin of
 * cwe121_38_char_declare_fgets_bad.c.
 * Bug there: fgets() is told the 50-byte stack buffer holds 100 bytes, and
 * the input line (a fixed text read through fmemopen) is longer than the
 * buffer.
 * Fixed here: fgets() is given the buffer's real size.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char data[50];
	static char input[] = "an input line that is longer than the buffer it is read into, by far\n";
	FILE *f = fmemopen(input, sizeof(input) - 1, "r");

	if (!f)
		return 0;
	if (fgets(data, (int)sizeof(data), f) == NULL)
		data[0] = '\0';
	fclose(f);
	printf("%zu\n", strlen(data));
	return 0;
}
