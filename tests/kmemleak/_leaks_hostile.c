/* A process that lies to `ukasan leaks` (check_leaks_pid.py): it exports
 * its own __ukasan_leak_remote (built with -rdynamic), wrong in the way
 * argv[1] names, and waits on standard input. The tool must refuse it in
 * one line or scan it and finish, never crash or hang. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#include "leak_remote.h"

__attribute__((visibility("default"), used)) struct leak_remote __ukasan_leak_remote;

static uint8_t shard_array[64 * 64];
static uint64_t table[4 * 256]; /* records of 32 bytes: key, size, stack|flags */
static uint64_t fake_depot;

/* The generic heap's lies: a layout no runtime has; large regions where
 * nothing is mapped; or a consistent layout over memory that lies (a
 * shadow of object starts over headers of absurd sizes and stacks, a
 * region of 2^46 bytes whose records are zero then unmapped, fake stacks
 * and unsampled objects nowhere, a KFENCE pool of 2^40 bytes). */
static uint64_t fake_regions[4];
static uint64_t region_table[3 * 4];
static uint64_t unsampled_set[2 * 16];
static uint64_t kfence_words[2];
static int nregions_word = 1;

static void generic_lies(struct leak_remote *d, const char *how)
{
	struct leak_remote_generic *g = &d->generic;
	d->heaps = LEAK_REMOTE_GENERIC;
	g->va_end = 1ull << 47;
	g->shadow_scale = 3;
	g->granule = 8;
	g->slab_redzone = 0xfc;
	g->page_redzone = 0xfe;
	g->live = 0xa4;
	g->large = 1;
	g->header_size = 16;
	g->stack_off = 0;
	g->tid_off = 4;
	g->size_off = 8;
	g->state_off = 12;
	g->max_small = 4096;
	g->flags_shift = 29;
	g->tid_mask = 0x1fffffff;
	g->empty_live = (uintptr_t)&nregions_word; /* nonzero: look for empty objects too */
	g->regions = (uintptr_t)region_table;
	g->nregions = (uintptr_t)&nregions_word;
	g->max_regions = 4;
	g->region_size = 24;
	g->region_base_off = 0;
	g->region_len_off = 8;
	g->region_meta_off = 16;
	g->page_size = 4096;
	g->meta_size = 64;
	g->meta_chunk_off = 0;
	g->meta_obj_off = 40;
	g->meta_size_off = 32;
	g->meta_pages_off = 56;
	g->meta_flags_off = 60;
	g->meta_free = 1;
	g->fake_regions = (uintptr_t)fake_regions;
	g->fake_max = 4;
	g->fake_frames_off = 0;
	g->fake_classes = 11;
	g->fake_min_shift = 6;
	g->fake_class_shift = 20;
	g->unsampled = (uintptr_t)unsampled_set;
	g->unsampled_slots = 16;
	g->unsampled_slot = 16;
	g->unsampled_p_off = 0;
	g->unsampled_size_off = 8;
	g->kfence_base = (uintptr_t)&kfence_words[0];
	g->kfence_size = (uintptr_t)&kfence_words[1];
	if (!strcmp(how, "glayout")) {
		g->header_size = 1000;
		return;
	}
	if (!strcmp(how, "gregions")) {
		g->nregions = 0x10;
		return;
	}
	/* gwalk: memory whose shadow says objects start every 32 bytes of
	 * its first 512, their headers live, of sizes past their mapping or
	 * absurd, their stacks nowhere. */
	size_t len = 1 << 20;
	uint8_t *mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *shadow =
	    mmap(NULL, len / 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint8_t *meta = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || shadow == MAP_FAILED || meta == MAP_FAILED)
		return;
	g->shadow_offset = (uintptr_t)shadow - ((uintptr_t)mem >> 3);
	for (int i = 0; i < 64; i += 4) {
		shadow[i] = shadow[i + 1] = 0xfc;
		shadow[i + 2] = i & 4 ? 0 : 3;
		shadow[i + 3] = 0xfc;
	}
	for (size_t o = 0; o < 512; o += 16) {
		uint32_t hdr[4] = {0xfffffff8u, 5, o & 32 ? 0xffffffffu : 3, 0xa4};
		memcpy(mem + o, hdr, sizeof(hdr));
	}
	/* A region of 2^46 bytes: records of pages 0, then unmapped. */
	region_table[0] = 0x10000;
	region_table[1] = 1ull << 46;
	region_table[2] = (uintptr_t)meta;
	/* A live record whose object lies past its region; one of 2^40
	 * bytes where nothing is mapped. */
	uint64_t rec[8] = {0, 0xa5ull << 32, 0, 0, 1ull << 45, 1ull << 62, 0, 1};
	memcpy(meta + 64, rec, sizeof(rec));
	rec[4] = 1ull << 40, rec[5] = 0x20000;
	memcpy(meta + 128, rec, sizeof(rec));
	fake_regions[0] = 0x1000;
	fake_regions[1] = (uintptr_t)fake_regions;
	fake_regions[2] = (uintptr_t)meta;
	unsampled_set[0] = 0x1000, unsampled_set[1] = ~0ull;
	unsampled_set[2] = (uintptr_t)mem, unsampled_set[3] = 1ull << 60;
	kfence_words[0] = 0x1000, kfence_words[1] = 1ull << 40;
}

int main(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	struct leak_remote *d = &__ukasan_leak_remote;
	d->magic = LEAK_REMOTE_MAGIC;
	d->version = LEAK_REMOTE_VERSION;
	d->size = sizeof(*d);
	d->tracking = 1;
	d->depot = (uintptr_t)&fake_depot;
	fake_depot = 0x10; /* a depot where nothing is mapped */
	d->depot_bytes = 64u << 20;
	d->max_frames = 1000;
	d->track.shards = (uintptr_t)shard_array;
	d->track.nshards = 64;
	d->track.shard_size = 64;
	d->track.tab_off = 8;
	d->track.cap_off = 16;
	d->track.rec_size = 32;
	d->track.key_off = 0;
	d->track.size_off = 8;
	d->track.stack_off = 16;
	d->track.flags_off = 20;
	d->track.flag_bits = 3;
	if (how[0] == 'g')
		generic_lies(d, how);
	else if (!strcmp(how, "version"))
		d->version = 99;
	else if (!strcmp(how, "layout"))
		d->track.rec_size = 100000;
	else if (!strcmp(how, "shards"))
		d->track.shards = 0x10;
	else if (!strcmp(how, "cap")) {
		uint64_t tab = (uintptr_t)table, cap = 3;
		memcpy(shard_array + 8, &tab, 8);
		memcpy(shard_array + 16, &cap, 8);
	} else if (!strcmp(how, "records")) {
		uint64_t tab = (uintptr_t)table, cap = 256;
		memcpy(shard_array + 8, &tab, 8);
		memcpy(shard_array + 16, &cap, 8);
		/* Objects nowhere, of absurd sizes, with stacks nowhere. */
		table[0] = ~(uint64_t)0x1000, table[1] = 1ull << 62, table[2] = 0xfffffff8;
		table[4] = ~(uint64_t)0x2000, table[5] = ~0ull, table[6] = 8;
		table[8] = ~(uint64_t)(uintptr_t)shard_array, table[9] = 1ull << 40, table[10] = 16;
		table[12] = 2, table[13] = 64, table[14] = 24; /* base ~2: the top of memory */
	}
	printf("ready\n");
	fflush(stdout);
	char line[16];
	while (fgets(line, sizeof(line), stdin))
		;
	return 0;
}
