/* Hardware tag mode's small-object heap (see hw_heap.h).
 *
 *   region: [slab|slab|slab|...........................| PROT_NONE ...]
 *            <- 4 MiB chunks made PROT_MTE on demand ->
 *
 * Regions are reserved PROT_NONE, 64 MiB the first, each next twice the
 * last up to 4 GiB: qemu-user's cost of a mapping grows with its size, so
 * the reservation stays within twice what is used, and the unused part
 * faults (a wild pointer into it is not silently zero memory). Chunks of
 * 4 MiB become readable, writable and PROT_MTE as slabs reach them; their
 * fresh pages' tags are 0. Each 64 KiB slab belongs to one size class for
 * good and is cut into equal blocks at multiples of the class size, so a
 * class whose size is a multiple of an alignment gives blocks aligned to it.
 *
 * Everything about a block is out of band, in each region's side table:
 * its slab's class, and a bit per block saying it is allocated. Freed
 * blocks' memory is never written: a use after free (reported, then let
 * through with checks off) cannot corrupt the heap, and the tags the caller
 * left stay. A block is named by 32 bits: region (4), slab in the region
 * (16), block in the slab (12); a class's queue of freed blocks is a ring
 * of such ids, big enough for every block the class has, so a free never
 * has to grow it. */
#include "hw_heap.h"

#include "../arch/aarch64/mte.h"
#include "../base/compiler.h"
#include "../platform/lock.h"
#include "../platform/mte.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"

#define SLAB_SHIFT    16
#define SLAB_BYTES    (1ul << SLAB_SHIFT)
#define CHUNK_BYTES   (4ul << 20)
#define REGION_FIRST  (64ul << 20)
#define REGION_MAX    (4ul << 30) /* 2^16 slabs: the id's 16 bits */
#define MAX_REGIONS   16          /* the id's 4 bits */
#define SLAB_BLOCKS   (SLAB_BYTES / 16)
#define BITMAP_WORDS  (SLAB_BLOCKS / 64)
#define ID_REGION(id) ((id) >> 28)
#define ID_SLAB(id)   (((id) >> 12) & 0xffff)
#define ID_BLOCK(id)  ((id)&0xfff)

struct region {
	uintptr_t base;
	size_t len;
	uint8_t *slab_class;            /* per slab: class + 1, 0 = not carved yet */
	uint64_t (*bits)[BITMAP_WORDS]; /* per slab: which blocks are allocated */
	size_t carved;                  /* slabs given to classes */
	size_t committed;               /* bytes made PROT_MTE from base on */
};

static struct region regions[MAX_REGIONS];
static int nregions;              /* published with release once a region is filled in */
static struct spinlock grow_lock; /* taken inside a class's lock */
static size_t stat_reserved, stat_mapped, stat_slabs;

/* Size classes: 16-byte steps to 256, then four per doubling to 4096, then
 * the largest object with its header. */
static const uint16_t class_size[] = {
    16,  32,   48,   64,   80,   96,   112,  128,  144,  160,  176,
    192, 208,  224,  240,  256,  320,  384,  448,  512,  640,  768,
    896, 1024, 1280, 1536, 1792, 2048, 2560, 3072, 3584, 4096, HW_HEAP_MAX,
};
#define NCLASSES ((int)(sizeof(class_size) / sizeof(class_size[0])))

struct size_class {
	struct spinlock lock;
	uint32_t bump_id;   /* the next never-used block of the newest slab */
	uint32_t bump_left; /* never-used blocks left in it */
	uint32_t *ring;     /* freed blocks, oldest at head */
	uint32_t cap, head, count;
	size_t blocks; /* in all of the class's slabs */
	size_t in_use, allocs, frees;
} __attribute__((aligned(64)));

static struct size_class classes[NCLASSES];

static unsigned blocks_per_slab(int c)
{
	return (unsigned)(SLAB_BYTES / class_size[c]);
}

/* The first class at least size bytes whose size is a multiple of align. */
static int class_for(size_t size, size_t align)
{
	if (size > HW_HEAP_MAX)
		return -1;
	int c = size <= 256 ? (int)(size ? (size + 15) / 16 - 1 : 0) : 16;
	while (c < NCLASSES && (class_size[c] < size || class_size[c] % align))
		c++;
	return c < NCLASSES ? c : -1;
}

static uintptr_t block_addr(uint32_t id, unsigned size)
{
	const struct region *r = &regions[ID_REGION(id)];
	return r->base + ((uintptr_t)ID_SLAB(id) << SLAB_SHIFT) + (uintptr_t)ID_BLOCK(id) * size;
}

static struct region *region_of(uintptr_t p)
{
	int n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
	for (int i = n; i--;) /* the newest, and largest, first */
		if (p - regions[i].base < regions[i].len)
			return &regions[i];
	return NULL;
}

int hw_heap_owns(uintptr_t p)
{
	return region_of(untag(p)) != NULL;
}

/* Under grow_lock: a region twice the last, its side table beside it. */
static struct region *new_region(void)
{
	if (nregions == MAX_REGIONS)
		return NULL;
	size_t len = nregions ? regions[nregions - 1].len * 2 : REGION_FIRST;
	if (len > REGION_MAX)
		len = REGION_MAX;
	size_t slabs = len >> SLAB_SHIFT;
	size_t meta = ALIGN_UP(slabs * (1 + sizeof(uint64_t[BITMAP_WORDS])), os_page_size());
	void *base = os_reserve(len, OS_PROT_NONE);
	char *side = base ? os_reserve(meta, OS_PROT_RW) : NULL;
	if (!side) {
		if (base)
			os_release(base, len);
		return NULL;
	}
	struct region *r = &regions[nregions];
	r->base = (uintptr_t)base;
	r->len = len;
	r->bits = (void *)side; /* first: its words are 8-byte aligned */
	r->slab_class = (uint8_t *)(side + slabs * sizeof(uint64_t[BITMAP_WORDS]));
	r->carved = r->committed = 0;
	__atomic_store_n(&nregions, nregions + 1, __ATOMIC_RELEASE);
	__atomic_add_fetch(&stat_reserved, len, __ATOMIC_RELAXED);
	return r;
}

/* Under grow_lock: the next slab of the newest region, for class c, its
 * chunk made PROT_MTE if it is the first slab there; the slab's first id. */
static int carve_slab(int c, uint32_t *id)
{
	struct region *r = nregions ? &regions[nregions - 1] : NULL;
	if (!r || r->carved == r->len >> SLAB_SHIFT)
		r = new_region();
	if (!r)
		return -1;
	size_t s = r->carved;
	if ((s + 1) << SLAB_SHIFT > r->committed) {
		if (mte_protect((void *)(r->base + r->committed), CHUNK_BYTES) != 0)
			return -1;
		r->committed += CHUNK_BYTES;
		__atomic_add_fetch(&stat_mapped, CHUNK_BYTES, __ATOMIC_RELAXED);
	}
#if defined(__aarch64__)
	/* Before any thread tags blocks of it (see mte_touch_tags). */
	mte_touch_tags(r->base + (s << SLAB_SHIFT), SLAB_BYTES, os_page_size());
#endif
	/* Published last: a lookup that sees the class sees a usable slab. */
	__atomic_store_n(&r->slab_class[s], (uint8_t)(c + 1), __ATOMIC_RELEASE);
	r->carved = s + 1;
	__atomic_add_fetch(&stat_slabs, 1, __ATOMIC_RELAXED);
	*id = (uint32_t)((r - regions) << 28 | s << 12);
	return 0;
}

/* Under the class's lock: room in the ring for every block of one more
 * slab, so that frees never need to grow it. */
static int ring_reserve(struct size_class *k, size_t blocks)
{
	if (blocks <= k->cap)
		return 0;
	uint32_t cap = k->cap ? k->cap : 1024;
	while (cap < blocks)
		cap *= 2;
	uint32_t *ring = os_reserve((size_t)cap * sizeof(uint32_t), OS_PROT_RW);
	if (!ring)
		return -1;
	for (uint32_t i = 0; i < k->count; i++) /* oldest first, at 0 */
		ring[i] = k->ring[(k->head + i) & (k->cap - 1)];
	if (k->ring)
		os_release(k->ring, (size_t)k->cap * sizeof(uint32_t));
	k->ring = ring;
	k->cap = cap;
	k->head = 0;
	return 0;
}

/* Under the class's lock: a fresh slab to cut never-used blocks from. */
static int refill(int c)
{
	struct size_class *k = &classes[c];
	uint32_t id;
	if (ring_reserve(k, k->blocks + blocks_per_slab(c)) != 0)
		return -1;
	spin_lock(&grow_lock);
	int err = carve_slab(c, &id);
	spin_unlock(&grow_lock);
	if (err)
		return -1;
	k->bump_id = id;
	k->bump_left = blocks_per_slab(c);
	k->blocks += blocks_per_slab(c);
	return 0;
}

static uint64_t *bit_word(uint32_t id, uint64_t *mask)
{
	*mask = 1ull << (ID_BLOCK(id) & 63);
	return &regions[ID_REGION(id)].bits[ID_SLAB(id)][ID_BLOCK(id) / 64];
}

void *hw_heap_alloc(size_t size, size_t align)
{
	if (align < 16)
		align = 16;
	if (align > 4096 || (align & (align - 1)))
		return NULL;
	int c = class_for(size, align);
	if (c < 0)
		return NULL;
	struct size_class *k = &classes[c];
	uint32_t id;
	spin_lock(&k->lock);
	/* Freed blocks wait until the class has queued HW_HEAP_REUSE_BYTES (and
	 * a slab's worth at least): until then fresh blocks are cut, and a
	 * freed block keeps its freed tag. Past that, a class's memory beyond
	 * its live blocks stays within the queue and one slab. */
	uint32_t reuse_min = HW_HEAP_REUSE_BYTES / class_size[c];
	if (reuse_min < blocks_per_slab(c))
		reuse_min = blocks_per_slab(c);
	if (k->count && (k->count >= reuse_min || (!k->bump_left && refill(c) != 0))) {
		id = k->ring[k->head];
		k->head = (k->head + 1) & (k->cap - 1);
		k->count--;
	} else if (k->bump_left || refill(c) == 0) {
		id = k->bump_id++;
		k->bump_left--;
	} else {
		spin_unlock(&k->lock);
		return NULL;
	}
	uint64_t mask, *w = bit_word(id, &mask);
	__atomic_store_n(w, *w | mask, __ATOMIC_RELAXED);
	k->in_use += class_size[c];
	k->allocs++;
	spin_unlock(&k->lock);
	return (void *)block_addr(id, class_size[c]);
}

/* The id and class of the block p points into: -1 when there is none. */
static int locate(uintptr_t p, uint32_t *id, int *cls, uintptr_t *start)
{
	p = untag(p);
	struct region *r = region_of(p);
	if (!r)
		return -1;
	size_t s = (p - r->base) >> SLAB_SHIFT;
	int c = __atomic_load_n(&r->slab_class[s], __ATOMIC_ACQUIRE) - 1;
	if (c < 0)
		return -1;
	uintptr_t off = (p - r->base) & (SLAB_BYTES - 1);
	uintptr_t b = off / class_size[c];
	if (b >= blocks_per_slab(c)) /* the slab's tail, past its last block */
		return -1;
	*id = (uint32_t)((r - regions) << 28 | s << 12 | b);
	*cls = c;
	*start = p - off + b * class_size[c];
	return 0;
}

int hw_heap_free(void *ptr)
{
	uint32_t id;
	int c;
	uintptr_t start;
	if (locate((uintptr_t)ptr, &id, &c, &start) != 0 || start != untag((uintptr_t)ptr))
		return -1;
	struct size_class *k = &classes[c];
	uint64_t mask, *w = bit_word(id, &mask);
	spin_lock(&k->lock);
	if (!(*w & mask)) {
		spin_unlock(&k->lock);
		return -1;
	}
	__atomic_store_n(w, *w & ~mask, __ATOMIC_RELAXED);
	k->ring[(k->head + k->count) & (k->cap - 1)] = id;
	k->count++;
	k->in_use -= class_size[c];
	k->frees++;
	spin_unlock(&k->lock);
	return 0;
}

int hw_heap_block_of(uintptr_t p, struct hw_heap_block *b)
{
	uint32_t id;
	int c;
	uint64_t mask;
	if (locate(p, &id, &c, &b->start) != 0)
		return -1;
	b->size = class_size[c];
	b->allocated = (__atomic_load_n(bit_word(id, &mask), __ATOMIC_RELAXED) & mask) != 0;
	return 0;
}

void hw_heap_each_allocated(void (*fn)(uintptr_t start, size_t size, void *arg), void *arg)
{
	int n = __atomic_load_n(&nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++) {
		const struct region *r = &regions[i];
		for (size_t s = 0; s < r->carved; s++) {
			int c = __atomic_load_n(&r->slab_class[s], __ATOMIC_ACQUIRE) - 1;
			if (c < 0)
				continue;
			uintptr_t slab = r->base + (s << SLAB_SHIFT);
			for (unsigned w = 0; w < BITMAP_WORDS; w++)
				for (uint64_t bits = r->bits[s][w]; bits; bits &= bits - 1) {
					unsigned b = w * 64 + (unsigned)__builtin_ctzll(bits);
					fn(slab + (uintptr_t)b * class_size[c], class_size[c], arg);
				}
		}
	}
}

int hw_heap_region(int i, uintptr_t *base, size_t *len)
{
	if (i >= __atomic_load_n(&nregions, __ATOMIC_ACQUIRE))
		return 0;
	*base = regions[i].base;
	*len = regions[i].committed;
	return 1;
}

size_t hw_heap_size(const void *p)
{
	struct hw_heap_block b;
	return hw_heap_block_of((uintptr_t)p, &b) == 0 ? b.size : 0;
}

void hw_heap_get_stats(struct hw_heap_stats *s)
{
	rt_memset(s, 0, sizeof(*s));
	s->reserved = __atomic_load_n(&stat_reserved, __ATOMIC_RELAXED);
	s->mapped = __atomic_load_n(&stat_mapped, __ATOMIC_RELAXED);
	s->slabs = __atomic_load_n(&stat_slabs, __ATOMIC_RELAXED);
	for (int c = 0; c < NCLASSES; c++) {
		const struct size_class *k = &classes[c];
		s->in_use += __atomic_load_n(&k->in_use, __ATOMIC_RELAXED);
		s->queued += (size_t)__atomic_load_n(&k->count, __ATOMIC_RELAXED) * class_size[c];
		s->allocs += __atomic_load_n(&k->allocs, __ATOMIC_RELAXED);
		s->frees += __atomic_load_n(&k->frees, __ATOMIC_RELAXED);
	}
}

void hw_heap_fork_prepare(void)
{
	for (int c = 0; c < NCLASSES; c++)
		spin_lock(&classes[c].lock);
	spin_lock(&grow_lock);
}

void hw_heap_fork_parent(void)
{
	spin_unlock(&grow_lock);
	for (int c = NCLASSES; c--;)
		spin_unlock(&classes[c].lock);
}

void hw_heap_fork_child(void)
{
	spin_reset(&grow_lock);
	for (int c = 0; c < NCLASSES; c++)
		spin_reset(&classes[c].lock);
}
