/* When to guard an allocation. The kernel opens a gate every sample_interval
 * ms from a timer; a user-space library has no timer of its own without a
 * thread, so each thread counts allocations down and only then reads the
 * clock. The count adapts: a thread that allocates fast reads the clock a
 * few times per interval, a slow one on every allocation, so the first
 * allocation after the gate opens is still the one taken.
 *
 * The kernel's first gate opens at boot, and in a process that would
 * always be its first allocation: thousands of short runs of one program
 * (shells, build steps, tests, CGI) would all check the same object. So
 * in a process's first interval the gate is an allocation drawn at random
 * from its first FIRST_WINDOW ones, counted process-wide; from the end of
 * that interval on, the kernel's clock rules. */
#include "kfence.h"

#include "../config/options.h"
#include "../platform/os.h"

/* A process that makes n <= FIRST_WINDOW allocations in its first interval
 * has one of them guarded with probability n / FIRST_WINDOW, each alike. */
#define FIRST_WINDOW 1024
/* Threads claim the window's allocations this many at a time: one clock
 * read and one atomic operation per claim, none per allocation. */
#define FIRST_CLAIM 16

__thread long kfence_countdown __attribute__((tls_model("initial-exec")));
static __thread long period __attribute__((tls_model("initial-exec")));
static __thread uint64_t last_check __attribute__((tls_model("initial-exec")));
static __thread unsigned long burst_left __attribute__((tls_model("initial-exec")));
static __thread uint64_t rng __attribute__((tls_model("initial-exec")));

static uint64_t next_gate_ns;
static int started, delay_first;
/* Allocations left until the window's guarded one (the process-wide count);
 * 0 when there is no window (any more). */
static long first_left;
/* This thread's claim ends at that allocation. */
static __thread int first_mine __attribute__((tls_model("initial-exec")));

/* A number from a fresh seed (getrandom), mixed (splitmix64's finaliser):
 * independent of kfence.process_sample's draw and of other processes. */
static uint64_t fresh_random(void)
{
	uint64_t x = os_random_seed() + 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static void open_window(void)
{
	if (delay_first || !opt.kfence_sample_interval || opt.kfence_sample_rate) {
		__atomic_store_n(&first_left, 0, __ATOMIC_RELAXED);
		return;
	}
	__atomic_store_n(&next_gate_ns, os_now_ns() + opt.kfence_sample_interval * 1000000ull,
	                 __ATOMIC_RELAXED);
	__atomic_store_n(&first_left, 1 + (long)(fresh_random() % FIRST_WINDOW), __ATOMIC_RELAXED);
}

void kfence_sample_start(int delay)
{
	delay_first = delay;
	open_window();
	__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
}

/* A child made by fork while the window is open draws again, or it and
 * its parent would guard the same allocation; its thread's random state
 * was its parent's too. */
void kfence_sample_after_fork_child(void)
{
	rng = 0;
	first_mine = 0;
	if (__atomic_load_n(&first_left, __ATOMIC_RELAXED) > 0)
		open_window();
}

/* During the first interval: -1 if the window is closed (the clock rules),
 * else whether this allocation is the one, with the countdown set to the
 * next claim (or to the one). */
static int window_sample(void)
{
	if (first_mine) {
		first_mine = 0;
		return 1;
	}
	long left = __atomic_load_n(&first_left, __ATOMIC_RELAXED);
	while (left > 0) {
		if (os_now_ns() >= __atomic_load_n(&next_gate_ns, __ATOMIC_RELAXED)) {
			/* The interval is over: the clock's gate is open. */
			__atomic_store_n(&first_left, 0, __ATOMIC_RELAXED);
			return -1;
		}
		long take = left < FIRST_CLAIM ? left : FIRST_CLAIM;
		if (!__atomic_compare_exchange_n(&first_left, &left, left - take, 0,
		                                 __ATOMIC_RELAXED, __ATOMIC_RELAXED))
			continue; /* left is the current count now */
		/* This allocation and the take - 1 after it are ours. */
		if (left > take) {
			kfence_countdown = take;
			return 0;
		}
		if (take == 1)
			return 1;
		first_mine = 1;
		kfence_countdown = take - 1;
		return 0;
	}
	return -1;
}

uint64_t kfence_random(void)
{
	if (!rng)
		rng = os_random_seed();
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

#define MAX_PERIOD (1l << 16)

int kfence_sample_slow(void)
{
	if (!kfence.base) { /* not yet started: ask again; or off */
		kfence_countdown = __atomic_load_n(&started, __ATOMIC_ACQUIRE) ? MAX_PERIOD : 1;
		return 0;
	}
	unsigned long rate = opt.kfence_sample_rate;
	if (rate) {
		/* Random gaps of mean N, so periodic allocation patterns are not
		 * always sampled at the same place. */
		int first = period == 0;
		period = 1;
		kfence_countdown = rate == 1 ? 1 : 1 + (long)(kfence_random() % (2 * rate - 1));
		return rate == 1 || !first;
	}
	if (!opt.kfence_sample_interval) {
		kfence_countdown = MAX_PERIOD;
		return 0;
	}
	if (burst_left) {
		burst_left--;
		kfence_countdown = 1;
		return 1;
	}
	if (!period)
		period = 1;
	int w = window_sample();
	if (w == 1) {
		burst_left = opt.kfence_burst;
		kfence_countdown = burst_left ? 1 : period;
		return 1;
	}
	if (w == 0)
		return 0;
	uint64_t now = os_now_ns(), interval = opt.kfence_sample_interval * 1000000ull;
	uint64_t gate = __atomic_load_n(&next_gate_ns, __ATOMIC_RELAXED);
	/* The kernel opens the gate at boot, after thousands of allocations. A
	 * program's first allocations are often the ones its tests are about:
	 * in generic mode they get KASAN's redzones and reports, and KFENCE
	 * starts one interval later. */
	if (!gate && delay_first &&
	    __atomic_compare_exchange_n(&next_gate_ns, &gate, now + interval, 0, __ATOMIC_RELAXED,
	                                __ATOMIC_RELAXED))
		gate = now + interval; /* else the CAS left the winner's gate in gate */
	if (now >= gate && __atomic_compare_exchange_n(&next_gate_ns, &gate, now + interval, 0,
	                                               __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
		burst_left = opt.kfence_burst;
		kfence_countdown = burst_left ? 1 : period;
		last_check = now;
		return 1;
	}
	uint64_t since = now - last_check;
	if (since < interval / 16 && period < MAX_PERIOD)
		period *= 2;
	else if (since > interval && period > 1)
		period /= 2;
	last_check = now;
	kfence_countdown = period;
	return 0;
}

/* A counting Bloom filter of allocation stacks, as the kernel's: once the
 * pool is filling up, stacks that already have a live object are skipped.
 * Sized as the kernel sizes it, four counters per object rounded to a
 * power of two (1,024 for the default 271 slots: one page), so that the
 * counters a run touches at random stay few pages (one for the default
 * pool, aligned); the array is the size for the largest pool. */
#define COVER_ORDER 14
static unsigned short cover[1u << COVER_ORDER] __attribute__((aligned(4096)));

static unsigned cover_order(void)
{
	unsigned n = kfence.num_objects, order = n ? 31 - (unsigned)__builtin_clz(n) + 2 : 0;
	return order && order < COVER_ORDER ? order : COVER_ORDER;
}

static unsigned cover_index(uint32_t hash, int k)
{
	unsigned order = cover_order();
	uint32_t h = k ? (hash >> order) | (hash << (32 - order)) : hash;
	return h & ((1u << order) - 1);
}

int kfence_covered(uint32_t hash)
{
	return __atomic_load_n(&cover[cover_index(hash, 0)], __ATOMIC_RELAXED) &&
	       __atomic_load_n(&cover[cover_index(hash, 1)], __ATOMIC_RELAXED);
}

void kfence_cover(uint32_t hash, int delta)
{
	for (int k = 0; k < 2; k++)
		__atomic_add_fetch(&cover[cover_index(hash, k)], (unsigned short)delta,
		                   __ATOMIC_RELAXED);
}
