// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Signal sets combined, pending and waited for (tests/generic/_family.h):
// sigandset, sigorset, sigpending, sigsuspend's mask, sigwait's set and
// signal, sigwaitinfo's siginfo_t, sigtimedwait's timeout, sigaltstack's
// new and old stack, each on a heap, a stack and a global buffer exactly,
// then one byte past it (the structures one byte short). The signals
// waited for are pending already.
// NOT: TEST FAILED
#define _GNU_SOURCE
#include "_family_io.h"

#include <signal.h>

#define SET ((sigset_t *)(b + over))
#define EMPTY family_zero(b + over, sizeof(sigset_t))
/* SIGUSR1 blocked and pending: waited for, it comes at once. */
#define PENDING sigset_t s; sigemptyset(&s); sigaddset(&s, SIGUSR1); sigprocmask(SIG_BLOCK, &s, NULL); raise(SIGUSR1)
/* ... or caught, once sigsuspend's mask lets it in. */
#define CAUGHT signal(SIGUSR1, caught); PENDING; EMPTY
#define STACK stack_t st = {.ss_flags = SS_DISABLE}; family_put(b + over, &st, sizeof(st))

static void caught(int sig)
{
	(void)sig;
}

FAMILY_CASE_SIZED(sigandset_set, sizeof(sigset_t), "Write", sigset_t s; sigfillset(&s), kasan_int_result = sigandset(SET, &s, &s), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigorset_set, sizeof(sigset_t), "Write", sigset_t s; sigfillset(&s), kasan_int_result = sigorset(SET, &s, &s), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigpending_set, sizeof(sigset_t), "Write", , kasan_int_result = sigpending(SET), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigsuspend_mask, sizeof(sigset_t), "Read", CAUGHT, kasan_int_result = sigsuspend(SET), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigwait_set, sizeof(sigset_t), "Read", PENDING; int sig; family_put(b + over, &s, sizeof(s)), kasan_int_result = sigwait(SET, &sig), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigwait_sig, sizeof(int), "Write", PENDING, kasan_int_result = sigwait(&s, (int *)(b + over)), b + over, sizeof(int))
FAMILY_CASE_SIZED(sigwaitinfo_info, sizeof(siginfo_t), "Write", PENDING, kasan_int_result = sigwaitinfo(&s, (siginfo_t *)(b + over)), b + over, sizeof(siginfo_t))
FAMILY_CASE_SIZED(sigtimedwait_timeout, sizeof(struct timespec), "Read", sigset_t s; sigemptyset(&s); family_zero(b + over, sizeof(struct timespec)), kasan_int_result = sigtimedwait(&s, NULL, (struct timespec *)(b + over)), b + over, sizeof(struct timespec))
FAMILY_CASE_SIZED(sigaltstack_ss, sizeof(stack_t), "Read", STACK, kasan_int_result = sigaltstack((stack_t *)(b + over), NULL), b + over, sizeof(stack_t))
FAMILY_CASE_SIZED(sigaltstack_old, sizeof(stack_t), "Write", , kasan_int_result = sigaltstack(NULL, (stack_t *)(b + over)), b + over, sizeof(stack_t))

int main(void)
{
	FAMILY_RUN(sigandset_set);
	FAMILY_RUN(sigorset_set);
	FAMILY_RUN(sigpending_set);
	FAMILY_RUN(sigsuspend_mask);
	FAMILY_RUN(sigwait_set);
	FAMILY_RUN(sigwait_sig);
	FAMILY_RUN(sigwaitinfo_info);
	FAMILY_RUN(sigtimedwait_timeout);
	FAMILY_RUN(sigaltstack_ss);
	FAMILY_RUN(sigaltstack_old);
	return 0;
}
