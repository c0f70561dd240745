/* CWE-416 Use After Free: BAD.
 * Bug: a pointer to a std::vector element is read after push_back
 * reallocated the vector's storage.
 * Good twin: cwe416_22_vector_pointer_after_push_back_good.cc
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

	std::printf("%d\n", *first);
	return 0;
}
