// Fuzz target for RE2: the input is a pattern, compiled with the default
// options and matched in full against itself. The fuzzer-test-suite's
// re2-2014-12-09 bug: when the DFA runs out of memory the NFA searches
// instead, and its "full match ahead" shortcut recorded every capture it
// passed into a match array sized for the captures asked for (none here:
// one pair), writing past it.
#include <re2/re2.h>
#include <stddef.h>
#include <stdint.h>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 64)
		return 0;
	std::string pattern(reinterpret_cast<const char *>(data), size);
	RE2::Options opt;
	opt.set_log_errors(false);
	RE2 re(pattern, opt);
	if (re.ok())
		RE2::FullMatch(pattern, re);
	return 0;
}
