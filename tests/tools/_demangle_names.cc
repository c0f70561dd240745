// C++ names of the kinds a report's frames carry: namespaces, classes,
// templates with type and value arguments, operators, lambdas, local
// statics, variadic packs, function pointers, arrays, references.
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ns {
struct K {
	int v[4];
	K() : v{1, 2, 3, 4} {}
	~K() {}
	int get(char *p, int i) { return p[i] + v[i & 3]; }
	int operator[](int i) const { return v[i & 3]; }
	bool operator<(const K &o) const { return v[0] < o.v[0]; }
	operator int() const { return v[1]; }
};
template <typename T, int N> struct Box {
	T items[N];
	T &at(int i) { return items[i % N]; }
	template <typename F> int apply(F f) { return f(items[0]); }
};
template <typename... A> int count(A &&...a) { return (0 + ... + sizeof(a)); }
int call(int (*fn)(int), int (&arr)[3], const std::string &s) { return fn(arr[0]) + (int)s.size(); }
namespace {
int twice(int x) { return 2 * x; }
} // namespace
} // namespace ns

int use_all(int argc)
{
	ns::K k;
	ns::Box<long, 3> b{};
	ns::Box<ns::K, 2> bk;
	char buf[8] = "abcdefg";
	int arr[3] = {argc, 2, 3};
	static std::map<std::string, std::vector<int>> m;
	m["x"].push_back(argc);
	auto lam = [&](long v) { return (int)v + k.get(buf, argc); };
	auto lam2 = [](const ns::K &x) { return x[1]; };
	std::function<int(int)> f = [argc](int x) { return x + argc; };
	std::unique_ptr<ns::K> up(new ns::K);
	return b.apply(lam) + bk.apply(lam2) + ns::count(argc, 1.0, k, buf) +
	       ns::call(ns::twice, arr, "s") + f(argc) + int(*up) + (k < *up) + b.at(argc);
}

int main(int argc, char **argv)
{
	(void)argv;
	return use_all(argc) == 12345;
}
