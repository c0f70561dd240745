/* The report's frame (report.h): one report at a time under the report
 * lock, its text built in a buffer and written at its end, with its JSON
 * line, to the sinks (sink.c); the program's hooks; the counts; and
 * the end of a run a report stops. */
#include "report.h"

#include <signal.h>
#include <stdint.h>

#include "../base/compiler.h"

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "frames.h"
#include "sink.h"

/* One report at a time; a nested report from the same thread (a fault in the
 * report path itself) writes straight through instead of waiting on itself.
 * Not in fork_prepare's lock order (platform/lock.h): held from a report's
 * start to its end. */
static struct spinlock report_lock;
static int report_owner;
static int report_depth;
static char report_buf[32768];
static size_t report_len;

/* The current block is a bug report, counted (not statistics). */
static int block_is_bug;
/* The bug's first line, whatever its words (UBSAN's, an oops'). */
static char first_line[256];

int report_wants_text(void)
{
	return opt.report_format != REPORT_FORMAT_JSON;
}

int report_wants_json(void)
{
	return opt.report_format != REPORT_FORMAT_TEXT;
}

static void report_flush(void)
{
	/* ukasan.report_format=json: a bug's text goes to the program's
	 * callbacks only; statistics stay text. */
	if (!block_is_bug || report_wants_text())
		sink_write(report_buf, report_len);
	report_len = 0;
}

void report_hold(void)
{
	int tid = os_tid();
	if (__atomic_load_n(&report_owner, __ATOMIC_RELAXED) == tid) {
		report_depth++;
		return;
	}
	spin_lock(&report_lock);
	report_owner = tid;
	report_depth = 1;
}

void report_release(void)
{
	if (--report_depth > 0)
		return;
	report_owner = 0;
	spin_unlock(&report_lock);
}

/* ASan's error report callback gets each report's whole text: a copy is
 * kept while one is set. */
static void (*text_callback)(const char *text);
static char report_copy[65536];
static size_t copy_len;
/* The report's JSON line and newline, written at its end. */
static char json_buf[65536];
static size_t json_len;

void report_begin(void)
{
	report_hold();
	if (report_depth == 1) {
		report_len = 0;
		copy_len = 0;
		json_len = 0;
		block_is_bug = 0;
		first_line[0] = 0;
		report_frames_forget();
	}
}

static struct sink_meta meta;

void report_set_meta(const char *tool, const char *bug_type, unsigned long long signature)
{
	meta.tool = tool;
	meta.bug_type = bug_type;
	fmt_buf(meta.signature, sizeof(meta.signature), "%016llx", signature);
}

void report_json_line(const char *line, size_t len)
{
	if (len + 1 > sizeof(json_buf))
		return;
	rt_memcpy(json_buf, line, len);
	json_buf[len] = '\n';
	json_len = len + 1;
}

/* ASan's hook for the program, called as each report starts. */
extern void __asan_on_error(void) __attribute__((weak));

static int on_error_due;

void report_begin_bug_with_record(void)
{
	report_begin();
	if (report_depth == 1) {
		block_is_bug = 1;
		on_error_due = 1;
	}
}

void report_on_error(void)
{
	if (on_error_due && __asan_on_error)
		__asan_on_error();
	on_error_due = 0;
}

void report_begin_bug(void)
{
	report_begin_bug_with_record();
	report_on_error();
}

/* The bug's title line, for the program's __sanitizer_report_error_summary. */
static void (*summary_callback)(const char *summary);
static char title[256];

const char *report_title_line(void)
{
	return first_line;
}

/* Rules and the "cut here" line frame a report: not its title. */
static int frame_line(const char *line, size_t n)
{
	return n < 2 || line[0] == '\n' || (line[0] == '=' && line[1] == '=') ||
	       (line[0] == '-' && line[1] == '-');
}

void report_printf(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vbuf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (block_is_bug && !title[0] && n > 5 && line[0] == 'B' && line[1] == 'U' &&
	    line[2] == 'G' && line[3] == ':' && line[4] == ' ') {
		size_t k = 0;
		for (; k < n - 5 && k < sizeof(title) - 1 && line[5 + k] != '\n'; k++)
			title[k] = line[5 + k];
		title[k] = 0;
	}
	if (block_is_bug && !first_line[0] && !frame_line(line, n)) {
		size_t k = 0;
		for (; k < n && k < sizeof(first_line) - 1 && line[k] != '\n'; k++)
			first_line[k] = line[k];
		first_line[k] = 0;
	}
	if (report_len + n > sizeof(report_buf))
		report_flush();
	rt_memcpy(report_buf + report_len, line, n);
	report_len += n;
	if (text_callback && copy_len + n < sizeof(report_copy)) {
		rt_memcpy(report_copy + copy_len, line, n);
		copy_len += n;
	}
}

/* Counted per process for the exit status and the summary line: a child
 * made by fork starts again from zero (fork_base), while
 * ukasan_report_count() goes on from its parent's count, as documented. */
static unsigned long reports_done, reports_held_back, reports_nested, fork_base;

unsigned long reports_printed(void)
{
	return __atomic_load_n(&reports_done, __ATOMIC_RELAXED);
}

unsigned long reports_here(void)
{
	return reports_printed() - fork_base;
}

void report_held_back(void)
{
	__atomic_fetch_add(&reports_held_back, 1, __ATOMIC_RELAXED);
}

unsigned long reports_held_back_here(void)
{
	return __atomic_load_n(&reports_held_back, __ATOMIC_RELAXED);
}

int report_in_progress_here(void)
{
	return __atomic_load_n(&report_owner, __ATOMIC_RELAXED) == os_tid();
}

void report_not_printed(void)
{
	__atomic_fetch_add(&reports_nested, 1, __ATOMIC_RELAXED);
}

unsigned long reports_not_printed_here(void)
{
	return __atomic_load_n(&reports_nested, __ATOMIC_RELAXED);
}

void reports_after_fork(void)
{
	fork_base = reports_printed();
	reports_held_back = 0;
	reports_nested = 0;
}

void report_end(void)
{
	if (report_depth == 1) {
		/* The text and the JSON line as one message where the sink takes
		 * messages (syslog, journald), with the report's fields. */
		int text = !block_is_bug || report_wants_text();
		sink_report(text ? report_buf : NULL, text ? report_len : 0, json_buf, json_len,
		            block_is_bug ? &meta : NULL);
		report_len = 0;
		json_len = 0;
		meta.tool = meta.bug_type = NULL;
		meta.signature[0] = 0;
		if (block_is_bug)
			__atomic_fetch_add(&reports_done, 1, __ATOMIC_RELAXED);
		void (*cb)(const char *) = __atomic_load_n(&text_callback, __ATOMIC_ACQUIRE);
		if (block_is_bug && cb) {
			report_copy[copy_len] = 0;
			cb(report_copy);
		}
		void (*sum)(const char *) = __atomic_load_n(&summary_callback, __ATOMIC_ACQUIRE);
		if (block_is_bug && sum && title[0]) {
			char line[300];
			fmt_buf(line, sizeof(line), "SUMMARY: ukasan: %s", title);
			sum(line);
		}
		title[0] = 0;
	}
	report_release();
}

void report_set_summary_callback(void (*cb)(const char *summary))
{
	__atomic_store_n(&summary_callback, cb, __ATOMIC_RELEASE);
}

void report_set_text_callback(void (*cb)(const char *text))
{
	__atomic_store_n(&text_callback, cb, __ATOMIC_RELEASE);
}

static void (*death_callback)(void);

void report_set_death_callback(void (*cb)(void))
{
	__atomic_store_n(&death_callback, cb, __ATOMIC_RELEASE);
}

unsigned long report_exit_code(int kasan_on)
{
	if (opt.exitcode == EXITCODE_AUTO)
		return kasan_on ? 1 : 0;
	return opt.exitcode;
}

/* As ASan's Die: the program's death callback once (libFuzzer saves its
 * input there), then SIGABRT, or the exit status ASan would give. A fault in
 * the callback comes back here and ends the run without it. */
void report_end_run(void)
{
	static int dying;
	void (*cb)(void) = __atomic_load_n(&death_callback, __ATOMIC_ACQUIRE);
	if (!__atomic_exchange_n(&dying, 1, __ATOMIC_ACQ_REL) && cb)
		cb();
	if (opt.abort_on_error)
		os_die(SIGABRT);
	os_exit(opt.exitcode == EXITCODE_AUTO ? 1 : (int)opt.exitcode);
}

/* Where something reads the sanitizers' lines: a tool that runs programs
 * built with AddressSanitizer sets ASAN_OPTIONS or LSAN_OPTIONS
 * (ClusterFuzz, CTest's memory check, honggfuzz, AFL++), one that runs
 * UBSan's sets UBSAN_OPTIONS, and a fuzz target's crashes are read by its
 * fuzzer (libFuzzer's DEDUP_TOKEN). Read once at start: the environment
 * the tool gave, whatever the program does to its own later. */
extern int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size) __attribute__((weak));
static int asan_reader, ubsan_reader;

void report_read_environment(void)
{
	asan_reader =
	    os_getenv("ASAN_OPTIONS") || os_getenv("LSAN_OPTIONS") || LLVMFuzzerTestOneInput;
	ubsan_reader = os_getenv("UBSAN_OPTIONS") != NULL;
}

int report_asan_wanted(int ubsan)
{
	if (opt.asan_lines != ASAN_LINES_AUTO)
		return opt.asan_lines == ASAN_LINES_ON;
	return asan_reader || (ubsan && ubsan_reader);
}
