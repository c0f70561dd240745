/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_12_char_new_array_token_delete_bad.cc.
 * Bug there: delete[] is applied to the token after the first space in a
 * new[]'d string.
 * Fixed here: delete[] is applied to the string's start.
 */
#include <cstdio>
#include <cstring>

int main()
{
	const char *input = "command argument";
	char *line = new char[std::strlen(input) + 1];
	char *arg;

	std::strcpy(line, input);
	arg = std::strchr(line, ' ');
	if (arg != nullptr)
		*arg++ = '\0';
	else
		arg = line;
	std::printf("%s|%s\n", line, arg);
	delete[] line;
	return 0;
}
