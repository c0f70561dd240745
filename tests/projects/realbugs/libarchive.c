/* Fuzz target for libarchive's readers: the input is an archive in memory,
 * every entry's header and data read. The fuzzer-test-suite's
 * libarchive-2017-01-04 bug (OSS-Fuzz 382): the WARC reader parsed the
 * WARC-Date value skipping any white space, CR and LF too, past the
 * header's end and the input's. */
#include <archive.h>
#include <archive_entry.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct archive *a = archive_read_new();
	if (!a)
		return 0;
	archive_read_support_format_warc(a);
	if (archive_read_open_memory(a, data, size) == ARCHIVE_OK) {
		struct archive_entry *entry;
		char buf[4096];
		while (archive_read_next_header(a, &entry) == ARCHIVE_OK)
			while (archive_read_data(a, buf, sizeof(buf)) > 0)
				;
	}
	archive_read_free(a);
	return 0;
}
