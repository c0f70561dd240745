/* Unoptimised frames (frame pointer, everything in memory). */
#include <alloca.h>
#include <stdint.h>
#include <string.h>

#include "_unwind_test.h"

void o0_plain(const char *plan, leaf_fn leaf)
{
	int x = sink;
	dispatch(plan + 1, leaf);
	sink += x;
}

void o0_alloca(const char *plan, leaf_fn leaf)
{
	size_t n = 24 + (size_t)(sink & 127);
	char *p = alloca(n);
	memset(p, 3, n);
	dispatch(plan + 1, leaf);
	sink += p[0];
}

/* Garbage in our own frame's saved rbp and return address, as a corrupted
 * stack would have: unwind_fast must come back, whatever it finds. Only it
 * runs while the frame is corrupt; then the frame is put back. */
int unwind_fast(uintptr_t *pcs, int max, int skip);

int o0_corrupt(const uintptr_t *pcs, int npcs, const uintptr_t *bps, int nbps, int rounds,
               uint64_t seed)
{
	uintptr_t *fp = __builtin_frame_address(0);
	uintptr_t saved_bp = fp[0], saved_ra = fp[1], out[64];
	int worst = 0;
	for (int i = 0; i < rounds; i++) {
		seed ^= seed << 13;
		seed ^= seed >> 7;
		seed ^= seed << 17;
		fp[1] = pcs[seed % (uint64_t)npcs] + (uintptr_t)((seed >> 20) % 64);
		fp[0] = bps[(seed >> 32) % (uint64_t)nbps];
		int n = unwind_fast(out, 64, 0);
		fp[0] = saved_bp;
		fp[1] = saved_ra;
		if (n > 64 || n < -1)
			worst = -1000;
		else if (n > worst)
			worst = n;
	}
	return worst;
}
