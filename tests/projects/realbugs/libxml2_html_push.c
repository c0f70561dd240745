/* Fuzz target for libxml2's HTML parser in push mode, set up as libxml2's
 * own regression tests set it up (runtest.c, pushParseTest): a parser
 * context made with the first 4 bytes, its options set by
 * xmlCtxtUseOptions (which turns on interning names and short texts in the
 * dictionary), then the rest in chunks and the end (terminate). The tree is
 * built by the default SAX2 handlers. */
#include <libxml/HTMLparser.h>
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
	size_t first = size < 4 ? size : 4, chunk = 4096;
	xmlSetGenericErrorFunc(NULL, quiet);
	htmlParserCtxtPtr ctxt = htmlCreatePushParserCtxt(
	    NULL, NULL, (const char *)data, (int)first, "noname.html", XML_CHAR_ENCODING_NONE);
	if (!ctxt)
		return 0;
	xmlCtxtUseOptions(ctxt, 0);
	for (size_t at = first; at < size; at += chunk)
		htmlParseChunk(ctxt, (const char *)data + at,
		               (int)(size - at < chunk ? size - at : chunk), 0);
	htmlParseChunk(ctxt, NULL, 0, 1);
	if (ctxt->myDoc)
		xmlFreeDoc(ctxt->myDoc);
	htmlFreeParserCtxt(ctxt);
	return 0;
}
