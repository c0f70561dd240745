/* What `ukasan leaks PID` (src/leaks/) reads of a running process's
 * runtime, from outside: the contract between the runtime and that tool.
 * The runtime exports one object, __ukasan_leak_remote, that says where it
 * keeps what a leak scan needs and how it is laid out; the tool finds it by
 * the symbol, reads it with the process stopped, and refuses a runtime
 * whose magic, version or size differ from its own. The process does
 * nothing for the scan: no signal, no system call, no code of its runs.
 *
 * Every number here is read from another process: the tool checks each
 * (bounds, overflow) before it uses it. A heap that can be read from
 * outside gets its block here (the preload's registry now; KFENCE's
 * sampled objects or the generic heap would add theirs and bump the
 * version). */
#ifndef UKASAN_BASE_LEAK_REMOTE_H
#define UKASAN_BASE_LEAK_REMOTE_H

#include <stdint.h>

#define LEAK_REMOTE_MAGIC   0x31656b616c6d656dull /* "memlake1" */
#define LEAK_REMOTE_VERSION 1
#define LEAK_REMOTE_SYMBOL  "__ukasan_leak_remote"

/* The preload's registry (runtime/leak_track.c): shards, each a pointer to
 * an open-addressing table of records. A record's key is the object's base
 * inverted (0: empty, 1: removed); its flags word holds enum leak_flags in
 * its low flag_bits bits and the allocating thread above. */
struct leak_remote_track {
	uint64_t shards; /* the shard array's address */
	uint32_t nshards, shard_size;
	uint32_t tab_off, cap_off; /* in a shard: the table's address, its slots (a power of 2) */
	uint32_t rec_size, key_off, size_off, stack_off, flags_off, flag_bits;
	/* glibc's allocator: a 16-aligned word in an object's last 8 bytes is
	 * the next chunk's header, no reference (leak_track.c says why). */
	uint32_t chunk_headers;
	uint32_t pad;
};

enum leak_remote_heaps {
	LEAK_REMOTE_GENERIC = 1,
};

struct leak_remote {
	uint64_t magic;
	uint32_t version, size; /* LEAK_REMOTE_VERSION, sizeof(struct leak_remote) */
	/* The stack depot (stack/stack.c): the address of its pointer, its
	 * bytes; a handle is an offset there of a record {uint32_t n; uint32_t
	 * pad; uintptr_t pcs[n]}, n at most max_frames. */
	uint64_t depot;
	uint32_t depot_bytes, max_frames;
	uint32_t tracking; /* the registry is on (kmemleak=on under the preload) */
	/* Heaps in force whose objects can leak but that this interface does
	 * not show yet: the generic mode's (a ukasan-cc program). */
	uint32_t unread_heaps;
	struct leak_remote_track track;
};

#endif
