/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a name longer than its 10-byte member array is strcpy'd into an
 * object from new, past the end of the object.
 * Good twin: cwe122_47_class_member_strcpy_good.cc
 */
#include <cstdio>
#include <cstring>

struct Name {
	char text[10];
};

int main()
{
	const char *input = "a name of twenty chr";
	Name *n = new Name;

	std::strcpy(n->text, input);
	std::printf("%s\n", n->text);
	delete n;
	return 0;
}
