// MODE: generic
// CFLAGS: -D_GLIBCXX_SANITIZE_VECTOR
// libstdc++'s vector annotates its spare capacity: a read past size() but
// inside capacity() is a container-overflow, of the vector's heap object.
// EXPECT: BUG: KASAN: container-overflow in read_past_size+0x
// EXPECT-RE: ^Read of size 4 at addr [0-9a-f]{16}
// EXPECT: which belongs to the cache new of size 40
// EXPECT: The buggy address is located 24 bytes inside of
// EXPECT: done
#include <stdio.h>
#include <vector>

extern "C" __attribute__((noinline)) int read_past_size(const int *d)
{
	return d[6];
}

int main()
{
	std::vector<int> v;
	v.reserve(10);
	for (int i = 0; i < 5; i++)
		v.push_back(i);
	int x = read_past_size(v.data());
	fprintf(stderr, "done %d\n", x);
	return 0;
}
