// C++ new/delete for _alloc_user.c (see there): containers, arrays, the
// nothrow and aligned forms, with the same ownership count. The allocators
// define their own operator new; the program must still get theirs.
#include <cstdint>
#include <cstdio>
#include <map>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

extern "C" {
uint64_t alloc_mark(void);
void classify(const void *p, uint64_t mark, const char *api, size_t size);
uint64_t cxx_workload(void);
}

struct alignas(64) Line {
	unsigned char b[64];
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

uint64_t cxx_workload(void)
{
	uint64_t h = 1;
	std::map<int, std::string> m;
	std::unordered_map<std::string, std::vector<int>> u;
	for (int i = 0; i < 20000; i++) {
		m[i * 7 % 5003] = std::string(1 + i % 300, (char)('a' + i % 26));
		u["key" + std::to_string(i % 1009)].push_back(i);
		if (i % 5 == 0)
			m.erase((i * 3) % 5003);
	}
	for (auto &kv : m)
		h = mix(h, kv.first * 1000 + kv.second.size());
	for (int i = 0; i < 1009; i++)
		h = mix(h, u["key" + std::to_string(i)].size());
	for (int i = 0; i < 2000; i++) {
		size_t n = 1 + (size_t)(i * 53) % 5000;
		uint64_t mark = alloc_mark();
		char *a = new char[n];
		classify(a, mark, "new[]", n);
		for (size_t k = 0; k < n; k++)
			a[k] = (char)(k + i);
		mark = alloc_mark();
		std::string *s = new std::string(a, n);
		classify(s, mark, "new", sizeof(*s));
		mark = alloc_mark();
		Line *l = new Line[1 + i % 9];
		classify(l, mark, "aligned new[]", sizeof(Line) * (1 + i % 9));
		if ((uintptr_t)l % 64)
			std::fprintf(stderr, "alloc_user: FAIL: aligned new gave %p\n", (void *)l);
		mark = alloc_mark();
		int *x = new (std::nothrow) int[n];
		classify(x, mark, "nothrow new[]", n * sizeof(int));
		x[n - 1] = i;
		h = mix(h, (unsigned char)(*s)[n - 1] + x[n - 1] + n);
		delete[] x;
		delete[] l;
		delete s;
		delete[] a;
	}
	return h;
}
