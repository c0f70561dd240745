/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_22_vector_pointer_after_push_back_bad.cc.
 * Bug there: a pointer to a std::vector element is read after push_back
 * reallocated the vector's storage.
 * Fixed here: the pointer is taken again after push_back.
 */
#include <cstdio>
#include <vector>

int main()
{
	std::vector<int> v;

	v.reserve(4);
	for (int i = 0; i < 4; i++)
		v.push_back(i);
	int *first = &v[0];
	v.push_back(4); /* exceeds the capacity: the elements move */
	first = &v[0];
	std::printf("%d\n", *first);
	return 0;
}
