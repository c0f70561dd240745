/* Allocator churn, held out from tuning: the comparison with ASan in
 * run_churn.py measures the generic allocator on it, and nothing in the
 * runtime was tuned against it.
 *
 *   churn [THREADS [OPS [SLOTS]]]
 *
 * Each of THREADS threads (default 3) keeps a live set of SLOTS pointers
 * (default 20000) and makes OPS operations (default 1500000) on random
 * slots: an empty slot gets a new object (malloc, or calloc one time in
 * eight), a full one is freed, grown or shrunk with realloc, or read and
 * written. Sizes are mixed: most between 8 and 128 bytes, some up to 2 KiB,
 * one in 256 between 4 and 24 KiB. One operation in 64 hands an object to
 * the next thread through a shared mailbox, which frees it there, as a
 * producer and a consumer do.
 *
 * The output (per-thread counts and a checksum of what each thread wrote
 * and read back in its own objects) depends only on the arguments. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAILBOX     64
#define MAX_THREADS 16

struct object {
	uint32_t size; /* bytes after the header */
	uint32_t seed;
	unsigned char data[];
};

struct worker {
	int id, nthreads;
	long ops;
	size_t slots;
	uint64_t checksum;
	unsigned long allocs, frees, reallocs, handed;
};

static void *_Atomic mailbox[MAX_THREADS][MAILBOX];

static uint64_t next_random(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static uint32_t pick_size(uint64_t r)
{
	unsigned kind = r & 255;
	r >>= 8;
	if (kind == 0)
		return 4096 + (uint32_t)(r % 20480);
	if (kind < 48)
		return 128 + (uint32_t)(r % 1920);
	return 8 + (uint32_t)(r % 121);
}

static void fill(struct object *o, uint32_t size, uint32_t seed)
{
	o->size = size;
	o->seed = seed;
	/* Every byte written, as programs write what they allocate. */
	memset(o->data, (int)(seed >> 8), size);
	for (uint32_t i = 0; i < size; i += 64)
		o->data[i] = (unsigned char)(seed + i);
	if (size)
		o->data[size - 1] = (unsigned char)seed;
}

static uint64_t check(const struct object *o)
{
	uint64_t h = o->size * 31u + o->seed;
	for (uint32_t i = 0; i < o->size; i += 64)
		h = h * 131 + o->data[i];
	if (o->size)
		h = h * 131 + o->data[o->size - 1];
	return h;
}

static struct object *make(struct worker *w, uint64_t r)
{
	uint32_t size = pick_size(r);
	struct object *o;
	if ((r >> 40) % 8 == 0)
		o = calloc(1, sizeof(*o) + size);
	else
		o = malloc(sizeof(*o) + size);
	if (!o)
		abort();
	fill(o, size, (uint32_t)(r >> 32));
	w->allocs++;
	return o;
}

/* The other threads' objects, given to this one: freed unread. */
static void take_mail(struct worker *w)
{
	for (int i = 0; i < MAILBOX; i++) {
		void *p = __atomic_exchange_n(&mailbox[w->id][i], NULL, __ATOMIC_ACQUIRE);
		if (p) {
			free(p);
			w->frees++;
		}
	}
}

static void *work(void *arg)
{
	struct worker *w = arg;
	uint64_t s = 0x9e3779b97f4a7c15ull * (uint64_t)(w->id + 1);
	struct object **live = calloc(w->slots, sizeof(*live));
	if (!live)
		abort();
	for (long n = 0; n < w->ops; n++) {
		uint64_t r = next_random(&s);
		size_t i = (size_t)(r % w->slots);
		struct object *o = live[i];
		r = next_random(&s);
		if (!o) {
			live[i] = make(w, r);
			continue;
		}
		switch (r & 63) {
		case 0: { /* to the next thread, through its mailbox */
			w->checksum += check(o);
			int to = (w->id + 1) % w->nthreads;
			void *old = __atomic_exchange_n(&mailbox[to][(r >> 8) % MAILBOX], o,
			                                __ATOMIC_ACQ_REL);
			if (old) { /* the box was full: that one is ours to free */
				free(old);
				w->frees++;
			}
			live[i] = NULL;
			w->handed++;
			break;
		}
		case 1 ... 12: { /* realloc to a new size, contents kept */
			uint32_t size = pick_size(r >> 8);
			uint32_t keep = o->size < size ? o->size : size;
			w->checksum += check(o);
			o = realloc(o, sizeof(*o) + size);
			if (!o)
				abort();
			o->size = keep;
			w->checksum += check(o);
			fill(o, size, (uint32_t)(r >> 32));
			live[i] = o;
			w->reallocs++;
			break;
		}
		case 13 ... 40: /* used */
			w->checksum += check(o);
			o->data[0] ^= 1;
			break;
		default:
			w->checksum += check(o);
			free(o);
			live[i] = NULL;
			w->frees++;
		}
		if ((n & 1023) == 0)
			take_mail(w);
	}
	for (size_t i = 0; i < w->slots; i++)
		if (live[i]) {
			w->checksum += check(live[i]);
			free(live[i]);
			w->frees++;
		}
	free(live);
	return NULL;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 3;
	long ops = argc > 2 ? atol(argv[2]) : 1500000;
	long slots = argc > 3 ? atol(argv[3]) : 20000;
	if (threads < 1 || threads > MAX_THREADS || ops < 1 || slots < 1) {
		fprintf(stderr, "usage: churn [THREADS(1-%d) [OPS [SLOTS]]]\n", MAX_THREADS);
		return 2;
	}
	struct worker w[MAX_THREADS];
	pthread_t t[MAX_THREADS];
	for (int i = 0; i < threads; i++) {
		w[i] = (struct worker){
		    .id = i, .nthreads = threads, .ops = ops, .slots = (size_t)slots};
		if (pthread_create(&t[i], NULL, work, &w[i]))
			abort();
	}
	for (int i = 0; i < threads; i++)
		pthread_join(t[i], NULL);
	unsigned long left = 0;
	for (int i = 0; i < threads; i++)
		for (int j = 0; j < MAILBOX; j++) {
			void *p = mailbox[i][j];
			if (p) {
				free(p);
				left++;
			}
		}
	for (int i = 0; i < threads; i++)
		printf("thread %d: %lu allocs %lu reallocs %lu handed checksum %016llx\n", i,
		       w[i].allocs, w[i].reallocs, w[i].handed, (unsigned long long)w[i].checksum);
	(void)left; /* how many were left in boxes depends on the interleaving */
	return 0;
}
