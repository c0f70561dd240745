/* Signal sets, masks, actions and waits: the sigset_t, struct sigaction,
 * siginfo_t and stack_t they read and fill, whole (glibc's types; glibc
 * copies whole sets), except that sigaddset, sigdelset and sigismember
 * touch only the word that holds the signal. Checked before the call
 * (io.h); a bad one fails it with EFAULT (those that answer an error
 * number answer EFAULT). */
#define _GNU_SOURCE
#include <signal.h>

#include "io.h"

#define SET sizeof(sigset_t)

/* The word of a signal set that holds sig, as glibc finds it; none for a
 * signal glibc refuses (EINVAL). */
#define WORD_BITS (8 * sizeof(unsigned long))
#define CHECK_WORD(set, sig, write)                                                                \
	((sig) <= 0 || (sig) >= NSIG ||                                                            \
	 __ukasan_check_range((uintptr_t)((const unsigned long *)(set) + ((sig)-1) / WORD_BITS),   \
	                      sizeof(unsigned long), write, RET_IP))

// clang-format off
CHECKED(int, sigaction, (int sig, const struct sigaction *act, struct sigaction *old),
	(sig, act, old), CHECK_READ_OPT(act, sizeof(*act)) && CHECK_WRITE_OPT(old, sizeof(*old)), -1)
/* libukasan.so masks signals around its own work. */
CHECKED(int, sigprocmask, (int how, const sigset_t *set, sigset_t *old), (how, set, old),
	FROM_RUNTIME || (CHECK_READ_OPT(set, SET) && CHECK_WRITE_OPT(old, SET)), -1)
CHECKED(int, pthread_sigmask, (int how, const sigset_t *set, sigset_t *old), (how, set, old),
	FROM_RUNTIME || (CHECK_READ_OPT(set, SET) && CHECK_WRITE_OPT(old, SET)), EFAULT)
CHECKED(int, sigemptyset, (sigset_t *set), (set), FROM_RUNTIME || CHECK_WRITE(set, SET), -1)
CHECKED(int, sigfillset, (sigset_t *set), (set), CHECK_WRITE(set, SET), -1)
CHECKED(int, sigaddset, (sigset_t *set, int sig), (set, sig),
	FROM_RUNTIME || CHECK_WORD(set, sig, 1), -1)
CHECKED(int, sigdelset, (sigset_t *set, int sig), (set, sig),
	FROM_RUNTIME || CHECK_WORD(set, sig, 1), -1)
CHECKED(int, sigismember, (const sigset_t *set, int sig), (set, sig), CHECK_WORD(set, sig, 0), -1)
CHECKED(int, sigandset, (sigset_t *set, const sigset_t *l, const sigset_t *r), (set, l, r),
	CHECK_READ(l, SET) && CHECK_READ(r, SET) && CHECK_WRITE(set, SET), -1)
CHECKED(int, sigorset, (sigset_t *set, const sigset_t *l, const sigset_t *r), (set, l, r),
	CHECK_READ(l, SET) && CHECK_READ(r, SET) && CHECK_WRITE(set, SET), -1)
CHECKED(int, sigpending, (sigset_t *set), (set), CHECK_WRITE(set, SET), -1)
CHECKED(int, sigsuspend, (const sigset_t *set), (set), CHECK_READ(set, SET), -1)
CHECKED(int, sigwait, (const sigset_t *set, int *sig), (set, sig),
	CHECK_READ(set, SET) && CHECK_WRITE(sig, sizeof(*sig)), EFAULT)
CHECKED(int, sigwaitinfo, (const sigset_t *set, siginfo_t *info), (set, info),
	CHECK_READ(set, SET) && CHECK_WRITE_OPT(info, sizeof(*info)), -1)
CHECKED(int, sigtimedwait,
	(const sigset_t *set, siginfo_t *info, const struct timespec *timeout), (set, info, timeout),
	CHECK_READ(set, SET) && CHECK_WRITE_OPT(info, sizeof(*info)) &&
	CHECK_READ_OPT(timeout, sizeof(*timeout)), -1)
CHECKED(int, sigaltstack, (const stack_t *ss, stack_t *old), (ss, old),
	CHECK_READ_OPT(ss, sizeof(*ss)) && CHECK_WRITE_OPT(old, sizeof(*old)), -1)
// clang-format on
