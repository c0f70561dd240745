// MODE: generic
// RUN: kasan.stack_use_after_return=on
// Each thread has its own fake stack (12 MiB of address space), made on its
// first frame and unmapped when it ends: 5000 threads come and go, and the
// address space grows by less than 1 GiB (60 GiB if they stayed). Then a
// last one uses a returned frame: reported with its frame.
// EXPECT: BUG: KASAN: stack-use-after-return in last+0x
// EXPECT-RE: ^The buggy address belongs to stack of task \S+/\d+\n and is located at offset \d+ in frame:\n leak_local(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// COUNT: 1 BUG: KASAN:
// STDOUT: 5000 threads
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

static long vm_size_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

int main(void)
{
	int n = 0;
	long before = vm_size_kb();
	for (int i = 0; i < 5000; i++) {
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
