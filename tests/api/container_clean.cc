// MODE: generic
// CFLAGS: -D_GLIBCXX_SANITIZE_VECTOR
// A correct program using vectors under _GLIBCXX_SANITIZE_VECTOR (grow,
// shrink, insert, erase, copy, swap) gets no report, and the storage's
// annotation verifies at each step.
// NOT: BUG: KASAN
// EXPECT: done
#include <sanitizer/common_interface_defs.h>
#include <stdio.h>
#include <stdlib.h>
#include <vector>

static void verify(const std::vector<long> &v)
{
	if (!__sanitizer_verify_contiguous_container(v.data(), v.data() + v.size(),
	                                             v.data() + v.capacity())) {
		fprintf(stderr, "FAIL: bad annotation at size %zu\n", v.size());
		exit(3);
	}
}

int main()
{
	std::vector<long> v;
	long sum = 0;
	for (int i = 0; i < 1000; i++) {
		v.push_back(i);
		verify(v);
	}
	v.insert(v.begin() + 3, 42);
	v.erase(v.begin() + 10, v.begin() + 500);
	verify(v);
	std::vector<long> w(v);
	w.swap(v);
	v.resize(7);
	verify(v);
	for (long x : v)
		sum += x;
	v.shrink_to_fit();
	v.clear();
	verify(v);
	fprintf(stderr, "done %ld\n", sum);
	return 0;
}
