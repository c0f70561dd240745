/* The report service, which every detector (KASAN, KFENCE, UBSAN,
 * kmemleak, a fault) makes its reports through, in three steps:
 * report_begin_bug takes the report lock (a report nested on its thread is
 * counted, not printed: report_in_progress_here), the detector prints the
 * kernel's text (report_printf, with the shared parts of dump.h and
 * frames.h), then fills a struct report_record and ends with report_finish,
 * which writes everything else and takes the fault action. The text is
 * built in a buffer and written at once. */
#ifndef UKASAN_REPORT_REPORT_H
#define UKASAN_REPORT_REPORT_H

#include <stddef.h>
#include <stdint.h>

/* Reports are built in a buffer and written at once, so concurrent reports
 * from several processes sharing a log do not interleave mid-line.
 * report_begin starts a block of output (statistics); report_begin_bug a
 * bug report, which is counted and handed to the program's callback. */
void report_begin(void);
void report_begin_bug(void);
/* A bug report whose record the program may read from __asan_on_error
 * (ASan's __asan_get_report_*): the hook runs at report_on_error, once
 * the record is filled, instead of at the start. */
void report_begin_bug_with_record(void);
void report_on_error(void);
/* cb gets "SUMMARY: ukasan: " and each bug report's title, once it is
 * printed (the program's __sanitizer_report_error_summary). */
void report_set_summary_callback(void (*cb)(const char *summary));
void report_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void report_end(void);
/* The bug report's title: its first line of text ("BUG: KASAN: ...",
 * "UBSAN: ..."), once printed; "" before. */
const char *report_title_line(void);
/* ukasan.report_format asks for the text, for JSON lines. */
int report_wants_text(void);
int report_wants_json(void);
/* The report's JSON line (without its newline), written after its text at
 * report_end, to ukasan.json_path's file or the log. */
void report_json_line(const char *line, size_t len);
/* What a socket sink (syslog, journald) attaches to the report as fields. */
void report_set_meta(const char *tool, const char *bug_type, unsigned long long signature);
/* The report lock alone, for work on what reports share (nested as
 * report_begin is). */
void report_hold(void);
void report_release(void);
/* Bug reports finished so far in this process, counting its parent's. */
unsigned long reports_printed(void);
/* The same since this process began (not counting a parent's), and the
 * faults not reported because one had been (kasan_multi_shot off). */
unsigned long reports_here(void);
void report_held_back(void);
unsigned long reports_held_back_here(void);
/* This thread is making a report (it holds the report lock): a report
 * from a signal handler that interrupted it cannot be printed inside that
 * one, and is only counted (report_not_printed), for the summary line. */
int report_in_progress_here(void);
void report_not_printed(void);
unsigned long reports_not_printed_here(void);
void reports_after_fork(void);
/* The program's own hooks: ASan's error report callback, called with each
 * report's text, and death callback, called before a report ends the run. */
void report_set_text_callback(void (*cb)(const char *text));
void report_set_death_callback(void (*cb)(void));
/* The end of a run stopped by a report (kasan.fault=panic, ASan's
 * halt_on_error): the death callback, then SIGABRT or, with
 * ukasan.abort_on_error off, exit with ukasan.exitcode. */
void report_end_run(void) __attribute__((noreturn));
/* ukasan.exitcode, with auto decided: 1 when KASAN is on. */
unsigned long report_exit_code(int kasan_on);

/* Whether reports carry the lines of the sanitizers whose readers are
 * there (ukasan.asan_lines=auto): AddressSanitizer's "ERROR:" line and its
 * form of a stack, LeakSanitizer's "Direct leak" line, UBSan's "runtime
 * error" line (ubsan: for a UBSan report, which UBSAN_OPTIONS asks for
 * too), and DEDUP_TOKEN. On with ASAN_OPTIONS or LSAN_OPTIONS in the
 * environment, or in a fuzz target; else the kernel's text alone. */
int report_asan_wanted(int ubsan);
/* Read the environment for it, once, at start. */
void report_read_environment(void);

/* One report's record: what every detector (KASAN, KFENCE, UBSAN,
 * kmemleak, a fault) fills from its own data once its text is printed, and
 * report_finish reads. */
enum { REPORT_STACK_ACCESS, REPORT_STACK_ALLOC, REPORT_STACK_FREE, REPORT_STACKS };

/* What the run does once the report is written. */
enum report_action {
	REPORT_GO_ON, /* back to the program */
	REPORT_PANIC, /* an option asked for it (action_by names it): said, then report_end_run */
	REPORT_DIE,   /* the program cannot go on (built without recovery): report_end_run */
};

struct report_record {
	const char *tool; /* "KASAN", "KFENCE", "UBSAN", "kmemleak" */
	/* The kernel's word for the bug: the signature's, the DEDUP token's
	 * and the JSON line's. */
	const char *bug_type;
	/* AddressSanitizer's name for it ("heap-buffer-overflow"), for ASan's
	 * lines after the text; NULL: the report has none (UBSAN, kmemleak). */
	const char *asan_bug;
	/* "read", "write", "free" or "unknown"; NULL: the report is of no
	 * access (a leak, a refused request), and the fields after it unset. */
	const char *access;
	size_t size; /* 0: not known */
	uintptr_t addr;
	int write; /* ASan's access line: 1 write, 0 read, -1 none */
	/* What the address belongs to; region NULL: nothing known. */
	const char *region; /* heap, kfence, global, stack */
	const char *cache, *name;
	int has_object, has_offset;
	uintptr_t object_addr;
	size_t object_size;
	long long offset; /* of addr from the object's start */
	struct {
		const uintptr_t *pcs;
		int n, exact; /* exact: pcs[0] is a faulting pc, not a return address */
	} stacks[REPORT_STACKS];
	int tid;
	const char *comm;
	const char *detail;    /* the report's own words on the bug; NULL: none */
	unsigned long objects; /* kmemleak: objects from this stack */
	enum report_action action;
	const char *action_by; /* REPORT_PANIC's option: "kasan.fault=panic" */
};

/* AddressSanitizer's name for a bug of the kernel's bug_type word
 * ("slab-out-of-bounds": "heap-buffer-overflow"), for every detector: the
 * one table (asan_lines.c). A word ASan has no other name for is its own.
 * What the word alone cannot tell (the tag modes' "out-of-bounds", whose
 * object's kind says which; a fault) the detector decides itself. */
const char *report_asan_bug(const char *bug_type);

/* The one end of every bug report, after its text (report_begin_bug ...):
 * in this order, the DEDUP_TOKEN line (when the sanitizers' lines are
 * written: report_asan_wanted), the "signature:" line, the JSON line (when
 * ukasan.report_format asks for it), AddressSanitizer's lines for a fuzzer
 * that reads ASan's log file (when ASAN_OPTIONS named a log_path), then
 * the whole report to the sinks at once (report_end), and the fault
 * action: back to the program, or the run's end (report_end_run), said first
 * when an option asked for it. Under the report lock, as the text: no
 * allocation, no locking libc call, only descriptors of ours. Each stack's
 * frames are symbolized once for the text, the token, the JSON line and
 * ASan's lines (frames.h). */
void report_finish(const struct report_record *r);

#endif
