// The program's foo::G: 10 ints, whatever the library says.
#include <cstdio>

namespace foo {
int G[10];
}
int lib_touch(int i);

int main()
{
	std::printf("%d\n", lib_touch(1) + foo::G[1]);
	return 0;
}
