// Fuzz target for PROJ's projection set-up from a "+proj=... +k=v"
// definition (the fuzzer-test-suite's proj4 target read one too): the
// input split at blanks into parameters, the projection set up with
// pj_init_ctx (proj_internal.h's entry), destroyed when made.
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "proj_internal.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char text[4096];
	static char *argv[64];
	if (size >= sizeof(text))
		return 0;
	memcpy(text, data, size);
	text[size] = 0;
	int argc = 0;
	for (char *p = strtok(text, " \t\r\n+"); p && argc < 64; p = strtok(NULL, " \t\r\n+"))
		argv[argc++] = p;
	if (!argc)
		return 0;
	PJ *P = pj_init_ctx_with_allow_init_epsg(pj_get_default_ctx(), argc, argv, 0);
	if (P)
		proj_destroy(P);
	return 0;
}
