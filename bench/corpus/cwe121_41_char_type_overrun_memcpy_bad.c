/* CWE-121 Stack-based Buffer Overflow: BAD.
 * Bug: memcpy copies sizeof the whole struct into its first field, a
 * 16-byte char array, overwriting the pointer after it inside the same
 * object.
 * Good twin: cwe121_41_char_type_overrun_memcpy_good.c
 */
#include <stdio.h>
#include <string.h>

#define SRC_STR "0123456789abcdef0123456789abcde"

struct char_void {
	char char_first[16];
	void *void_second;
	void *void_third;
};

int main(void)
{
	struct char_void s;

	s.void_second = (void *)SRC_STR;
	printf("%s\n", (char *)s.void_second);
	memcpy(s.char_first, SRC_STR, sizeof(s));
	s.char_first[sizeof(s.char_first) - 1] = '\0';
	printf("%s\n", s.char_first);
	printf("%s\n", (char *)s.void_second);
	return 0;
}
