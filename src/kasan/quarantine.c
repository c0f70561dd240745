/* Freed objects wait in a FIFO before their memory is reused, so a
 * use-after-free is caught long after the free. As the kernel's: each thread
 * fills a batch of its own without a lock; full batches join one global
 * FIFO, and the oldest batch is released when the total is over
 * kasan.quarantine_size. That one figure bounds all the quarantine holds:
 * as the kernel's leaves room for a batch per CPU, the FIFO leaves room for
 * a full batch of each thread that has one, and for what the large
 * objects' quarantine holds. */
#include <pthread.h>

#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "shared.h"

/* A batch is BATCH_LISTS lists, filled in turn. A list of chunks freed
 * long ago is a chain of cache misses, each address known only once the
 * one before is read: walked side by side, the lists keep BATCH_LISTS
 * misses in flight where one list keeps one. */
#define BATCH_LISTS 8

struct batch {
	struct chunk *head[BATCH_LISTS];
	size_t bytes;
};

#define MAX_BATCHES 4096
#define BATCH_BYTES (1ul << 20)

static struct batch fifo[MAX_BATCHES]; /* a ring of batches */
static size_t fifo_head, fifo_len, total_bytes;
static struct spinlock fifo_lock;
static long batch_holders; /* threads whose batch is not empty */

static __thread struct {
	struct batch b;
	struct chunk *tail[BATCH_LISTS];
	unsigned next_list, holds; /* the list to grow next; 1 once b holds one */
} local __attribute__((tls_model("initial-exec")));
static __thread int key_set __attribute__((tls_model("initial-exec")));
static __thread int exited __attribute__((tls_model("initial-exec")));
static pthread_key_t exit_key;
static pthread_once_t key_once = PTHREAD_ONCE_INIT;
static void (*release_chunk)(struct chunk *c);
static void (*thread_done)(int exiting);

void quarantine_init(void (*release)(struct chunk *c), void (*done)(int exiting))
{
	release_chunk = release;
	thread_done = done;
}

static void release_batch(const struct batch *b)
{
	struct chunk *at[BATCH_LISTS];
	for (int i = 0; i < BATCH_LISTS; i++)
		at[i] = b->head[i];
	for (int more = 1; more;) {
		more = 0;
		for (int i = 0; i < BATCH_LISTS; i++) {
			struct chunk *c = at[i];
			if (!c)
				continue;
			struct chunk *next = chunk_free_meta(c)->next;
			/* Cold: glibc's size field before its header, the
			 * header and the free record are read a round later. */
			if (next) {
				__builtin_prefetch((const char *)next - 8, 1);
				__builtin_prefetch((const char *)(next + 1) + 16, 1);
				more = 1;
			}
			at[i] = next;
			release_chunk(c);
		}
	}
}

static size_t batch_limit(void)
{
	size_t cap = opt.kasan_quarantine_size / 32;
	return cap < BATCH_BYTES ? cap : BATCH_BYTES;
}

/* The calling thread's batch joins the FIFO, and room is left for the
 * other threads' and for this thread's next, unless it ends. */
static void flush_local(void)
{
	struct batch out[8];
	int nout = 0;
	long holders = __atomic_sub_fetch(&batch_holders, 1, __ATOMIC_RELAXED) + !exited;
	size_t reserve =
	    (size_t)(holders > 0 ? holders : 0) * batch_limit() + large_quarantine_bytes();
	size_t limit =
	    opt.kasan_quarantine_size > reserve ? opt.kasan_quarantine_size - reserve : 0;
	spin_lock(&fifo_lock);
	if (fifo_len == MAX_BATCHES) { /* ring full: the oldest goes now */
		out[nout++] = fifo[fifo_head];
		total_bytes -= fifo[fifo_head].bytes;
		fifo_head = (fifo_head + 1) % MAX_BATCHES;
		fifo_len--;
	}
	fifo[(fifo_head + fifo_len) % MAX_BATCHES] = local.b;
	fifo_len++;
	total_bytes += local.b.bytes;
	while (total_bytes > limit && fifo_len && nout < 8) {
		out[nout++] = fifo[fifo_head];
		total_bytes -= fifo[fifo_head].bytes;
		fifo_head = (fifo_head + 1) % MAX_BATCHES;
		fifo_len--;
	}
	spin_unlock(&fifo_lock);
	rt_memset(&local, 0, sizeof local);
	for (int i = 0; i < nout; i++)
		release_batch(&out[i]);
}

/* A thread's last batch joins the global FIFO when the thread exits; the
 * frees of destructors that run after this one, each at once. */
static void on_thread_exit(void *arg)
{
	(void)arg;
	exited = 1;
	if (local.holds)
		flush_local();
	if (thread_done)
		thread_done(1);
}

static void make_key(void)
{
	pthread_key_create(&exit_key, on_thread_exit);
}

void quarantine_put(struct chunk *c, size_t bytes)
{
	if (!key_set) {
		key_set = 1;
		pthread_once(&key_once, make_key);
		pthread_setspecific(exit_key, (void *)1);
	}
	if (opt.kasan_quarantine_size == 0) {
		release_chunk(c);
		return;
	}
	unsigned i = local.next_list;
	local.next_list = (i + 1) % BATCH_LISTS;
	if (!local.holds) {
		local.holds = 1;
		__atomic_add_fetch(&batch_holders, 1, __ATOMIC_RELAXED);
	}
	if (local.tail[i])
		chunk_free_meta(local.tail[i])->next = c;
	else
		local.b.head[i] = c;
	local.tail[i] = c;
	local.b.bytes += bytes;
	if (local.b.bytes >= batch_limit() || exited)
		flush_local();
}

void quarantine_fork_prepare(void)
{
	spin_lock(&fifo_lock);
}

void quarantine_fork_parent(void)
{
	spin_unlock(&fifo_lock);
}

void quarantine_fork_child(void)
{
	spin_reset(&fifo_lock);
	batch_holders = local.holds; /* the other threads' are gone */
}

void quarantine_drain(void)
{
	if (local.holds)
		flush_local();
	for (;;) {
		struct batch b;
		spin_lock(&fifo_lock);
		if (!fifo_len) {
			spin_unlock(&fifo_lock);
			break;
		}
		b = fifo[fifo_head];
		total_bytes -= b.bytes;
		fifo_head = (fifo_head + 1) % MAX_BATCHES;
		fifo_len--;
		spin_unlock(&fifo_lock);
		release_batch(&b);
	}
	if (thread_done)
		thread_done(0);
}
