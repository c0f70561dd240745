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
 * outside gets its block here (the preload's registry, the generic
 * mode's heap; KFENCE's sampled objects would add theirs and bump the
 * version). */
#ifndef UKASAN_BASE_LEAK_REMOTE_H
#define UKASAN_BASE_LEAK_REMOTE_H

#include <stdint.h>

#define LEAK_REMOTE_MAGIC   0x31656b616c6d656dull /* "memlake1" */
#define LEAK_REMOTE_VERSION 2
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

/* The generic mode's heap (a ukasan-cc program; kasan/generic_walk.c says
 * how the runtime walks it in-process). No registry: a small object starts
 * where a run of slab-redzone shadow bytes ends, its header (struct chunk)
 * just before it; large objects are in large.c's regions, one record per
 * page, each extent's at its first page. Every layout below is filled in
 * by kasan/ from the real structures (offsetof), so that a changed header
 * changes what the tool reads, not what it believes. */
struct leak_remote_generic {
	/* The shadow: shadow(a) = (a >> scale) + offset, for a below va_end
	 * and outside [shadow_beg, shadow_end) unless inside [mid_beg,
	 * mid_end) while the int at mid is nonzero. */
	uint64_t shadow_offset, va_end, shadow_beg, shadow_end, mid_beg, mid_end, mid;
	uint32_t shadow_scale, granule;
	uint8_t slab_redzone, page_redzone; /* shadow bytes */
	uint8_t live, large;                /* struct chunk's state: live, | large */
	/* struct chunk, header_size bytes before a small object, which is
	 * under max_small bytes; kmemleak's bits are tid's top ones from
	 * flags_shift, the thread id under tid_mask. */
	uint32_t header_size, stack_off, tid_off, size_off, state_off;
	uint32_t max_small, flags_shift, tid_mask;
	uint64_t empty_live; /* the address of a long: live objects of size 0 */
	/* Large objects: an array of max_regions records of region_size bytes
	 * at regions, the int at nregions saying how many are in use; a
	 * region's {base, len, meta}: meta is its array of len / page_size
	 * records of meta_size bytes (a struct chunk at meta_chunk_off, the
	 * object's address, 64-bit size, the extent's pages (32-bit) and its
	 * flags byte, meta_free set while the extent is free). */
	uint64_t regions, nregions;
	uint32_t max_regions, region_size, region_base_off, region_len_off, region_meta_off;
	uint32_t page_size, meta_size, meta_chunk_off, meta_obj_off, meta_size_off;
	uint32_t meta_pages_off, meta_flags_off, meta_free;
	/* Fake stacks (stack use after return), roots: an array of
	 * fake_max pointers at fake_regions, each to a region whose frames
	 * start at the address at fake_frames_off in it; fake_classes classes
	 * of (1 << fake_class_shift) bytes each, class c's frames of
	 * 1 << (fake_min_shift + c) bytes; after the frames, one flag byte
	 * per frame, class by class, nonzero while the frame is live. */
	uint64_t fake_regions;
	uint32_t fake_max, fake_frames_off, fake_classes, fake_min_shift, fake_class_shift;
	/* Unsampled large objects (no header, not tracked), roots: a table of
	 * unsampled_slots slots of unsampled_slot bytes, {address, size} at
	 * the offsets given, address 0 when empty. */
	uint64_t unsampled;
	uint32_t unsampled_slots, unsampled_slot, unsampled_p_off, unsampled_size_off;
	/* KFENCE's pool, whose objects the in-process scan reads as roots:
	 * read whole as a root from outside (where readable). The addresses
	 * of its base and size words (it may be made after start-up). */
	uint64_t kfence_base, kfence_size;
};

enum leak_remote_heaps {
	LEAK_REMOTE_GENERIC = 1, /* the generic block is filled in */
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
	/* Heaps in force besides the registry (enum leak_remote_heaps). */
	uint32_t heaps;
	struct leak_remote_track track;
	struct leak_remote_generic generic;
};

#endif
