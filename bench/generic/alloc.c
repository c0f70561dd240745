/* Allocation-heavy workload for the generic-mode benchmarks (run_generic.py).
 *
 *   alloc [ROUNDS [DEPTH [MIN_STRING]]]
 *
 * Each round does what pointer-based C code does all day:
 *  - builds a complete binary tree of DEPTH levels whose nodes are structs
 *    of mixed sizes (16..512 bytes, most of them small), fills every node,
 *    walks it, and frees it bottom-up;
 *  - inserts random keys into an unbalanced binary search tree (nodes of
 *    mixed sizes), looks up as many keys again, and frees the tree;
 *  - builds a singly linked list of records of mixed sizes, deletes every
 *    third record, appends new ones, reverses the list, and frees it;
 *  - makes strings: random words (strlen, memcpy), joins pairs of them into
 *    new strings, files them in a chained hash table with strcmp on
 *    collisions, and frees them all.
 * One long-lived tree, built before the first round, lives until the end.
 * Strings take 4..86 bytes; MIN_STRING (default 0) makes every string
 * allocation at least that many bytes, for runs that must avoid small sizes.
 *
 * Sizes come from a fixed xorshift generator, so the output (counts of
 * allocations and frees and a checksum) depends only on the arguments. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x2545f4914f6cdd1dull;
static unsigned long n_alloc, n_free;
static uint64_t sum;
static size_t min_string;

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p) {
		fprintf(stderr, "alloc: out of memory\n");
		exit(1);
	}
	n_alloc++;
	return p;
}

static void xfree(void *p)
{
	free(p);
	n_free++;
}

/* 16..512 bytes, at least MIN: a size class 16, 32, ..., 512 picked
 * uniformly, then a size uniformly up to it, so half are under 80 bytes. */
static size_t object_size(size_t min)
{
	uint64_t r = next_random();
	size_t limit = (size_t)16 << (r % 6);
	size_t n = 16 + (size_t)((r >> 8) % (limit - 15));
	return n < min ? min : n;
}

/* --- a complete binary tree ----------------------------------------------- */

struct tnode {
	struct tnode *left, *right;
	uint32_t len; /* bytes of data */
	uint32_t key;
	unsigned char data[];
};

static struct tnode *tree_build(int depth, uint32_t key)
{
	size_t size = object_size(sizeof(struct tnode));
	struct tnode *t = xmalloc(size);
	t->len = (uint32_t)(size - sizeof(struct tnode));
	t->key = key;
	memset(t->data, (int)(key & 0xff), t->len);
	if (depth > 1) {
		t->left = tree_build(depth - 1, 2 * key);
		t->right = tree_build(depth - 1, 2 * key + 1);
	} else {
		t->left = t->right = NULL;
	}
	return t;
}

static uint64_t tree_check(const struct tnode *t)
{
	if (!t)
		return 0;
	uint64_t s = t->key + t->len;
	if (t->len)
		s += t->data[0] + t->data[t->len - 1];
	return s + tree_check(t->left) + 3 * tree_check(t->right);
}

static void tree_free(struct tnode *t)
{
	if (!t)
		return;
	tree_free(t->left);
	tree_free(t->right);
	xfree(t);
}

/* --- an unbalanced binary search tree --------------------------------------- */

struct bnode {
	struct bnode *child[2];
	uint64_t key;
	uint32_t hits, len;
	unsigned char data[];
};

static void bst_insert(struct bnode **root, uint64_t key)
{
	struct bnode **slot = root;
	while (*slot) {
		if ((*slot)->key == key) {
			(*slot)->hits++;
			return;
		}
		slot = &(*slot)->child[key > (*slot)->key];
	}
	size_t size = object_size(sizeof(struct bnode));
	struct bnode *b = xmalloc(size);
	b->child[0] = b->child[1] = NULL;
	b->key = key;
	b->hits = 1;
	b->len = (uint32_t)(size - sizeof(struct bnode));
	for (uint32_t i = 0; i < b->len; i++)
		b->data[i] = (unsigned char)(key >> (i & 7));
	*slot = b;
}

static const struct bnode *bst_find(const struct bnode *b, uint64_t key)
{
	while (b && b->key != key)
		b = b->child[key > b->key];
	return b;
}

static void bst_free(struct bnode *b)
{
	while (b) { /* recursion on one side, a loop on the other */
		bst_free(b->child[0]);
		struct bnode *right = b->child[1];
		xfree(b);
		b = right;
	}
}

/* --- a linked list ---------------------------------------------------------- */

struct item {
	struct item *next;
	uint32_t len, id;
	char text[];
};

static struct item *item_new(uint32_t id)
{
	size_t size = object_size(sizeof(struct item));
	struct item *it = xmalloc(size);
	it->next = NULL;
	it->id = id;
	it->len = (uint32_t)(size - sizeof(struct item));
	for (uint32_t i = 0; i < it->len; i++)
		it->text[i] = (char)('a' + (id + i) % 26);
	return it;
}

static void list_round(int n)
{
	struct item *head = NULL, **tail = &head;
	for (int i = 0; i < n; i++) {
		*tail = item_new((uint32_t)i);
		tail = &(*tail)->next;
	}
	/* delete every third item */
	int k = 0;
	for (struct item **p = &head; *p;) {
		if (k++ % 3 == 2) {
			struct item *dead = *p;
			*p = dead->next;
			xfree(dead);
		} else {
			p = &(*p)->next;
		}
	}
	for (tail = &head; *tail; tail = &(*tail)->next)
		;
	for (int i = 0; i < n / 3; i++) {
		*tail = item_new((uint32_t)(n + i));
		tail = &(*tail)->next;
	}
	/* reverse, then walk and free */
	struct item *rev = NULL;
	while (head) {
		struct item *next = head->next;
		head->next = rev;
		rev = head;
		head = next;
	}
	uint64_t s = 0;
	while (rev) {
		struct item *next = rev->next;
		s = s * 31 + rev->id + (rev->len ? (unsigned char)rev->text[rev->len / 2] : 0);
		xfree(rev);
		rev = next;
	}
	sum += s;
}

/* --- strings ------------------------------------------------------------- */

static char *random_word(void)
{
	size_t n = 3 + next_random() % 40; /* letters */
	char buf[64];
	for (size_t i = 0; i < n; i++)
		buf[i] = (char)('a' + next_random() % 26);
	buf[n] = '\0';
	size_t size = strlen(buf) + 1;
	char *w = xmalloc(size < min_string ? min_string : size);
	memcpy(w, buf, n + 1);
	return w;
}

struct entry {
	struct entry *next;
	char *text;
	uint32_t count;
};

#define BUCKETS 4096

static uint32_t hash_string(const char *s)
{
	uint32_t h = 2166136261u;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 16777619u;
	return h;
}

static void string_round(int words, int joins)
{
	char **w = xmalloc((size_t)words * sizeof *w);
	for (int i = 0; i < words; i++)
		w[i] = random_word();
	struct entry **table = xmalloc(BUCKETS * sizeof *table);
	memset(table, 0, BUCKETS * sizeof *table);
	for (int j = 0; j < joins; j++) {
		const char *a = w[next_random() % (uint64_t)words];
		const char *b = w[next_random() % (uint64_t)words];
		size_t la = strlen(a), lb = strlen(b);
		size_t size = la + lb + 2;
		char *s = xmalloc(size < min_string ? min_string : size);
		memcpy(s, a, la);
		s[la] = ' ';
		memcpy(s + la + 1, b, lb + 1);
		struct entry **slot = &table[hash_string(s) % BUCKETS];
		while (*slot && strcmp((*slot)->text, s))
			slot = &(*slot)->next;
		if (*slot) {
			(*slot)->count++;
			xfree(s);
		} else {
			struct entry *e = xmalloc(sizeof *e);
			e->next = NULL;
			e->text = s;
			e->count = 1;
			*slot = e;
		}
	}
	uint64_t s = 0;
	for (int i = 0; i < BUCKETS; i++) {
		for (struct entry *e = table[i], *next; e; e = next) {
			next = e->next;
			s += e->count * strlen(e->text) + (unsigned char)e->text[0];
			xfree(e->text);
			xfree(e);
		}
	}
	for (int i = 0; i < words; i++)
		xfree(w[i]);
	xfree(table);
	xfree(w);
	sum += s;
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 6;
	int depth = argc > 2 ? atoi(argv[2]) : 17;
	min_string = argc > 3 ? (size_t)atoi(argv[3]) : 0;
	if (rounds < 1 || depth < 8 || depth > 24 || min_string > 4096) {
		fprintf(stderr, "usage: alloc [ROUNDS [DEPTH [MIN_STRING]]], DEPTH 8..24\n");
		return 2;
	}
	int nodes = (1 << depth) - 1;
	struct tnode *long_lived = tree_build(depth, 1);
	for (int r = 0; r < rounds; r++) {
		struct tnode *t = tree_build(depth, (uint32_t)r + 1);
		sum += tree_check(t);
		tree_free(t);

		struct bnode *root = NULL;
		uint64_t seed = rng;
		for (int i = 0; i < nodes / 2; i++)
			bst_insert(&root, next_random() % (uint64_t)nodes);
		rng = seed; /* the same keys again: all found */
		for (int i = 0; i < nodes / 2; i++) {
			const struct bnode *b = bst_find(root, next_random() % (uint64_t)nodes);
			sum += b ? b->hits + (b->len ? b->data[b->len - 1] : 0) : 1000;
		}
		bst_free(root);

		list_round(nodes / 2);
		string_round(nodes / 16, nodes / 4);
	}
	sum += tree_check(long_lived);
	tree_free(long_lived);
	printf("%lu allocations %lu frees checksum %016llx\n", n_alloc, n_free,
	       (unsigned long long)sum);
	return n_alloc == n_free ? 0 : 1;
}
