#include "log.h"

#include <stdint.h>
#include <string.h>

#include "../base/compiler.h"

#include "../platform/lock.h"
#include "../platform/os.h"
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

void log_printf(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vbuf(line, sizeof(line), fmt, ap);
	va_end(ap);
	sink_write(line, n);
}

/* One report at a time; a nested report from the same thread (a fault in the
 * report path itself) writes straight through instead of waiting on itself. */
static struct spinlock report_lock;
static int report_owner;
static int report_depth;
static char report_buf[32768];
static size_t report_len;

static void report_flush(void)
{
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

void report_begin(void)
{
	report_hold();
	if (report_depth == 1)
		report_len = 0;
}

void report_printf(const char *fmt, ...)
{
	char line[1024];
	va_list ap;
	va_start(ap, fmt);
	size_t n = fmt_vbuf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (report_len + n > sizeof(report_buf))
		report_flush();
	rt_memcpy(report_buf + report_len, line, n);
	report_len += n;
}

static unsigned long reports_done;

unsigned long reports_printed(void)
{
	return __atomic_load_n(&reports_done, __ATOMIC_RELAXED);
}

void report_end(void)
{
	if (report_depth == 1) {
		report_flush();
		__atomic_fetch_add(&reports_done, 1, __ATOMIC_RELAXED);
	}
	report_release();
}
