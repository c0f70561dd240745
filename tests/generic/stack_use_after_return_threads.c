// MODE: generic
// RUN: kasan.stack_use_after_return=on
// Each thread has its own fake stack (12 MiB of address space), made on its
// first frame and, when it ends, kept for a later thread or unmapped: 1500
// threads come and go, and the address space grows by less than 1 GiB (18
// GiB if they stayed). Then a last one uses a returned frame: reported with
// its frame.
// EXPECT: BUG: KASAN: stack-use-after-return in last+0x
// EXPECT-RE: ^The buggy address belongs to stack of task \S+/\d+\n and is located at offset \d+ in frame:\n leak_local(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// COUNT: 1 BUG: KASAN:
// STDOUT: 1500 threads
// STDOUT: address space grew by less than 1 GiB
#include "kasan_test.h"

#include <pthread.h>
#include <stdio.h>

static __thread int *leaked;

__attribute__((noinline)) static void keep(int *p)
{
	leaked = p;
}

__attribute__((noinline)) static int leak_local(int n)
{
	int local[8];
	for (int i = 0; i < 8; i++)
		local[i] = n;
	keep(local);
	return local[n & 7];
}

static void *churn(void *arg)
{
	return (void *)(long)leak_local((int)(long)arg);
}

static void *last(void *arg)
{
	leak_local((int)(long)arg);
	kasan_int_result = leaked[2];
	return NULL;
}

/* The address space the program sees: the sum of its mappings, outside
 * the shadow. Not VmSize, which under qemu-user is qemu's own (1.4 GiB
 * more after 5000 threads of a plain program). Not the shadow: where it is
 * mapped on demand (arm64), qemu-user's fresh address for every mapping
 * maps shadow for each new fake stack (address space, not memory: it is
 * released). */
static long vm_size_kb(void)
{
	char line[512];
	unsigned long lo, hi, total = 0;
	const unsigned long shadow_lo = KASAN_TEST_SHADOW_OFFSET,
	                    shadow_hi = KASAN_TEST_SHADOW_OFFSET + (KASAN_TEST_VA_END >> 3);
	FILE *f = fopen("/proc/self/maps", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) == 2 && (hi <= shadow_lo || lo >= shadow_hi))
			total += hi - lo;
	if (f)
		fclose(f);
	return (long)(total >> 10);
}

int main(void)
{
	int n = 0;
	long before = vm_size_kb();
	for (int i = 0; i < 1500; i++) {
		pthread_t t;
		if (pthread_create(&t, NULL, churn, (void *)(long)i) == 0 && pthread_join(t, NULL) == 0)
			n++;
	}
	printf("%d threads\n", n);
	long grew = vm_size_kb() - before;
	printf("address space grew by %s 1 GiB (%ld KiB)\n", grew < (1l << 20) ? "less than" : "MORE than", grew);
	pthread_t t;
	pthread_create(&t, NULL, last, NULL);
	pthread_join(t, NULL);
	return 0;
}
