/* Fuzz target for libxml2's parser: the input is an XML document, parsed
 * from memory. libxml2 bug 756528 (the fuzzer-test-suite's libxml2-v2.9.2
 * finds it): xmlDictComputeFastQKey hashed a prefixed name with a byte at
 * name[len - (plen + 2)], before the name when the prefix is the longer. */
#include <libxml/parser.h>
#include <stddef.h>
#include <stdint.h>

static void quiet(void *ctx, const char *msg, ...)
{
	(void)ctx;
	(void)msg;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	xmlSetGenericErrorFunc(NULL, quiet);
	xmlDocPtr doc = xmlReadMemory((const char *)data, (int)size, "noname.xml", NULL, 0);
	if (doc)
		xmlFreeDoc(doc);
	return 0;
}
