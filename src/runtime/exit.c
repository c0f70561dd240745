/* How a run that printed reports ends: with a non-zero status when KASAN is
 * on (ukasan.exitcode), so that a test runner sees the failure, and with one
 * summary line counting the reports. The program runs on after a report,
 * as under the kernel's KASAN; only its status changes, and only from 0:
 * a status the program chose itself is kept. */
#include <stdio.h>
#include <stdlib.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kasan/kasan.h"
#include "../platform/os.h"
#include "../report/report.h"
#include "../report/sink.h"
#include "init.h"
#include "leak_track.h"

static int status_known, exit_status, finished, destructed;
/* The process whose reports are counted here: a child of vfork (or of a
 * raw clone) shares this memory with its parent, and must neither take the
 * parent's count nor mark the parent's run finished. */
static int owner_pid;

static void finish(void);

/* exit() hands its status to on_exit's functions, and return from main
 * goes through exit(). Registered from the library's constructor, which
 * the dynamic linker runs before libc registers its own clean-up: so this
 * runs last of all, after every destructor, and finishes the run when the
 * library's destructor has been. */
static void note_status(int status, void *arg)
{
	(void)arg;
	exit_status = status;
	status_known = 1;
	if (destructed)
		finish();
}

/* From the library's constructor, not from ukasan_init: on_exit takes
 * libc's exit lock and may call calloc, which can be where init runs. */
void exit_status_init(void)
{
	owner_pid = os_pid();
	on_exit(note_status, NULL);
}

/* The status the run ends with, given the program's; prints the summary. */
static int verdict(int status)
{
	if (__atomic_exchange_n(&finished, 1, __ATOMIC_ACQ_REL) || !ukasan_ready())
		return status;
	unsigned long n = reports_here(), more = reports_held_back_here(),
	              nested = reports_not_printed_here();
	if (!n && !nested)
		return status;
	/* kmemleak set on under the preload is a test run, as LSan's: its
	 * reports fail it, as KASAN's do. */
	int code = (int)report_exit_code(kasan_enabled || leak_track_on);
	/* The kernel keeps the low 8 bits: main's return 256 is a 0 too. */
	int change = (status & 0xff) == 0 && code != 0;
	if (!opt.print_summary)
		return change ? code : status;
	/* Not "= {0}": a call to memset, the program's checked one in a tags
	 * build, which sees stale tags on this stack. */
	char tail[400];
	tail[0] = 0;
	size_t t = 0;
	if (more)
		t += fmt_buf(tail, sizeof(tail),
		             "; %lu more bad access%s not reported (kasan_multi_shot reports each)",
		             more, more == 1 ? "" : "es");
	if (nested)
		t += fmt_buf(tail + t, sizeof(tail) - t,
		             "; %lu more not reported (made while another report was in progress on "
		             "the same thread)",
		             nested);
	unsigned long dropped = sink_reports_dropped();
	if (dropped)
		t += fmt_buf(tail + t, sizeof(tail) - t,
		             "; %lu dropped: the log socket's reader was not reading", dropped);
	unsigned long cut_bytes, cut = sink_reports_cut(&cut_bytes);
	if (cut_bytes)
		fmt_buf(tail + t, sizeof(tail) - t,
		        "; %lu cut short, %lu bytes left out: the program's file size limit "
		        "(RLIMIT_FSIZE)",
		        cut, cut_bytes);
	if (change)
		log_printf(
		    "ukasan: %lu report%s in this run (pid %d)%s; exit status %d instead of 0 "
		    "(ukasan.exitcode)\n",
		    n, n == 1 ? "" : "s", os_pid(), tail, code);
	else
		log_printf("ukasan: %lu report%s in this run (pid %d)%s\n", n, n == 1 ? "" : "s",
		           os_pid(), tail);
	return change ? code : status;
}

/* Only libc's own clean-up would follow: stdio's is done here. The leak
 * check comes first: every destructor has run, other threads still exist,
 * and its reports decide the status as any other's. */
static void finish(void)
{
	lsan_check_at_exit();
	int status = verdict(exit_status);
	if (status != exit_status) {
		fflush(NULL);
		os_exit(status);
	}
}

/* The library's destructor: the executable's destructors and the
 * program's atexit functions have run, and reports from them are counted.
 * Without the status yet, the end waits for note_status. */
void exit_status_finish(void)
{
	if (status_known)
		finish();
	else
		destructed = 1;
}

__attribute__((noreturn)) static void exit_now(int status)
{
	if (os_pid() != __atomic_load_n(&owner_pid, __ATOMIC_RELAXED))
		os_exit(status);
	os_exit(verdict(status));
}

UKASAN_EXPORT void _exit(int status)
{
	exit_now(status);
}

UKASAN_EXPORT void _Exit(int status)
{
	exit_now(status);
}

void exit_status_after_fork(void)
{
	owner_pid = os_pid();
	status_known = 0;
	finished = 0;
	destructed = 0;
	reports_after_fork();
}
