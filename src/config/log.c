#include "log.h"

#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "../base/compiler.h"

#include "../platform/lock.h"
#include "../platform/os.h"
#include "options.h"
#include "sink.h"

static void put(char *buf, size_t cap, size_t *n, char c)
{
	if (*n + 1 < cap)
		buf[*n] = c;
	(*n)++;
}

/* Right-aligned; fmt_vbuf pads left-aligned fields itself. */
static void put_num(char *buf, size_t cap, size_t *n, unsigned long long v, int neg, unsigned base,
                    int width, char pad)
{
	char tmp[24];
	int len = 0;
	do {
		tmp[len++] = "0123456789abcdef"[v % base];
		v /= base;
	} while (v);
	if (neg)
		tmp[len++] = '-';
	if (neg && pad == '0') { /* sign goes before zero padding */
		put(buf, cap, n, '-');
		len--;
		width--;
	}
	for (int i = len; i < width; i++)
		put(buf, cap, n, pad);
	while (len)
		put(buf, cap, n, tmp[--len]);
}

size_t fmt_vbuf(char *buf, size_t cap, const char *fmt, va_list ap)
{
	size_t n = 0;
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			put(buf, cap, &n, *f);
			continue;
		}
		f++;
		int left = 0, width = 0, lng = 0;
		char pad = ' ';
		if (*f == '-') {
			left = 1;
			f++;
		}
		if (*f == '0') {
			pad = '0';
			f++;
		}
		while (*f >= '0' && *f <= '9')
			width = width * 10 + (*f++ - '0');
		while (*f == 'l' || *f == 'z') {
			lng++;
			f++;
		}
		size_t start = n;
		switch (*f) {
		case 's': {
			const char *s = va_arg(ap, const char *);
			if (!s)
				s = "(null)";
			while (*s)
				put(buf, cap, &n, *s++);
			break;
		}
		case 'c':
			put(buf, cap, &n, (char)va_arg(ap, int));
			break;
		case 'd':
		case 'i': {
			long long v = lng ? va_arg(ap, long long) : va_arg(ap, int);
			unsigned long long u =
			    v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;
			put_num(buf, cap, &n, u, v < 0, 10, left ? 0 : width, pad);
			break;
		}
		case 'u':
		case 'x': {
			unsigned long long v =
			    lng ? va_arg(ap, unsigned long long) : va_arg(ap, unsigned);
			put_num(buf, cap, &n, v, 0, *f == 'x' ? 16 : 10, left ? 0 : width, pad);
			break;
		}
		case 'p':
			put(buf, cap, &n, '0');
			put(buf, cap, &n, 'x');
			put_num(buf, cap, &n, (uintptr_t)va_arg(ap, void *), 0, 16, 0, ' ');
			break;
		case '%':
			put(buf, cap, &n, '%');
			break;
		default:
			put(buf, cap, &n, '%');
			if (*f)
				put(buf, cap, &n, *f);
			else
				f--;
		}
		while (left && (int)(n - start) < width)
			put(buf, cap, &n, ' ');
	}
	if (cap)
		buf[n < cap ? n : cap - 1] = 0;
	return n < cap ? n : cap - 1;
}

size_t fmt_buf(char *buf, size_t cap, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vbuf(buf, cap, fmt, ap);
	va_end(ap);
	return n;
}

/* RFC 3339, UTC, to the microsecond: what log stores and databases parse. */
void fmt_time(char *buf, size_t cap, unsigned long long ns)
{
	uint64_t secs = ns / 1000000000u;
	long days = (long)(secs / 86400), rem = (long)(secs % 86400);
	/* Days since 1970 to a civil date (Howard Hinnant's algorithm). */
	long z = days + 719468, era = z / 146097;
	long doe = z - era * 146097;
	long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
	long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
	long mp = (5 * doy + 2) / 153;
	long d = doy - (153 * mp + 2) / 5 + 1, m = mp < 10 ? mp + 3 : mp - 9;
	long y = yoe + era * 400 + (m <= 2);
	fmt_buf(buf, cap, "%04ld-%02ld-%02ldT%02ld:%02ld:%02ld.%06luZ", y, m, d, rem / 3600,
	        rem / 60 % 60, rem % 60, (unsigned long)(ns % 1000000000u / 1000));
}

/* A warning is one line, and often echoes what the user gave (an option's
 * value, a path): its control characters are written as escapes, so that
 * a \r or an escape sequence in the option text cannot rewrite the line
 * or forge another ("BUG: ..." at the start of a line of its own). */
static size_t escape_controls(char *out, size_t cap, const char *in, size_t n)
{
	size_t k = 0;
	for (size_t i = 0; i < n && k + 5 < cap; i++) {
		unsigned char c = (unsigned char)in[i];
		if ((c >= 0x20 && c != 0x7f) || c == '\t' || (c == '\n' && i == n - 1)) {
			out[k++] = (char)c;
			continue;
		}
		out[k++] = '\\';
		if (c == '\n' || c == '\r') {
			out[k++] = c == '\n' ? 'n' : 'r';
			continue;
		}
		out[k++] = 'x';
		out[k++] = "0123456789abcdef"[c >> 4];
		out[k++] = "0123456789abcdef"[c & 15];
	}
	if (n && in[n - 1] == '\n' && k && out[k - 1] != '\n')
		out[k - 1] = '\n'; /* cut short: still a line */
	return k;
}

void log_printf(const char *fmt, ...)
{
	char line[512], safe[1024];
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vbuf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sink_write(safe, escape_controls(safe, sizeof(safe), line, n));
}

/* One report at a time; a nested report from the same thread (a fault in the
 * report path itself) writes straight through instead of waiting on itself. */
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
void report_fatal(void)
{
	static int dying;
	void (*cb)(void) = __atomic_load_n(&death_callback, __ATOMIC_ACQUIRE);
	if (!__atomic_exchange_n(&dying, 1, __ATOMIC_ACQ_REL) && cb)
		cb();
	if (opt.abort_on_error)
		os_die(SIGABRT);
	os_exit(opt.exitcode == EXITCODE_AUTO ? 1 : (int)opt.exitcode);
}
