/* A process that lies to `ukasan leaks` (check_leaks_pid.py): it exports
 * its own __ukasan_leak_remote (built with -rdynamic), wrong in the way
 * argv[1] names, and waits on standard input. The tool must refuse it in
 * one line or scan it and finish, never crash or hang. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "leak_remote.h"

__attribute__((visibility("default"), used)) struct leak_remote __ukasan_leak_remote;

static uint8_t shard_array[64 * 64];
static uint64_t table[4 * 256]; /* records of 32 bytes: key, size, stack|flags */
static uint64_t fake_depot;

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
	if (!strcmp(how, "version"))
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
