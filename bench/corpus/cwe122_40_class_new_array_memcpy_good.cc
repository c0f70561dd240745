/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_40_class_new_array_memcpy_bad.cc.
 * Bug there: an array of 50 objects from new[] receives 100 objects' bytes
 * by memcpy.
 * Fixed here: new[] of 100 objects.
 */
#include <cstdio>
#include <cstring>

struct TwoInts {
	int a;
	int b;
};

int main()
{
	TwoInts *data = new TwoInts[100];
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
