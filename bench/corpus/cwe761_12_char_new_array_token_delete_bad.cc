/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: delete[] is applied to the token after the first space in a new[]'d
 * string.
 * Good twin: cwe761_12_char_new_array_token_delete_good.cc
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
	delete[] arg;
	return 0;
}
