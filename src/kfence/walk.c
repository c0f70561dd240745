/* KFENCE's pool as a leak scan sees it (base/leak_heap.h). Its objects are
 * not leak candidates yet: the scan reads them as roots, so that what a
 * sampled object points to is reached. Its pages may have been closed by
 * a report, so they are copied, not read in place. */
#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../platform/os.h"
#include "kfence.h"

static void each_root(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	static uintptr_t buf[512];
	for (unsigned i = 0; kfence.meta && i < kfence.num_objects; i++) {
		struct kfence_meta *m = &kfence.meta[i];
		if (m->state != OBJ_ALLOCATED)
			continue;
		for (size_t off = 0; off < m->size; off += sizeof(buf)) {
			size_t n = m->size - off < sizeof(buf) ? m->size - off : sizeof(buf);
			n = os_copy_readable(buf, (const void *)(m->addr + off), n);
			fn((uintptr_t)buf, (uintptr_t)buf + ALIGN_DOWN(n, 8), arg);
		}
	}
}

static const struct leak_heap kfence_heap = {
    .name = "kfence",
    .each_root = each_root,
};

const struct leak_heap *kfence_leak_heap(void)
{
	return &kfence_heap;
}
