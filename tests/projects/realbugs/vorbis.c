/* Fuzz target for libvorbis's decoder, as the fuzzer-test-suite's (vorbis's
 * own decode_fuzzer): an Ogg Vorbis stream read from memory by vorbisfile
 * (no seeking) and decoded to 16-bit PCM to its end. CVE-2018-5146: a
 * residue of type 2 decoded with a codebook of more dimensions than the
 * partition has values wrote (+=, a read first) past the block's PCM
 * vector in vorbis_book_decodevv_add. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <vorbis/vorbisfile.h>

struct input {
	const uint8_t *data;
	size_t size, at;
};

static size_t read_input(void *dst, size_t size, size_t nmemb, void *src)
{
	struct input *in = src;
	size_t want = size * nmemb, left = in->size - in->at;
	if (want > left)
		want = left;
	memcpy(dst, in->data + in->at, want);
	in->at += want;
	return want;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct input in = {data, size, 0};
	ov_callbacks cb = {read_input, NULL, NULL, NULL};
	OggVorbis_File vf;
	if (ov_open_callbacks(&in, &vf, NULL, 0, cb) < 0)
		return 0;
	static char pcm[4096];
	int section = 0, got;
	do
		got = ov_read(&vf, pcm, sizeof(pcm), 0, 2, 1, &section);
	while (got > 0 || got == OV_HOLE);
	ov_clear(&vf);
	return 0;
}
