/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_17_char_declare_strcpy_unterminated_source_bad.c.
 * Bug there: strcpy copies from an 8-byte stack array that holds 8 letters
 * and no terminator, reading past it.
 * Fixed here: the source array has room for its terminator.
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char source[9] = "ABCDEFGH";
	char dest[64];

	strcpy(dest, source);
	printf("%s\n", dest);
	return 0;
}
