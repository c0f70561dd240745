/* An allocation-heavy workload for the benchmarks: each round builds a
 * symbol table the way an interpreter or a compiler front end would (a
 * chained hash table of strings, a binary search tree over the same keys,
 * a linked list of records whose text grows with realloc), walks it, and
 * tears it down in a different order from the one it was built in.
 *
 *   alloc_heavy [ROUNDS [ITEMS]]
 *
 * String sizes run from 8 to 512 bytes, most of them short. The output, a
 * count of allocator calls and a checksum, depends only on the arguments,
 * so runs can be compared. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static long calls; /* malloc, calloc, realloc and free calls */

static void *xmalloc(size_t n)
{
	void *p = malloc(n);
	if (!p)
		abort();
	calls++;
	return p;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (!p)
		abort();
	calls++;
	return p;
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n);
	if (!p)
		abort();
	calls++;
	return p;
}

static void xfree(void *p)
{
	free(p);
	calls++;
}

static uint64_t next_random(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

/* 8..512 bytes including the NUL, skewed towards short strings. */
static size_t string_size(void)
{
	uint64_t r = next_random();
	size_t limit = (size_t)8 << (r % 7); /* 8, 16, ..., 512 */
	return 8 + (size_t)((r >> 8) % (limit - 7));
}

static char *random_string(void)
{
	size_t n = string_size();
	char *s = xmalloc(n);
	for (size_t i = 0; i + 1 < n; i++)
		s[i] = (char)('a' + (next_random() >> 32) % 26);
	s[n - 1] = '\0';
	return s;
}

static uint64_t hash_string(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

struct entry {
	struct entry *next;
	char *key;
	long count;
};

struct table {
	struct entry **buckets;
	size_t nbuckets, n;
};

static void table_grow(struct table *t)
{
	size_t n = t->nbuckets ? 2 * t->nbuckets : 16;
	struct entry **b = xcalloc(n, sizeof(*b));
	for (size_t i = 0; i < t->nbuckets; i++)
		for (struct entry *e = t->buckets[i], *next; e; e = next) {
			next = e->next;
			size_t j = hash_string(e->key) & (n - 1);
			e->next = b[j];
			b[j] = e;
		}
	xfree(t->buckets);
	t->buckets = b;
	t->nbuckets = n;
}

/* Adds one to the count of key, taking a copy of it when it is new. */
static void table_add(struct table *t, const char *key)
{
	if (t->n >= t->nbuckets)
		table_grow(t);
	struct entry **b = &t->buckets[hash_string(key) & (t->nbuckets - 1)];
	for (struct entry *e = *b; e; e = e->next)
		if (!strcmp(e->key, key)) {
			e->count++;
			return;
		}
	size_t len = strlen(key) + 1;
	struct entry *e = xmalloc(sizeof(*e));
	e->key = memcpy(xmalloc(len), key, len);
	e->count = 1;
	e->next = *b;
	*b = e;
	t->n++;
}

static void table_free(struct table *t)
{
	for (size_t i = 0; i < t->nbuckets; i++)
		for (struct entry *e = t->buckets[i], *next; e; e = next) {
			next = e->next;
			xfree(e->key);
			xfree(e);
		}
	xfree(t->buckets);
	memset(t, 0, sizeof(*t));
}

struct node {
	struct node *left, *right;
	char *key;
};

static struct node *tree_insert(struct node *root, char *key)
{
	struct node **p = &root;
	while (*p)
		p = strcmp(key, (*p)->key) < 0 ? &(*p)->left : &(*p)->right;
	struct node *n = xmalloc(sizeof(*n));
	n->left = n->right = NULL;
	n->key = key;
	*p = n;
	return root;
}

/* In-order walk: a checksum over the sorted keys. */
static uint64_t tree_sum(const struct node *n, uint64_t h)
{
	for (; n; n = n->right) {
		h = tree_sum(n->left, h);
		h = (h ^ hash_string(n->key)) * 0x100000001b3ull;
	}
	return h;
}

static void tree_free(struct node *n)
{
	while (n) {
		struct node *right = n->right;
		tree_free(n->left);
		xfree(n->key);
		xfree(n);
		n = right;
	}
}

struct record {
	struct record *next;
	char *text;
	size_t len;
};

/* Appends a short piece to a record's text, as a string builder would. */
static void record_append(struct record *r, const char *piece)
{
	size_t n = strlen(piece) % 24 + 1;
	if (r->len + n + 1 > 512)
		return;
	char *t = xrealloc(r->text, r->len + n + 1);
	memcpy(t + r->len, piece, n);
	r->len += n;
	t[r->len] = '\0';
	r->text = t;
}

static uint64_t round_of(size_t items)
{
	struct table t = {0};
	struct node *tree = NULL;
	struct record *list = NULL;
	uint64_t sum = 0;
	for (size_t i = 0; i < items; i++) {
		char *s = random_string();
		table_add(&t, s);
		tree = tree_insert(tree, s);
		if (i % 4 == 0) {
			struct record *r = xcalloc(1, sizeof(*r));
			r->next = list;
			list = r;
		}
		record_append(list, s);
		/* Short-lived temporaries, as in any parser. */
		char *tmp = random_string();
		sum += strlen(tmp);
		xfree(tmp);
	}
	sum = tree_sum(tree, sum);
	for (struct record *r = list; r; r = r->next)
		sum += hash_string(r->text);
	sum += t.n;
	table_free(&t);
	while (list) {
		struct record *next = list->next;
		xfree(list->text);
		xfree(list);
		list = next;
	}
	tree_free(tree);
	return sum;
}

int main(int argc, char **argv)
{
	long rounds = argc > 1 ? atol(argv[1]) : 20;
	long items = argc > 2 ? atol(argv[2]) : 20000;
	uint64_t sum = 0;
	for (long i = 0; i < rounds; i++)
		sum = sum * 31 + round_of((size_t)items);
	printf("rounds %ld items %ld allocator calls %ld checksum %016llx\n", rounds, items, calls,
	       (unsigned long long)sum);
	return 0;
}
