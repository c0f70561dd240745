/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: an array of 50 objects from new[] receives 100 objects' bytes by
 * memcpy.
 * Good twin: cwe122_40_class_new_array_memcpy_good.cc
 */
#include <cstdio>
#include <cstring>

struct TwoInts {
	int a;
	int b;
};

int main()
{
	TwoInts *data = new TwoInts[50];
	TwoInts source[100];

	for (int i = 0; i < 100; i++) {
		source[i].a = 0;
		source[i].b = 0;
	}
	std::memcpy(data, source, 100 * sizeof(TwoInts));
	std::printf("%d %d\n", data[0].a, data[0].b);
	delete[] data;
	return 0;
}
