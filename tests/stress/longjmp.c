// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=32
// REPEAT: 20
// STDOUT: longjmp: 180 jumps over 200 frames, every object intact
// NOT: BUG: KFENCE
// NOT: ukasan:
#include "_stress.h"

#include <pthread.h>
#include <setjmp.h>

/* longjmp out of deep call chains that allocated on the way down, in
 * several threads: the frames the allocation stacks were taken from are
 * gone, and the next allocations are made from a stack whose deeper part
 * holds stale frames. Every object, linked from the frames before the
 * jump, is checked and freed afterwards; allocations go on right after
 * each jump, from shallower and deeper frames than before. */
#define THREADS 3
#define JUMPS   60
#define DEPTH   200

struct node {
	struct node *next;
	size_t n;
	unsigned tag;
	char data[];
};

struct chain {
	jmp_buf env;
	struct node *head;
	unsigned seed;
	int bottom;
};

static __attribute__((noinline)) void down(struct chain *c, int depth)
{
	size_t n = 1 + next_rand(&c->seed) % 400;
	struct node *x = malloc(sizeof(*x) + n);
	CHECK(x);
	x->n = n;
	x->tag = next_rand(&c->seed);
	fill(x->data, n, x->tag);
	x->next = c->head;
	c->head = x;
	char frame[64];
	fill(frame, sizeof(frame), (unsigned)depth); /* a frame with contents */
	if (depth == c->bottom) {
		/* A guarded free here too: its stack dies with the jump. */
		void *p = malloc(32);
		free(p);
		longjmp(c->env, 1);
	}
	down(c, depth + 1);
	CHECK(intact(frame, sizeof(frame), (unsigned)depth));
}

static void *worker(void *arg)
{
	struct chain c = {.seed = (unsigned)(uintptr_t)arg * 2654435761u | 1};
	for (int j = 0; j < JUMPS; j++) {
		c.head = NULL;
		c.bottom = 1 + (int)(next_rand(&c.seed) % DEPTH);
		if (setjmp(c.env) == 0) {
			down(&c, 0);
			CHECK(!"not reached");
		}
		int count = 0;
		while (c.head) {
			struct node *x = c.head;
			c.head = x->next;
			CHECK(intact(x->data, x->n, x->tag));
			free(x);
			count++;
		}
		CHECK(count == c.bottom + 1);
		churn(&c.seed, 5);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		CHECK(pthread_create(&t[i], NULL, worker, (void *)(i + 1)) == 0);
	for (int i = 0; i < THREADS; i++)
		CHECK(pthread_join(t[i], NULL) == 0);
	printf("longjmp: %d jumps over %d frames, every object intact\n", THREADS * JUMPS, DEPTH);
	return 0;
}
