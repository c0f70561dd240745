/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_26_string_pointer_after_delete_bad.cc.
 * Bug there: a std::string held by pointer in a vector is deleted and
 * erased, and a second pointer to it is then used.
 * Fixed here: the string is used before it is deleted.
 */
#include <cstdio>
#include <string>
#include <vector>

int main()
{
	std::vector<std::string *> names;

	names.push_back(new std::string("first name, long enough for the heap"));
	names.push_back(new std::string("second name, long enough for the heap"));
	std::string *victim = names[0];
	std::printf("%zu\n", victim->size());
	delete names[0];
	names.erase(names.begin());
	for (std::string *s : names)
		delete s;
	return 0;
}
