/* Compares unwind_fast with libgcc's _Unwind_Backtrace on stacks of many
 * shapes, and times both. Usage: unwind_test LABEL [all|checks|stress|bench]. Prints
 * "ok ..." / "not ok ... - why" lines. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <unwind.h>

#include "../../src/stack/unwind.h"
#include "_unwind_test.h"

/* stack.c runs libgcc under the runtime's fault guard (platform/signals.c,
 * not linked here): these stacks are sound, so it runs plainly. */
int signals_guarded(void (*fn)(void *arg), void *arg, uintptr_t *fault);
int signals_guarded(void (*fn)(void *arg), void *arg, uintptr_t *fault)
{
	(void)fault;
	fn(arg);
	return 0;
}

#define MAXF 160

volatile int sink;
int *volatile null_ptr;
static const char *label;

typedef void (*frame_fn)(const char *, leaf_fn);

#define DECL(p)                                                                                    \
	void p##plain(const char *, leaf_fn);                                                      \
	void p##alloca(const char *, leaf_fn);                                                     \
	void p##big(const char *, leaf_fn);                                                        \
	void p##aligned(const char *, leaf_fn);                                                    \
	void p##drap(const char *, leaf_fn);                                                       \
	void p##regs(const char *, leaf_fn);                                                       \
	void p##recurse(const char *, leaf_fn);                                                    \
	void p##raise(const char *, leaf_fn);                                                      \
	void p##fault(const char *, leaf_fn);
DECL(nofp_)
DECL(fp_)
DECL(clang_)
void o0_plain(const char *, leaf_fn);
void o0_alloca(const char *, leaf_fn);
void cxx_dtor(const char *, leaf_fn);
void cxx_try(const char *, leaf_fn);
void cxx_catch(const char *, leaf_fn);
void cxx_cleanup(const char *, leaf_fn);
static void through_qsort(const char *, leaf_fn);
static void in_thread(const char *, leaf_fn);

/* One letter per kind of frame. */
static frame_fn table[128] = {
    ['a'] = nofp_plain,    ['b'] = nofp_alloca,   ['c'] = nofp_big,   ['d'] = nofp_aligned,
    ['e'] = nofp_regs,     ['f'] = nofp_recurse,  ['g'] = o0_plain,   ['h'] = o0_alloca,
    ['i'] = cxx_dtor,      ['j'] = cxx_try,       ['k'] = cxx_catch,  ['l'] = cxx_cleanup,
    ['m'] = through_qsort, ['n'] = nofp_raise,    ['o'] = nofp_fault, ['p'] = clang_plain,
    ['q'] = clang_alloca,  ['r'] = clang_aligned, ['s'] = in_thread,  ['t'] = clang_regs,
    ['u'] = clang_big,     ['v'] = fp_plain,      ['w'] = fp_alloca,  ['x'] = fp_aligned,
    ['y'] = fp_regs,       ['z'] = clang_fault,   ['A'] = fp_recurse, ['B'] = clang_recurse,
    ['C'] = fp_raise,      ['D'] = nofp_drap,     ['E'] = fp_drap,    ['F'] = clang_drap,
};
static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEF";

void dispatch(const char *plan, leaf_fn leaf)
{
	if (!*plan) {
		leaf();
		return;
	}
	table[(unsigned char)*plan](plan, leaf);
}

__attribute__((noinline)) void touch(char *p)
{
	__asm__ volatile("" : : "r"(p) : "memory");
}

static __thread const char *sig_plan;
static __thread leaf_fn sig_leaf;
__thread sigjmp_buf *fault_env;

void arm_signal(const char *plan, leaf_fn leaf)
{
	sig_plan = plan;
	sig_leaf = leaf;
}

static void on_usr1(int sig)
{
	(void)sig;
	dispatch(sig_plan, sig_leaf);
}

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)si;
	(void)uc;
	dispatch(sig_plan, sig_leaf);
	siglongjmp(*fault_env, 1);
}

static __thread const char *qsort_plan;
static __thread leaf_fn qsort_leaf;

static int cmp(const void *a, const void *b)
{
	if (qsort_plan) {
		const char *p = qsort_plan;
		qsort_plan = NULL;
		dispatch(p, qsort_leaf);
	}
	return *(const int *)a - *(const int *)b;
}

static void through_qsort(const char *plan, leaf_fn leaf)
{
	int v[16];
	for (int i = 0; i < 16; i++)
		v[i] = (i * 7) % 16;
	qsort_plan = plan + 1;
	qsort_leaf = leaf;
	qsort(v, 16, sizeof(v[0]), cmp);
	sink += v[3];
}

/* Results of the probes, per thread (probes run in threads and handlers). */
static __thread int t_checks, t_fail;
static __thread char t_msg[1024];

struct thread_arg {
	const char *plan;
	leaf_fn leaf;
	int checks, fail;
	char msg[1024];
};

static void *thread_main(void *p)
{
	struct thread_arg *a = p;
	dispatch(a->plan, a->leaf);
	a->checks = t_checks;
	a->fail = t_fail;
	memcpy(a->msg, t_msg, sizeof(a->msg));
	return NULL;
}

static void in_thread(const char *plan, leaf_fn leaf)
{
	pthread_t t;
	struct thread_arg *ap = malloc(sizeof(*ap));
	memset(ap, 0, sizeof(*ap));
	ap->plan = plan + 1;
	ap->leaf = leaf;
	if (pthread_create(&t, NULL, thread_main, ap) == 0)
		pthread_join(t, NULL);
	t_checks += ap->checks;
	if (ap->fail && !t_fail++)
		memcpy(t_msg, ap->msg, sizeof(t_msg));
	free(ap);
}

/* libgcc's view: every frame from the caller of _Unwind_Backtrace's caller. */
struct walk {
	uintptr_t *pcs;
	int n, max;
};

static _Unwind_Reason_Code walk_cb(struct _Unwind_Context *ctx, void *arg)
{
	struct walk *w = arg;
	int before;
	uintptr_t pc = _Unwind_GetIPInfo(ctx, &before);
	if (!pc)
		return _URC_END_OF_STACK;
	w->pcs[w->n++] = pc;
	return w->n < w->max ? _URC_NO_REASON : _URC_END_OF_STACK;
}

__attribute__((noinline)) static int gcc_capture(uintptr_t *pcs, int max)
{
	struct walk w = {pcs, 0, max};
	_Unwind_Backtrace(walk_cb, &w);
	__asm__ volatile("" ::: "memory");
	return w.n;
}

static const char *sym(uintptr_t pc, char *buf, size_t len)
{
	Dl_info di;
	if (dladdr((void *)pc, &di) && di.dli_sname)
		snprintf(buf, len, "%s+%#lx", di.dli_sname,
		         (unsigned long)(pc - (uintptr_t)di.dli_saddr));
	else if (di.dli_fname)
		snprintf(buf, len, "%s+%#lx", di.dli_fname,
		         (unsigned long)(pc - (uintptr_t)di.dli_fbase));
	else
		snprintf(buf, len, "%#lx", (unsigned long)pc);
	return buf;
}

static void fail(const char *what, const uintptr_t *got, int ng, const uintptr_t *want, int nw)
{
	if (t_fail++)
		return;
	int i = 0;
	while (i < ng && i < nw && got[i] == want[i])
		i++;
	char s1[128], s2[128];
	snprintf(t_msg, sizeof(t_msg),
	         "%s: got %d frames, libgcc %d; first difference at %d: %s vs %s", what, ng, nw, i,
	         i < ng ? sym(got[i], s1, sizeof(s1)) : "end",
	         i < nw ? sym(want[i], s2, sizeof(s2)) : "end");
}

static int same(const uintptr_t *a, int na, const uintptr_t *b, int nb)
{
	return na == nb && (na <= 0 || !memcmp(a, b, (size_t)na * sizeof(*a)));
}

__attribute__((noinline)) static void probe(void)
{
	uintptr_t a[MAXF], c[MAXF], d[8], b[MAXF + 2];
	int na = unwind_fast(a, MAXF, 0);
	int nc = unwind_fast(c, MAXF, 3);
	int nd = unwind_fast(d, 5, 0);
	int nb = gcc_capture(b, MAXF + 2);
	uintptr_t *want = b + 2;
	int nw = nb - 2;
	t_checks++;
	if (nb >= MAXF + 2) {
		fail("stack too deep for the test", a, na, want, nw);
		return;
	}
	if (!same(a, na, want, nw))
		fail("skip 0", a, na, want, nw);
	else if (!same(c, nc, want + 3, nw > 3 ? nw - 3 : 0))
		fail("skip 3", c, nc, want + 3, nw - 3);
	else if (!same(d, nd, want, nw < 5 ? nw : 5))
		fail("max 5", d, nd, want, nw < 5 ? nw : 5);
}

/* Runs one plan from a fresh frame; returns 0 if every probe agreed. */
static int run_plan(const char *plan, char *why, size_t len)
{
	t_checks = t_fail = 0;
	dispatch(plan, probe);
	if (!t_checks) {
		snprintf(why, len, "plan %s: the probe did not run", plan);
		return -1;
	}
	if (t_fail) {
		snprintf(why, len, "plan %s: %s", plan, t_msg);
		return -1;
	}
	return 0;
}

static void result(int ok, const char *name, const char *why)
{
	if (ok)
		printf("ok %s: %s\n", label, name);
	else
		printf("not ok %s: %s - %s\n", label, name, why);
	fflush(stdout);
}

static uint64_t rng = 0x243f6a8885a308d3ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static void random_plan(char *p, int maxlen, int allow_thread)
{
	int len = 1 + (int)rnd((unsigned)maxlen), big = 0, threads = 0, i = 0;
	while (i < len) {
		char ch = letters[rnd(sizeof(letters) - 1)];
		if ((ch == 'c' || ch == 'u') && big++ >= 3)
			continue;
		if (ch == 's' && (!allow_thread || threads++))
			continue;
		p[i++] = ch;
	}
	p[i] = 0;
}

static void install_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGUSR1, &sa, NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO | SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
}

static const struct {
	const char *name, *plan;
} named[] = {
    {"no extra frames", ""},
    {"-O2 -fomit-frame-pointer", "aaaa"},
    {"-O2 with frame pointers", "vvvv"},
    {"-O0", "gggg"},
    {"alloca (CFA on rbp)", "bbwhq"},
    {"large frames", "cuca"},
    {"stack realignment", "dxrd"},
    {"stack realignment through r10 (CFI expressions)", "DaEFD"},
    {"all callee-saved registers", "eyte"},
    {"recursion", "fAB"},
    {"recursion 60 deep", "ffffffffffffffffffff"},
    {"clang-16 -O2", "pqrtuB"},
    {"C++ destructor frame (zPLR)", "iiaii"},
    {"C++ try block", "jaj"},
    {"C++ catch block", "kak"},
    {"C++ cleanup in a landing pad", "lal"},
    {"through glibc's qsort", "ama"},
    {"signal handler (raise)", "anaCa"},
    {"fault in a frameless leaf (SIGSEGV)", "aoa"},
    {"fault in clang code", "aza"},
    {"thread", "asa"},
    {"thread, signal and C++", "asnkola"},
};

static void test_named(void)
{
	char why[1200];
	for (size_t i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		int ok = run_plan(named[i].plan, why, sizeof(why)) == 0;
		char name[128];
		snprintf(name, sizeof(name), "same frames as libgcc: %s", named[i].name);
		result(ok, name, why);
	}
}

static void test_random(int count)
{
	char plan[64], why[1200];
	int bad = 0;
	for (int i = 0; i < count; i++) {
		random_plan(plan, 40, 1);
		if (run_plan(plan, why, sizeof(why)) && !bad++)
			result(0, "random plans", why);
	}
	if (!bad) {
		char name[64];
		snprintf(name, sizeof(name), "same frames as libgcc on %d random mixed stacks",
		         count);
		result(1, name, NULL);
	}
}

/* Cache pressure and races: many threads, many pcs, a tiny cache. */
static void *stress_main(void *arg)
{
	char plan[64], why[1200];
	long seed = (long)arg;
	uint64_t r = 0x9e3779b97f4a7c15ull * (uint64_t)(seed + 1);
	int *bad = malloc(sizeof(int));
	*bad = 0;
	for (int i = 0; i < 400; i++) {
		r ^= r << 13;
		r ^= r >> 7;
		r ^= r << 17;
		int len = 1 + (int)(r % 30), j = 0;
		while (j < len) {
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			char ch = letters[r % (sizeof(letters) - 1)];
			if (ch == 's' || ch == 'c' || ch == 'u')
				continue;
			plan[j++] = ch;
		}
		plan[j] = 0;
		if (run_plan(plan, why, sizeof(why)) && !(*bad)++)
			result(0, "concurrent unwinding", why);
	}
	return bad;
}

static void test_stress(void)
{
	enum { N = 8 };
	pthread_t t[N];
	int bad = 0;
	for (long i = 0; i < N; i++)
		pthread_create(&t[i], NULL, stress_main, (void *)i);
	for (int i = 0; i < N; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad += *(int *)r;
		free(r);
	}
	if (!bad)
		result(1,
		       "same frames as libgcc in 8 threads at once (tiny cache, constant eviction)",
		       NULL);
}

int o0_corrupt(const uintptr_t *pcs, int npcs, const uintptr_t *bps, int nbps, int rounds,
               uint64_t seed);

/* Random code addresses (any instruction of many functions, so any row of
 * their CFI) and junk as the return address; stack addresses above and
 * below ours, the stack's top and junk as rbp. */
static void test_corrupt(void)
{
	static int global;
	uintptr_t pcs[64], bps[64];
	int np = 0, nb = 0;
	void *fns[] = {(void *)malloc,
	               (void *)free,
	               (void *)qsort,
	               (void *)printf,
	               (void *)memcpy,
	               (void *)strlen,
	               (void *)pthread_create,
	               (void *)raise,
	               (void *)dispatch,
	               (void *)probe,
	               (void *)unwind_fast,
	               (void *)nofp_drap,
	               (void *)clang_drap,
	               (void *)fp_regs,
	               (void *)cxx_cleanup,
	               (void *)o0_alloca,
	               (void *)nofp_fault,
	               (void *)gcc_capture,
	               (void *)_Unwind_Backtrace,
	               (void *)on_segv};
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		for (int k = 0; k < 2; k++)
			pcs[np++] = (uintptr_t)fns[i] + (uintptr_t)(k * 37);
	uintptr_t junk[] = {0,
	                    1,
	                    4095,
	                    4096,
	                    0x7fffffffffffull,
	                    ~0ull,
	                    0x800000000000ull,
	                    (uintptr_t)&global,
	                    (uintptr_t)pcs,
	                    (uintptr_t)fns};
	for (size_t i = 0; i < sizeof(junk) / sizeof(junk[0]); i++)
		pcs[np++] = junk[i], bps[nb++] = junk[i];
	pthread_attr_t attr;
	void *addr;
	size_t size;
	pthread_getattr_np(pthread_self(), &attr);
	pthread_attr_getstack(&attr, &addr, &size);
	pthread_attr_destroy(&attr);
	uintptr_t top = (uintptr_t)addr + size, here = (uintptr_t)__builtin_frame_address(0);
	uintptr_t near[] = {top - 1, top - 4, top - 8, top - 16, top, top + 8};
	for (size_t i = 0; i < sizeof(near) / sizeof(near[0]); i++)
		bps[nb++] = near[i];
	for (int i = -16; nb < 64; i += 3)
		bps[nb++] = here + (uintptr_t)(intptr_t)(i * 200 + (i & 7));
	int worst = o0_corrupt(pcs, np, bps, nb, 300000, 0x1234567887654321ull);
	char why[1200];
	int after = run_plan("aDbkoa", why, sizeof(why));
	char msg[1300];
	snprintf(msg, sizeof(msg), "returned %d; then: %s", worst, after ? why : "fine");
	result(
	    worst >= -1 && worst <= 64 && !after,
	    "survives 300000 corrupt frames (random code addresses, junk rbp), then still agrees",
	    msg);
}

static void test_fork(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		char why[1200];
		_exit(run_plan("aikabnc", why, sizeof(why)) ? 1 : 0);
	}
	int st = 0;
	waitpid(pid, &st, 0);
	result(WIFEXITED(st) && WEXITSTATUS(st) == 0, "same frames as libgcc in a forked child",
	       "the child's stacks differ");
}

static int alt_result = -2;

static void on_alt(int sig)
{
	uintptr_t pcs[8];
	(void)sig;
	alt_result = unwind_fast(pcs, 8, 0);
}

static void test_altstack(void)
{
	stack_t ss = {.ss_sp = malloc(1 << 16), .ss_size = 1 << 16}, old;
	struct sigaction sa, prev;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alt;
	sa.sa_flags = SA_ONSTACK;
	sigaltstack(&ss, &old);
	sigaction(SIGUSR2, &sa, &prev);
	raise(SIGUSR2);
	sigaction(SIGUSR2, &prev, NULL);
	ss.ss_flags = SS_DISABLE;
	sigaltstack(&ss, NULL);
	char why[64];
	snprintf(why, sizeof(why), "returned %d", alt_result);
	result(alt_result == -1, "returns -1 (use libgcc) on an alternate signal stack", why);
}

static void test_limits(void)
{
	uintptr_t pcs[4];
	int a = unwind_fast(pcs, 0, 0), b = unwind_fast(pcs, 4, 100000);
	char why[64];
	snprintf(why, sizeof(why), "max 0: %d, skip past the end: %d", a, b);
	result(a == 0 && b == 0, "max 0 and a skip past the stack's end give 0 frames", why);
}

/* Timing. */
static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static struct {
	double fast, cold, gcc;
	int frames;
} bench_out;

/* Each figure is the best of several rounds: the machine may be busy. */
__attribute__((noinline)) static void bench_leaf(void)
{
	uintptr_t pcs[MAXF];
	enum { ROUNDS = 5, WARM = 40000, COLD = 400, GCC = 4000 };
	int n = unwind_fast(pcs, MAXF, 0);
	bench_out.frames = n + 2; /* walked: ours and the probe's too */
	double fast = 1e30, cold = 1e30, gcc = 1e30;
	for (int round = 0; round < ROUNDS; round++) {
		double t0 = now_ns();
		for (int i = 0; i < WARM; i++)
			unwind_fast(pcs, MAXF, 0);
		double t1 = now_ns(), c = 0;
		for (int i = 0; i < COLD; i++) {
			unwind_cache_flush();
			double c0 = now_ns();
			unwind_fast(pcs, MAXF, 0);
			c += now_ns() - c0;
		}
		double t2 = now_ns();
		for (int i = 0; i < GCC; i++)
			gcc_capture(pcs, MAXF);
		double t3 = now_ns();
		if ((t1 - t0) / WARM < fast)
			fast = (t1 - t0) / WARM;
		if (c / COLD < cold)
			cold = c / COLD;
		if ((t3 - t2) / GCC < gcc)
			gcc = (t3 - t2) / GCC;
	}
	bench_out.fast = fast / bench_out.frames;
	bench_out.cold = cold / bench_out.frames;
	bench_out.gcc = gcc / bench_out.frames;
}

static void test_bench(const char *plan)
{
	dispatch(plan, bench_leaf);
	char name[256], why[128];
	snprintf(name, sizeof(name),
	         "timing, %d-frame stack: unwind_fast %.1f ns/frame cached, %.1f ns/frame with an "
	         "empty cache; libgcc %.1f ns/frame (%.0f vs %.0f ns per stack)",
	         bench_out.frames, bench_out.fast, bench_out.cold, bench_out.gcc,
	         bench_out.fast * bench_out.frames, bench_out.gcc * bench_out.frames);
	snprintf(why, sizeof(why), "not faster than libgcc");
	/* Loose: only that the cache pays, even on a loaded machine. */
	result(bench_out.fast * 3 < bench_out.gcc, name, why);
}

int main(int argc, char **argv)
{
	label = argc > 1 ? argv[1] : "unwind";
	const char *mode = argc > 2 ? argv[2] : "all";
	install_handlers();
	if (!strcmp(mode, "bench")) {
		test_bench("aaaa");
		return 0;
	}
	if (!strcmp(mode, "stress")) {
		test_stress();
		return 0;
	}
	test_named();
	test_random(1500);
	test_limits();
	test_corrupt();
	test_altstack();
	test_fork();
	if (!strcmp(mode, "all")) {
		test_bench("aaaa"); /* main's 4 below: ~9 frames, as in an allocation */
		test_bench("aegbaegbaegbaegbaegbaegb");
	}
	return 0;
}
