/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_47_class_member_strcpy_bad.cc.
 * Bug there: a name longer than its 10-byte member array is strcpy'd into
 * an object from new, past the end of the object.
 * Fixed here: the copy is bounded by the member's size.
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

	std::snprintf(n->text, sizeof(n->text), "%s", input);
	std::printf("%s\n", n->text);
	delete n;
	return 0;
}
