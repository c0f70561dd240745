/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_23_string_c_str_of_temporary_bad.cc.
 * Bug there: c_str() of a temporary std::string (long enough to be on the
 * heap) is kept and read after the temporary is destroyed.
 * Fixed here: the string is kept in a named variable.
 */
#include <cstdio>
#include <cstring>
#include <string>

static std::string make_path(const std::string &dir)
{
	return dir + "/a/rather/long/file/name.txt";
}

int main()
{
	std::string kept = make_path("/tmp");
	const char *path = kept.c_str();
	std::printf("%zu\n", std::strlen(path));
	return 0;
}
