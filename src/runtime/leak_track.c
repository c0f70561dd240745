/* kmemleak under the preload: the objects of whatever allocator the
 * program uses (glibc's, jemalloc, tcmalloc, mimalloc) have no shadow and
 * no header of ours, so kmemleak finds them in a registry kept here: the
 * base, requested size, allocation stack and kmemleak's bits of every live
 * object, updated from the allocation hooks (alloc_api.c) that every
 * interposed entry point of malloc.c calls.
 *
 * The registry is an open-addressing hash table keyed by address, split
 * into shards, each under its own spinlock, in memory mapped for it (never
 * the program's malloc), grown by mapping a larger table and rehashing:
 * memory in proportion to the live objects. A scan (threads stopped, none
 * may be asked for a lock) copies the live records into a sorted array at
 * scan_begin, and finds the object holding an address by binary search.
 *
 * Only with kmemleak set on explicitly: it costs a stack capture and a
 * locked insert per allocation. Off, nothing here runs. */
#include "leak_track.h"

#include <stdint.h>

#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../base/leak_remote.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "../stack/stack.h"
#include "next_alloc.h"

/* A record, in the table and in the scan's sorted copy. */
/* The address is kept inverted: the scan reads memory near the thread
 * pointer and anonymous mappings merged with ours, and a plain copy of
 * every object's address there would reach them all. */
struct leak_rec {
	uintptr_t key; /* ~base; 0: empty slot; TOMB: removed */
	size_t size;
	uint32_t stack;
	uint32_t flags; /* enum leak_flags, and the allocating thread above */
};
#define TOMB       ((uintptr_t)1)
#define KEY(base)  (~(uintptr_t)(base))
#define BASE(r)    (~(r)->key)
#define FLAG_BITS  3u
#define FLAG_MASK  ((1u << FLAG_BITS) - 1)
#define KEEP_FLAGS (LEAK_IGNORED | LEAK_REPORTED) /* survive a scan */
#define NSHARDS    64
#define MIN_SLOTS  256

struct shard {
	/* Lock order (platform/lock.h): the last, after KFENCE's pool_lock;
	 * shards in index order (leak_track_fork_prepare). */
	struct spinlock lock;
	struct leak_rec *tab;
	size_t cap;  /* a power of 2 */
	size_t used; /* live and tombstones */
	size_t live;
} __attribute__((aligned(64)));

static struct shard shards[NSHARDS];
int leak_track_on;

/* Threads whose new objects are not leaks (__lsan_disable). */
static __thread int ignoring __attribute__((tls_model("initial-exec")));

static inline uint64_t hash_of(uintptr_t p)
{
	uint64_t h = (uint64_t)(p >> 4) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

static inline struct shard *shard_of(uint64_t h)
{
	return &shards[h & (NSHARDS - 1)];
}

/* The slot holding p, or NULL. With the shard locked, or threads stopped. */
static struct leak_rec *lookup(struct shard *s, uintptr_t p, uint64_t h)
{
	if (!s->tab)
		return NULL;
	size_t mask = s->cap - 1;
	uintptr_t key = KEY(p);
	for (size_t i = (h >> 6) & mask;; i = (i + 1) & mask) {
		uintptr_t k = __atomic_load_n(&s->tab[i].key, __ATOMIC_ACQUIRE);
		if (k == key)
			return &s->tab[i];
		if (!k)
			return NULL;
	}
}

static void put(struct leak_rec *tab, size_t cap, const struct leak_rec *r)
{
	size_t mask = cap - 1;
	size_t i = (hash_of(BASE(r)) >> 6) & mask;
	while (tab[i].key > TOMB)
		i = (i + 1) & mask;
	tab[i].size = r->size;
	tab[i].stack = r->stack;
	tab[i].flags = r->flags;
	/* Last: a scan that stopped this thread here sees a whole record or none. */
	__atomic_store_n(&tab[i].key, r->key, __ATOMIC_RELEASE);
}

/* Room for one more. A scan reads the old table until the new one is
 * whole, and the old is released only after. 0, or -1 without memory. */
static int make_room(struct shard *s)
{
	if (s->tab && (s->used + 1) * 4 <= s->cap * 3)
		return 0;
	size_t cap = s->cap ? s->cap : MIN_SLOTS;
	while ((s->live + 1) * 2 > cap)
		cap *= 2;
	struct leak_rec *tab = os_reserve(cap * sizeof(*tab), OS_PROT_RW);
	if (!tab)
		return -1;
	for (size_t i = 0; s->tab && i < s->cap; i++)
		if (s->tab[i].key > TOMB)
			put(tab, cap, &s->tab[i]);
	struct leak_rec *old = s->tab;
	size_t old_cap = s->cap;
	__atomic_store_n(&s->tab, tab, __ATOMIC_RELEASE);
	s->cap = cap;
	s->used = s->live;
	if (old)
		os_release(old, old_cap * sizeof(*old));
	return 0;
}

void leak_track_alloc(const void *p, size_t size)
{
	uintptr_t pcs[STACK_MAX_FRAMES];
	struct leak_rec r = {KEY(p), size, 0,
	                     ((uint32_t)os_tid() << FLAG_BITS) | (ignoring ? LEAK_IGNORED : 0)};
	/* The unwinder, not the frame-pointer walk: in code built without
	 * frame pointers (libc's strdup, most distributions' programs) the
	 * walk stops at the allocator's caller and loses the leaking function.
	 * bash's loop of 20,000 steps: 1.1 s user with it, 0.4 s walking
	 * frame pointers, 0.09 s without tracking. */
	r.stack = depot_save(pcs, stack_capture(pcs, STACK_MAX_FRAMES));
	uint64_t h = hash_of((uintptr_t)p);
	struct shard *s = shard_of(h);
	spin_lock(&s->lock);
	struct leak_rec *old = lookup(s, (uintptr_t)p, h);
	if (old) { /* freed by a path we did not see (the allocator's own API) */
		old->size = r.size;
		old->stack = r.stack;
		old->flags = r.flags;
	} else if (make_room(s) == 0) {
		put(s->tab, s->cap, &r);
		s->used++;
		s->live++;
	}
	spin_unlock(&s->lock);
}

void leak_track_free(const void *p)
{
	uint64_t h = hash_of((uintptr_t)p);
	struct shard *s = shard_of(h);
	spin_lock(&s->lock);
	struct leak_rec *r = lookup(s, (uintptr_t)p, h);
	if (r) {
		__atomic_store_n(&r->key, TOMB, __ATOMIC_RELEASE);
		s->live--;
	}
	spin_unlock(&s->lock);
}

void leak_track_fork_prepare(void)
{
	if (!leak_track_on)
		return;
	for (int i = 0; i < NSHARDS; i++)
		spin_lock(&shards[i].lock);
}

void leak_track_fork_done(void)
{
	if (!leak_track_on)
		return;
	for (int i = NSHARDS - 1; i >= 0; i--)
		spin_unlock(&shards[i].lock);
}

/* ---- The scan's view: a sorted copy, made with the threads stopped ---- */

static struct leak_rec *snap;
static size_t nsnap, snap_bytes;

static void sift(struct leak_rec *a, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			return;
		if (c + 1 < n && BASE(&a[c + 1]) > BASE(&a[c]))
			c++;
		if (BASE(&a[i]) >= BASE(&a[c]))
			return;
		struct leak_rec t = a[i];
		a[i] = a[c];
		a[c] = t;
		i = c;
	}
}

/* Heapsort: in place, no allocation, n log n at worst. */
static void sort_recs(struct leak_rec *a, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift(a, i, n);
	for (size_t end = n; end > 1; end--) {
		struct leak_rec t = a[0];
		a[0] = a[end - 1];
		a[end - 1] = t;
		sift(a, 0, end - 1);
	}
}

/* The first record at or above a. */
static size_t lower_bound(uintptr_t a)
{
	size_t l = 0, h = nsnap;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (BASE(&snap[m]) < a)
			l = m + 1;
		else
			h = m;
	}
	return l;
}

static int track_scan_begin(const struct leak_span *spans, long n, uintptr_t *first,
                            struct leak_span *bounds)
{
	size_t count = 0;
	for (int i = 0; i < NSHARDS; i++)
		count += shards[i].tab ? shards[i].cap : 0;
	size_t bytes = ALIGN_UP((count ? count : 1) * sizeof(struct leak_rec), os_page_size());
	if (snap)
		os_release(snap, snap_bytes);
	snap = os_reserve(bytes, OS_PROT_RW);
	snap_bytes = bytes;
	nsnap = 0;
	if (!snap)
		return -1;
	for (int i = 0; i < NSHARDS; i++) {
		const struct shard *s = &shards[i];
		const struct leak_rec *tab = __atomic_load_n(&s->tab, __ATOMIC_ACQUIRE);
		for (size_t k = 0; tab && k < s->cap; k++)
			if (__atomic_load_n(&tab[k].key, __ATOMIC_ACQUIRE) > TOMB)
				snap[nsnap++] = tab[k];
	}
	sort_recs(snap, nsnap);
	bounds->start = bounds->end = 0;
	if (nsnap) {
		bounds->start = BASE(&snap[0]);
		for (size_t i = 0; i < nsnap; i++) {
			uintptr_t end = BASE(&snap[i]) + (snap[i].size ? snap[i].size : 1);
			if (end > bounds->end)
				bounds->end = end;
		}
	}
	/* Where the allocator's memory starts in each mapping: a chunk header
	 * of glibc's lies before the first object. */
	for (long k = 0; k < n; k++) {
		size_t i = lower_bound(spans[k].start);
		first[k] = 0;
		uintptr_t b = i < nsnap ? BASE(&snap[i]) : 0;
		if (i < nsnap && b < spans[k].end)
			first[k] = b - spans[k].start >= 16 ? b - 16 : spans[k].start;
	}
	return 0;
}

/* Objects are glibc's chunks (leak_glibc_arena_word). */
static int chunk_headers;

/* A live object starts at p. */
static int live_at(uintptr_t p)
{
	size_t i = lower_bound(p);
	return i < nsnap && BASE(&snap[i]) == p;
}

static struct leak_object *track_find(uintptr_t a)
{
	size_t i = lower_bound(a + 1); /* the first above a: its left neighbour holds a */
	if (!i)
		return NULL;
	struct leak_rec *r = &snap[i - 1];
	uintptr_t base = BASE(r);
	if (a == base)
		return (struct leak_object *)r;
	if (a - base >= r->size)
		return NULL;
	if (chunk_headers && leak_glibc_arena_word(a, base, r->size, live_at))
		return NULL;
	return (struct leak_object *)r;
}

static void track_each_live(void (*fn)(struct leak_object *o, void *arg), void *arg)
{
	for (size_t i = 0; i < nsnap; i++)
		fn((struct leak_object *)&snap[i], arg);
}

static void track_describe(const struct leak_object *o, struct leak_object_info *info)
{
	const struct leak_rec *r = (const struct leak_rec *)o;
	info->base = BASE(r);
	info->size = r->size;
	info->stack = r->stack;
	info->tid = r->flags >> FLAG_BITS;
	info->flags = r->flags & FLAG_MASK;
}

/* The bits that outlive the scan go back to the table too (threads are
 * stopped: no lock; a thread stopped while growing its shard's table may
 * lose one). */
static unsigned track_flags_update(struct leak_object *o, unsigned set, unsigned clear)
{
	struct leak_rec *r = (struct leak_rec *)o;
	unsigned old = r->flags & FLAG_MASK;
	r->flags = (r->flags & ~clear) | set;
	if ((set | clear) & KEEP_FLAGS) {
		uint64_t h = hash_of(BASE(r));
		struct leak_rec *t = lookup(shard_of(h), BASE(r), h);
		if (t)
			t->flags = (t->flags & ~(clear & KEEP_FLAGS)) | (set & KEEP_FLAGS);
	}
	return old;
}

static int track_ignore(uintptr_t p)
{
	uint64_t h = hash_of(p);
	struct shard *s = shard_of(h);
	spin_lock(&s->lock);
	struct leak_rec *r = lookup(s, p, h);
	if (r)
		r->flags |= LEAK_IGNORED;
	spin_unlock(&s->lock);
	return r != NULL;
}

static void track_thread_ignore(int on)
{
	ignoring += on ? 1 : -1;
}

static const struct leak_heap track_heap = {
    .name = "preload",
    .scan_begin = track_scan_begin,
    .find = track_find,
    .each_live = track_each_live,
    .describe = track_describe,
    .flags_update = track_flags_update,
    .ignore = track_ignore,
    .thread_ignore = track_thread_ignore,
};

/* For `ukasan leaks PID`, which reads the registry from outside
 * (base/leak_remote.h): exported, found by its name. */
__attribute__((visibility("default"), used)) struct leak_remote __ukasan_leak_remote = {
    .magic = LEAK_REMOTE_MAGIC,
    .version = LEAK_REMOTE_VERSION,
    .size = sizeof(struct leak_remote),
    .track = {.nshards = NSHARDS,
              .shard_size = sizeof(struct shard),
              .tab_off = __builtin_offsetof(struct shard, tab),
              .cap_off = __builtin_offsetof(struct shard, cap),
              .rec_size = sizeof(struct leak_rec),
              .key_off = __builtin_offsetof(struct leak_rec, key),
              .size_off = __builtin_offsetof(struct leak_rec, size),
              .stack_off = __builtin_offsetof(struct leak_rec, stack),
              .flags_off = __builtin_offsetof(struct leak_rec, flags),
              .flag_bits = FLAG_BITS},
};

void leak_track_note_generic(void)
{
	struct leak_remote *d = &__ukasan_leak_remote;
	kasan_leak_remote_layout(&d->generic);
	d->generic.kfence_base = (uintptr_t)&kfence.base;
	d->generic.kfence_size = (uintptr_t)&kfence.size;
	d->depot = depot_remote_location(&d->depot_bytes);
	d->max_frames = STACK_MAX_FRAMES;
	__atomic_store_n(&d->heaps, d->heaps | LEAK_REMOTE_GENERIC, __ATOMIC_RELEASE);
}

const struct leak_heap *leak_track_start(void)
{
	chunk_headers = next_alloc_is_libc();
	__ukasan_leak_remote.track.shards = (uintptr_t)shards;
	__ukasan_leak_remote.track.chunk_headers = (uint32_t)chunk_headers;
	__ukasan_leak_remote.depot = depot_remote_location(&__ukasan_leak_remote.depot_bytes);
	__ukasan_leak_remote.max_frames = STACK_MAX_FRAMES;
	__atomic_store_n(&__ukasan_leak_remote.tracking, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&leak_track_on, 1, __ATOMIC_RELEASE);
	return &track_heap;
}
