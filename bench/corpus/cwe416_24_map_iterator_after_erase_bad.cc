/* CWE-416 Use After Free: BAD.
 * Bug: a std::map iterator is dereferenced after erase(it).
 * Good twin: cwe416_24_map_iterator_after_erase_good.cc
 */
#include <cstdio>
#include <map>
#include <string>

int main()
{
	std::map<int, int> m;
	int value;

	for (int i = 0; i < 8; i++)
		m[i] = i * i;
	auto it = m.find(3);
	m.erase(it);
	value = it->second;
	std::printf("%d %zu\n", value, m.size());
	return 0;
}
