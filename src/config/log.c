#include "log.h"

#include <stdint.h>
#include <string.h>

#include "../base/compiler.h"

#include "../platform/os.h"

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
	log_write(safe, escape_controls(safe, sizeof(safe), line, n));
}

static log_writer_fn *writer;

void log_set_writer(log_writer_fn *fn)
{
	__atomic_store_n(&writer, fn, __ATOMIC_RELEASE);
}

/* Before report/'s sinks are set up: the program's stderr, if it has one
 * (the number may be free: nothing of ours is written to a closed fd 2). */
void log_write(const char *buf, size_t len)
{
	log_writer_fn *fn = __atomic_load_n(&writer, __ATOMIC_ACQUIRE);
	if (fn) {
		fn(buf, len);
		return;
	}
	struct os_fd_info in;
	os_fd_info(2, &in);
	size_t cut;
	if (in.kind != OS_FD_CLOSED)
		os_write_report(2, in.kind, buf, len, &cut);
}
