/* Fuzz target for woff2's decoder: the input is a WOFF2 font, converted to
 * TrueType in memory. The fuzzer-test-suite's woff2-2016-05-06 bug: the
 * buffer for a composite glyph was sized 2 + components + instructions, not
 * 12 + ..., so copying its instructions wrote 10 bytes past it. */
#include <stddef.h>
#include <stdint.h>
#include <string>
#include <woff2/decode.h>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	std::string ttf;
	woff2::WOFF2StringOut out(&ttf);
	out.SetMaxSize(30 * 1024 * 1024);
	woff2::ConvertWOFF2ToTTF(data, size, &out);
	return 0;
}
