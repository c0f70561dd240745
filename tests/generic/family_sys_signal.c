// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Signal actions, masks and sets (tests/generic/_family.h): sigaction's new
// and old action, sigprocmask and pthread_sigmask's new and old mask,
// sigemptyset, sigfillset, and sigaddset, sigdelset and sigismember's word,
// each on a heap, a stack and a global buffer exactly, then one byte past
// it (the structures one byte short).
// NOT: TEST FAILED
#include "_family_io.h"

#include <pthread.h>
#include <signal.h>

#define SA ((struct sigaction *)(b + over))
#define SET ((sigset_t *)(b + over))
#define IGN struct sigaction ign = {.sa_handler = SIG_IGN}; family_put(b + over, &ign, sizeof(ign))
#define EMPTY family_zero(b + over, sizeof(sigset_t))
/* The word that holds SIGUSR1, all that sigaddset and the like touch. */
#define WORD sizeof(unsigned long)

FAMILY_CASE_SIZED(sigaction_act, sizeof(struct sigaction), "Read", IGN, kasan_int_result = sigaction(SIGUSR2, SA, NULL), b + over, sizeof(struct sigaction))
FAMILY_CASE_SIZED(sigaction_old, sizeof(struct sigaction), "Write", , kasan_int_result = sigaction(SIGUSR2, NULL, SA), b + over, sizeof(struct sigaction))
FAMILY_CASE_SIZED(sigprocmask_set, sizeof(sigset_t), "Read", EMPTY, kasan_int_result = sigprocmask(SIG_BLOCK, SET, NULL), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigprocmask_old, sizeof(sigset_t), "Write", , kasan_int_result = sigprocmask(SIG_BLOCK, NULL, SET), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(pthread_sigmask_set, sizeof(sigset_t), "Read", EMPTY, kasan_int_result = pthread_sigmask(SIG_BLOCK, SET, NULL), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(pthread_sigmask_old, sizeof(sigset_t), "Write", , kasan_int_result = pthread_sigmask(SIG_BLOCK, NULL, SET), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigemptyset_set, sizeof(sigset_t), "Write", , kasan_int_result = sigemptyset(SET), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigfillset_set, sizeof(sigset_t), "Write", , kasan_int_result = sigfillset(SET), b + over, sizeof(sigset_t))
FAMILY_CASE_SIZED(sigaddset_word, WORD, "Write", , kasan_int_result = sigaddset(SET, SIGUSR1), b + over, WORD)
FAMILY_CASE_SIZED(sigdelset_word, WORD, "Write", , kasan_int_result = sigdelset(SET, SIGUSR1), b + over, WORD)
FAMILY_CASE_SIZED(sigismember_word, WORD, "Read", family_zero(b + over, WORD), kasan_int_result = sigismember(SET, SIGUSR1), b + over, WORD)

int main(void)
{
	FAMILY_RUN(sigaction_act);
	FAMILY_RUN(sigaction_old);
	FAMILY_RUN(sigprocmask_set);
	FAMILY_RUN(sigprocmask_old);
	FAMILY_RUN(pthread_sigmask_set);
	FAMILY_RUN(pthread_sigmask_old);
	FAMILY_RUN(sigemptyset_set);
	FAMILY_RUN(sigfillset_set);
	FAMILY_RUN(sigaddset_word);
	FAMILY_RUN(sigdelset_word);
	FAMILY_RUN(sigismember_word);
	return 0;
}
