/* For check_sink_safety.py: a bug in a function whose name only c++filt
 * demangles, so that the report starts the helper. */
#include <cstdlib>
// A template whose mangled name holds an expression (decltype): the
// in-process demangler leaves such names to c++filt.
template <class T>
__attribute__((noinline)) auto bad_write(T p, int i) -> decltype(p[i] = 1)
{
	return p[i] = 1;
}
int main(int argc, char **)
{
	char *volatile p = (char *)malloc(16);
	bad_write(p, 15 + argc);
	free(p);
	return 0;
}
