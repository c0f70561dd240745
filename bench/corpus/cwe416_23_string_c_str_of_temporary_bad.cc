/* CWE-416 Use After Free: BAD.
 * Bug: c_str() of a temporary std::string (long enough to be on the heap)
 * is kept and read after the temporary is destroyed.
 * Good twin: cwe416_23_string_c_str_of_temporary_good.cc
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
	const char *path = make_path("/tmp").c_str();
	std::printf("%zu\n", std::strlen(path));
	return 0;
}
