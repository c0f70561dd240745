// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Waiting for children (tests/generic/_family.h): wait, waitpid, wait3 and
// wait4's status and usage, waitid's siginfo_t, each on a heap, a stack and
// a global buffer exactly, then one byte past it (the structures one byte
// short). The case's process has no child: the calls fail after the check.
// NOT: TEST FAILED
#include "_family_io.h"

#include <sys/resource.h>
#include <sys/wait.h>

#define S ((int *)(b + over))
#define RU ((struct rusage *)(b + over))

FAMILY_CASE_SIZED(wait_status, sizeof(int), "Write", , kasan_int_result = wait(S), b + over, sizeof(int))
FAMILY_CASE_SIZED(waitpid_status, sizeof(int), "Write", , kasan_int_result = waitpid(-1, S, WNOHANG), b + over, sizeof(int))
FAMILY_CASE_SIZED(wait3_status, sizeof(int), "Write", , kasan_int_result = wait3(S, WNOHANG, NULL), b + over, sizeof(int))
FAMILY_CASE_SIZED(wait3_rusage, sizeof(struct rusage), "Write", , kasan_int_result = wait3(NULL, WNOHANG, RU), b + over, sizeof(struct rusage))
FAMILY_CASE_SIZED(wait4_status, sizeof(int), "Write", , kasan_int_result = wait4(-1, S, WNOHANG, NULL), b + over, sizeof(int))
FAMILY_CASE_SIZED(wait4_rusage, sizeof(struct rusage), "Write", , kasan_int_result = wait4(-1, NULL, WNOHANG, RU), b + over, sizeof(struct rusage))
FAMILY_CASE_SIZED(waitid_info, sizeof(siginfo_t), "Write", , kasan_int_result = waitid(P_ALL, 0, (siginfo_t *)(b + over), WEXITED | WNOHANG), b + over, sizeof(siginfo_t))

int main(void)
{
	FAMILY_RUN(wait_status);
	FAMILY_RUN(waitpid_status);
	FAMILY_RUN(wait3_status);
	FAMILY_RUN(wait3_rusage);
	FAMILY_RUN(wait4_status);
	FAMILY_RUN(wait4_rusage);
	FAMILY_RUN(waitid_info);
	return 0;
}
