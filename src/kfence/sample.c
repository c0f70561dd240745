/* When to guard an allocation. The kernel opens a gate every sample_interval
 * ms from a timer; a user-space library has no timer of its own without a
 * thread, so each thread counts allocations down and only then reads the
 * clock. The count adapts: a thread that allocates fast reads the clock a
 * few times per interval, a slow one on every allocation, so the first
 * allocation after the gate opens is still the one taken. */
#include "kfence.h"

#include "../config/options.h"
#include "../platform/os.h"

__thread long kfence_countdown __attribute__((tls_model("initial-exec")));
static __thread long period __attribute__((tls_model("initial-exec")));
static __thread uint64_t last_check __attribute__((tls_model("initial-exec")));
static __thread unsigned long burst_left __attribute__((tls_model("initial-exec")));
static __thread uint64_t rng __attribute__((tls_model("initial-exec")));

static uint64_t next_gate_ns;
static int started, delay_first;

void kfence_sample_start(int delay)
{
	delay_first = delay;
	__atomic_store_n(&started, 1, __ATOMIC_RELEASE);
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
 * pool is filling up, stacks that already have a live object are skipped. */
#define COVER_ORDER 14
static unsigned short cover[1u << COVER_ORDER];

static unsigned cover_index(uint32_t hash, int k)
{
	uint32_t h = k ? (hash >> COVER_ORDER) | (hash << (32 - COVER_ORDER)) : hash;
	return h & ((1u << COVER_ORDER) - 1);
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
