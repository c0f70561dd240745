/* CWE-416 Use After Free: BAD.
 * Bug: a std::string held by pointer in a vector is deleted and erased, and
 * a second pointer to it is then used.
 * Good twin: cwe416_26_string_pointer_after_delete_good.cc
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
	delete names[0];
	names.erase(names.begin());
	std::printf("%zu\n", victim->size());
	for (std::string *s : names)
		delete s;
	return 0;
}
