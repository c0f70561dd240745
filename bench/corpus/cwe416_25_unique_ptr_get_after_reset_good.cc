/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_25_unique_ptr_get_after_reset_bad.cc.
 * Bug there: a raw pointer from unique_ptr::get() is written after reset()
 * deleted the object.
 * Fixed here: the write happens before reset().
 */
#include <cstdio>
#include <memory>

struct Config {
	int level = 1;
};

int main()
{
	std::unique_ptr<Config> owner(new Config);
	Config *raw = owner.get();

	raw->level = 2;
	owner.reset();
	std::printf("%d\n", owner ? 1 : 0);
	return 0;
}
