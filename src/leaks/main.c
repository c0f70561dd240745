/* `ukasan leaks PID` (the ukasan-leaks helper tools/ukasan runs): kmemleak
 * on demand in a running process, from outside, as the kernel's
 * /sys/kernel/debug/kmemleak is read on demand. Every thread of the
 * process is stopped by ptrace (no signal: none of the program's is taken,
 * and its seccomp filter, which binds only its own system calls, does not
 * matter), the runtime's state is found through its exported
 * __ukasan_leak_remote (base/leak_remote.h) and read with the process
 * stopped, kmemleak's own scan (src/kmemleak/scan.c) runs over the
 * process's memory, the report is kmemleak's (its frames in the form
 * `ukasan symbolize` completes), the reported objects are marked in the
 * process so that each is reported once, and the process runs on.
 *
 * Exit status: 1 when new leaks were reported, 0 when none, 2 on an error
 * (one `ukasan:` line). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../base/leak_remote.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kmemleak/kmemleak.h"
#include "../kmemleak/scan.h"
#include "../platform/remote.h"
#include "../report/sink.h"
#include "leaks.h"

#define MAX_THREADS 16384

static struct os_thread threads[MAX_THREADS];

/* The tracer already attached (a debugger, strace), or 0. */
static long tracer_of(int pid)
{
	char path[64], line[256];
	long tracer = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	FILE *f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "TracerPid: %ld", &tracer) == 1)
			break;
	if (f)
		fclose(f);
	return tracer;
}

static void why_not_permitted(int pid)
{
	long tracer = tracer_of(pid);
	if (tracer > 0) {
		fprintf(stderr,
		        "ukasan: process %d is traced already (by process %ld): detach it first\n",
		        pid, tracer);
		return;
	}
	int scope = -1;
	FILE *f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
	if (f) {
		if (fscanf(f, "%d", &scope) != 1)
			scope = -1;
		fclose(f);
	}
	fprintf(stderr,
	        "ukasan: not permitted to trace process %d (ptrace needs the same user and, with "
	        "yama ptrace_scope %s, CAP_SYS_PTRACE: run as root or set "
	        "/proc/sys/kernel/yama/ptrace_scope to 0)\n",
	        pid,
	        scope >= 0 ? (scope == 0   ? "0"
	                      : scope == 1 ? "1"
	                      : scope == 2 ? "2"
	                                   : "3")
	                   : "1+");
}

int main(int argc, char **argv)
{
	char *end;
	long pid = argc == 2 ? strtol(argv[1], &end, 10) : 0;
	if (argc != 2 || *end || pid <= 0 || pid > 0x7fffffff) {
		fprintf(stderr, "ukasan: usage: ukasan leaks PID\n");
		return 2;
	}
	if (pid == getpid()) {
		fprintf(stderr, "ukasan: cannot check the checker itself\n");
		return 2;
	}
	sink_init();
	options_read();
	if (modules_read((int)pid) != 0) {
		if (errno == ENOENT || errno == ESRCH)
			fprintf(stderr, "ukasan: no such process: %ld\n", pid);
		else
			why_not_permitted((int)pid);
		return 2;
	}
	const char *rt_path = NULL;
	uintptr_t at = modules_symbol(LEAK_REMOTE_SYMBOL, &rt_path);
	if (!at) {
		fprintf(stderr,
		        "ukasan: process %ld does not run ukasan (no %s in its modules: start it "
		        "under the preload, ukasan run, or build it with ukasan-cc)\n",
		        pid, LEAK_REMOTE_SYMBOL);
		return 2;
	}
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long n = remote_stop((int)pid, threads, MAX_THREADS);
	if (n < 0) {
		int err = errno;
		remote_resume();
		if (err == ESRCH || err == ENOENT)
			fprintf(stderr, "ukasan: no such process: %ld\n", pid);
		else if (err == EPERM || err == EACCES)
			why_not_permitted((int)pid);
		else
			fprintf(stderr, "ukasan: cannot stop process %ld: %s\n", pid,
			        strerror(err));
		return 2;
	}
	int status = 2;
	struct leak_remote d;
	if (remote_read(&d, at, sizeof(d)) != 0) {
		fprintf(stderr, "ukasan: cannot read process %ld's memory\n", pid);
		goto out;
	}
	if (d.magic != LEAK_REMOTE_MAGIC || d.version != LEAK_REMOTE_VERSION ||
	    d.size != sizeof(d)) {
		fprintf(stderr,
		        "ukasan: process %ld runs another build of ukasan (%s: leak interface "
		        "version %u, this tool reads %u)\n",
		        pid, rt_path, d.magic == LEAK_REMOTE_MAGIC ? d.version : 0,
		        LEAK_REMOTE_VERSION);
		goto out;
	}
	track_depot(&d);
	const struct leak_heap *h = NULL;
	if (d.heaps & LEAK_REMOTE_GENERIC)
		h = generic_read(&d);
	else if (!d.tracking) {
		fprintf(stderr,
		        "ukasan: process %ld keeps no record of its allocations (run it with "
		        "kmemleak=on under the preload): nothing to scan\n",
		        pid);
		status = 0;
		goto out;
	} else
		h = track_read(&d);
	if (!h)
		goto out;
	kmemleak_add_heap(h);
	char maps[64], comm[32] = "";
	snprintf(maps, sizeof(maps), "/proc/%ld/maps", pid);
	snprintf(comm, sizeof(comm), "/proc/%ld/comm", pid);
	FILE *f = fopen(comm, "re");
	comm[0] = 0;
	if (f) {
		if (!fgets(comm, sizeof(comm), f))
			comm[0] = 0;
		comm[strcspn(comm, "\n")] = 0;
		fclose(f);
	}
	struct kmemleak_target t = {
	    .read = remote_read,
	    .fetch_stack = track_fetch_stack,
	    .print_frame = modules_print_frame,
	    .maps_path = maps,
	    .own = at,
	    .threads = threads,
	    .nthreads = n,
	    .comm = comm,
	};
	long found = kmemleak_check_remote(&t);
	status = found < 0 ? 2 : found > 0;
	if (!found)
		fprintf(stderr, "ukasan: kmemleak: no new suspected memory leaks in process %ld\n",
		        pid);
out:
	remote_resume();
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (getenv("UKASAN_LEAKS_TIMING"))
		fprintf(stderr, "ukasan: process %ld stopped for %.3f s\n", pid,
		        (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	return status;
}
