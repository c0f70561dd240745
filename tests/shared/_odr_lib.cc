// The library's foo::G (its size from SZ): a scoped C++ global, whose
// exported symbol is mangled (_ZN3foo1GE) while GCC's descriptor names it
// "G"; and a static of the same name in another scope, no definition of it.
#ifndef SZ
#define SZ 20
#endif
namespace foo {
int G[SZ];
}
static int G[SZ];

int lib_touch(int i)
{
	return foo::G[i] + G[i];
}
