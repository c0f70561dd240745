// A heap overflow under C++ frames: a member function, a function template
// and a lambda.
#include <string>
#include <vector>
namespace ns {
struct K {
	char *buf;
	K() : buf(new char[16]) {}
	int get(char *p, int i) { return p[i]; }
};
template <typename T> int poke(std::vector<T> &v, K &k, int i)
{
	return k.get(k.buf, i) + (int)v.size();
}
} // namespace ns

int main(int argc, char **argv)
{
	std::vector<std::string> v(2);
	ns::K k;
	(void)argv;
	auto f = [&](int i) { return ns::poke(v, k, i); };
	return f(15 + argc);
}
