// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A program may make part of the memory it allocated unreadable (a guard
// page inside its own page-aligned buffer). The leak check at exit reads
// every reachable object: it read the protected page and the program died
// of SIGSEGV at exit. A fault under the scan now ends the check, with one
// line, and the program's status stands.
// RUN: kfence.sample_interval=0
// STATUS: 0
// EXPECT-RE: ukasan: kmemleak: memory changed under the scan \(a fault at 0x[0-9a-f]+\); no leak check
// NOT: BUG:
// STDOUT: guarded
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static char *volatile held;

int main(void)
{
	char *p;
	if (posix_memalign((void **)&p, 4096, 3 * 4096))
		return 2;
	p[0] = 1;
	if (mprotect(p + 4096, 4096, PROT_NONE))
		return 3;
	held = p; /* reachable: the scan reads it whole */
	printf("guarded\n");
	return 0;
}
