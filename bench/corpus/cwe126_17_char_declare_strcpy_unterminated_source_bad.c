/* CWE-126 Buffer Over-read: BAD.
 * Bug: strcpy copies from an 8-byte stack array that holds 8 letters and no
 * terminator, reading past it.
 * Good twin: cwe126_17_char_declare_strcpy_unterminated_source_good.c
 */
#include <stdio.h>
#include <string.h>

int main(void)
{
	char source[8] = "ABCDEFGH";
	char dest[64];

	strcpy(dest, source);
	printf("%s\n", dest);
	return 0;
}
