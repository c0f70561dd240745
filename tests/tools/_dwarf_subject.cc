// C++ code for check_dwarf_lines: templates and inline members from
// headers (the library's and our own), a lambda, exceptions.
#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" {
#include "_dwarf_subject.h"
}

namespace {
template <typename T> struct Acc {
	std::vector<T> v;
	void add(T x)
	{
		v.push_back(x);
	}
	T sum() const
	{
		T s{};
		for (const T &x : v)
			s += x;
		return s;
	}
};
} // namespace

extern "C" int subject(int n)
{
	Acc<int> a;
	std::map<std::string, int> m;
	for (int i = 0; i < n; i++) {
		a.add(mix(i, n));
		m[std::to_string(i)] = i;
	}
	std::sort(a.v.begin(), a.v.end(), [](int x, int y) { return x > y; });
	try {
		if (a.sum() == 42)
			throw std::runtime_error("42");
	} catch (const std::exception &e) {
		return (int)m.size();
	}
	return a.sum() + (int)m.size();
}
