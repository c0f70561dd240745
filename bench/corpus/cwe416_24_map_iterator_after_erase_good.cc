/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_24_map_iterator_after_erase_bad.cc.
 * Bug there: a std::map iterator is dereferenced after erase(it).
 * Fixed here: the value is read before erase.
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
	value = it->second;
	m.erase(it);
	std::printf("%d %zu\n", value, m.size());
	return 0;
}
