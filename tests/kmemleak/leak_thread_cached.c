// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Threads that have exited, joined: glibc keeps their stacks mapped in its
// cache, with their static TLS at the top, and the words they left there.
// Neither is a root (a dead thread's stack and TLS are gone, as in LSan):
// the object held in a dead thread's stack slot and the one held in its
// TLS are both leaks.
// RUN: kfence.sample_interval=0
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 56\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] on_stack\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_thread_cached.c:32
// EXPECT: 1 more unreferenced object from this stack (112 bytes in 2 objects)
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 40\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] in_tls\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_thread_cached.c:26
// EXPECT: ukasan: kmemleak: 4 new suspected memory leaks (192 bytes) from 2 allocation stacks
// COUNT: 2 BUG: memory leak
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

__thread void *tls_held;
void *volatile *slot_seen; /* where the stack slot was: it stays mapped */

LEAK_TEST void in_tls(void)
{
	tls_held = malloc(40);
}

LEAK_TEST void on_stack(void)
{
	void *volatile held;
	held = malloc(56);
	slot_seen = &held;
	in_tls();
}

static void *thread(void *arg)
{
	on_stack();
	return arg;
}

int main(void)
{
	/* Two in turn: the second takes the first's cached stack and leaves
	 * its own in the cache at exit. */
	for (int i = 0; i < 2; i++) {
		pthread_t t;
		pthread_create(&t, NULL, thread, NULL);
		pthread_join(t, NULL);
	}
	clear_stack();
	slot_seen = NULL;
	return 0;
}
