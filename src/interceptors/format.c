/* A reader of printf and scanf formats, as glibc parses them (positional
 * arguments %2$s and *3$, * widths and precisions, length modifiers), for
 * the memory a call reads or writes through its arguments: what
 * AddressSanitizer's printf_common and scanf_common check, and what they
 * leave unchecked: positional arguments, precisions given by *, wide
 * strings.
 *
 * The arguments are fetched as glibc fetches them: every conversion's type
 * first, then the va_list in argument order, as positional arguments
 * require. Where a format is beyond understanding (an unknown conversion,
 * %n$ mixed with plain directives, more than MAX_ARGS arguments) the
 * checks stop there: an unchecked argument is better than a false report. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <string.h>
#include <wchar.h>

#include "format.h"

/* glibc's, not the program's checking interposers (str.c, wchar.c): these
 * lengths are the ones the call itself will find. */
REAL(size_t, strlen, const char *)
REAL(size_t, strnlen, const char *, size_t)
REAL(size_t, wcslen, const wchar_t *)
REAL(size_t, wcsnlen, const wchar_t *, size_t)

#define MAX_ARGS 128

struct fmt {
	const void *p;
	int wide;
	size_t i;
};

/* One directive. Argument numbers count from 1. */
struct dir {
	int arg;       /* the value's n$, 0 when none */
	int width;     /* scanf's field width, 0 when none */
	int width_arg; /* printf's *: -1, *k$: k, 0 when none */
	int prec;      /* printf's precision, -1 when none */
	int prec_arg;  /* .*: -1, .*k$: k, 0 when none */
	char len[2];   /* length modifier: "hh", "l", "j"... */
	unsigned conv;
	char suppress; /* scanf's * */
	char alloc;    /* scanf's m, or GNU's a */
	char gnu_a;    /* scanf's %as: GNU allocation or C99 float, unknown */
};

/* The va_list's arguments, as the conversions say to fetch them. */
enum arg_class { ARG_GP, ARG_DOUBLE, ARG_LDOUBLE, ARG_NONE };

struct args {
	int n;          /* highest argument number used */
	int positional; /* -1 not known yet, 0 no, 1 yes */
	unsigned char cls[MAX_ARGS + 1];
	unsigned long val[MAX_ARGS + 1];
};

static unsigned at(const struct fmt *f)
{
	return f->wide ? (unsigned)((const wchar_t *)f->p)[f->i]
	               : ((const unsigned char *)f->p)[f->i];
}

static int one_of(unsigned c, const char *s)
{
	for (; *s; s++)
		if (c == (unsigned char)*s)
			return 1;
	return 0;
}

static int is_digit(unsigned c)
{
	return c - '0' < 10u;
}

static int number(struct fmt *f)
{
	long v = 0;
	for (; is_digit(at(f)); f->i++)
		if ((v = v * 10 + (at(f) - '0')) > INT_MAX)
			v = INT_MAX;
	return (int)v;
}

/* n$: n, or 0 (nothing consumed) when the digits are a width; -1 for 0$. */
static int param_index(struct fmt *f)
{
	size_t start = f->i;
	if (!is_digit(at(f)))
		return 0;
	int k = number(f);
	if (at(f) == '$') {
		f->i++;
		return k > 0 ? k : -1;
	}
	f->i = start;
	return 0;
}

static void length(struct fmt *f, struct dir *d)
{
	unsigned c = at(f);
	if (c == 'h' || c == 'l') {
		d->len[0] = (char)c;
		if (f->i++, at(f) == c) {
			d->len[1] = (char)c;
			f->i++;
		}
	} else if (one_of(c, "LqjzZt")) {
		d->len[0] = (char)c;
		f->i++;
	}
}

/* Past the text to the next '%' that starts a directive; 0 at the end. */
static int next_percent(struct fmt *f, struct dir *d)
{
	for (;;) {
		unsigned c = at(f);
		if (!c)
			return 0;
		f->i++;
		if (c != '%')
			continue;
		if (at(f) != '%')
			break;
		f->i++;
	}
	*d = (struct dir){.prec = -1};
	return 1;
}

static int printf_next(struct fmt *f, struct dir *d)
{
	if (!next_percent(f, d) || (d->arg = param_index(f)) < 0)
		return 0;
	while (one_of(at(f), "-+ #0'I"))
		f->i++;
	if (at(f) == '*') {
		f->i++;
		if ((d->width_arg = param_index(f)) < 0)
			return 0;
		d->width_arg = d->width_arg ? d->width_arg : -1;
	} else {
		number(f);
	}
	if (at(f) == '.') {
		f->i++;
		if (at(f) == '*') {
			f->i++;
			if ((d->prec_arg = param_index(f)) < 0)
				return 0;
			d->prec_arg = d->prec_arg ? d->prec_arg : -1;
		} else {
			d->prec = number(f); /* a lone '.' is 0 */
		}
	}
	length(f, d);
	if (!(d->conv = at(f)))
		return 0;
	f->i++;
	return 1;
}

/* How glibc fetches the value; -1 for a conversion it does not know (or
 * one registered with register_printf_function): stop there. */
static int printf_class(const struct dir *d)
{
	if (one_of(d->conv, "diouxXbBcCsSpn"))
		return ARG_GP;
	if (one_of(d->conv, "aAeEfFgG"))
		return d->len[0] == 'L' || d->len[0] == 'q' || d->len[1] == 'l' ? ARG_LDOUBLE
		                                                                : ARG_DOUBLE;
	if (d->conv == 'm') /* strerror(errno) */
		return ARG_NONE;
	return -1;
}

/* The number of the next argument a directive uses: k when the format is
 * positional, the next in order when not; 0 when it mixes both, which
 * glibc leaves undefined, or is past what is fetched. */
static int arg_number(struct args *a, int k, int *next)
{
	if (k < 0) /* a plain '*' */
		k = 0;
	if (a->positional < 0)
		a->positional = k > 0;
	if (a->positional != (k > 0))
		return 0;
	if (!k)
		k = ++*next;
	return k <= MAX_ARGS ? k : 0;
}

static int note(struct args *a, int k, int cls)
{
	if (!k)
		return 0;
	a->cls[k] = (unsigned char)cls;
	if (k > a->n)
		a->n = k;
	return 1;
}

/* The values, in argument order. A number the format skips is fetched as
 * an int, as glibc does (its fortified forms abort on it). */
static void init_args(struct args *a)
{
	a->n = 0;
	a->val[0] = 0;
	libc_memset(a->cls, ARG_GP, sizeof(a->cls));
}

static void fetch(struct args *a, va_list ap)
{
	va_list aq;
	va_copy(aq, ap);
	for (int k = 1; k <= a->n; k++) {
		switch (a->cls[k]) {
		case ARG_DOUBLE:
			(void)va_arg(aq, double);
			break;
		case ARG_LDOUBLE:
			(void)va_arg(aq, long double);
			break;
		default:
			a->val[k] = va_arg(aq, unsigned long);
		}
	}
	va_end(aq);
}

int fmt_fail(void)
{
	errno = EFAULT;
	return -1;
}

int fmt_fail_chk(size_t n, size_t dlen)
{
	if (n > dlen)
		__chk_fail();
	return fmt_fail();
}

static size_t string_length(const void *s, int wide)
{
	return wide ? get_wcslen()(s) : get_strlen()(s);
}

int fmt_check_string(const void *s, int wide, uintptr_t ip)
{
	size_t unit = wide ? sizeof(wchar_t) : 1;
	return __ukasan_check_range((uintptr_t)s, (string_length(s, wide) + 1) * unit, 0, ip);
}

/* The bytes glibc reads of a %s or %ls string. With a precision it reads
 * up to the terminator or to that many characters. A string converted to
 * the other width (%ls in printf, %s in wprintf) under a precision is read
 * as far as its multibyte characters fit: only its first character is
 * certain. */
static size_t string_read(const void *s, int wide_string, int converted, int prec)
{
	size_t unit = wide_string ? sizeof(wchar_t) : 1, n;
	if (prec < 0)
		n = string_length(s, wide_string) + 1;
	else if (converted)
		n = prec > 0;
	else if ((n = wide_string ? get_wcsnlen()(s, (size_t)prec)
	                          : get_strnlen()(s, (size_t)prec)) < (size_t)prec)
		n++;
	return n * unit;
}

/* %n's integer. */
static size_t int_size(const struct dir *d)
{
	switch (d->len[0]) {
	case 'h':
		return d->len[1] ? sizeof(char) : sizeof(short);
	case 0:
		return sizeof(int);
	default: /* l ll q L j z Z t: all 64-bit here */
		return sizeof(long long);
	}
}

/* Walks the format once to learn the arguments' types (check 0), then
 * again to check what the call will read and write through them. */
static int printf_walk(const void *fmt, int wide, struct args *a, int check, uintptr_t ip)
{
	struct fmt f = {fmt, wide, 0};
	struct dir d;
	int next = 0;
	a->positional = -1;
	while (printf_next(&f, &d)) {
		int cls = printf_class(&d), w = 0, p = 0, v = 0;
		if (cls < 0 || (d.width_arg && !(w = arg_number(a, d.width_arg, &next))) ||
		    (d.prec_arg && !(p = arg_number(a, d.prec_arg, &next))) ||
		    (cls != ARG_NONE && !(v = arg_number(a, d.arg, &next))))
			break;
		if (!check) {
			if (w)
				note(a, w, ARG_GP);
			if (p)
				note(a, p, ARG_GP);
			if (v)
				note(a, v, cls);
			continue;
		}
		void *ptr = (void *)a->val[v];
		if (d.conv == 'n') {
			/* A bad %n target is refused: glibc would write there
			 * (into a neighbour, or fault on NULL). */
			if (!__ukasan_check_range((uintptr_t)ptr, int_size(&d), 1, ip))
				return 0;
		} else if ((d.conv == 's' || d.conv == 'S') && ptr) { /* NULL prints "(null)" */
			int wide_string = d.conv == 'S' || d.len[0] == 'l';
			int prec = p ? (int)a->val[p] : d.prec; /* a negative * is none */
			size_t n = string_read(ptr, wide_string, wide_string != wide,
			                       prec < 0 ? -1 : prec);
			/* Reported, and the call goes on as ASan's does after a
			 * recovered report: string_read has just read these bytes
			 * (strlen), so glibc can too, and the program's output
			 * appears. */
			__ukasan_check_range((uintptr_t)ptr, n, 0, ip);
		}
	}
	return 1;
}

int fmt_check_printf(const void *fmt, int wide, va_list ap, uintptr_t ip)
{
	if (!fmt)
		return 1;
	/* The %m conversion prints errno: the checks must leave it. */
	int saved = errno, ok = 0;
	struct args a;
	init_args(&a);
	/* A bad format is reported and read on, as a bad %s is: its length
	 * was just found by reading it. */
	fmt_check_string(fmt, wide, ip);
	printf_walk(fmt, wide, &a, 0, ip);
	fetch(&a, ap);
	ok = printf_walk(fmt, wide, &a, 1, ip);
	errno = saved;
	return ok;
}

static int scanf_next(struct fmt *f, struct dir *d, int gnu_a)
{
	if (!next_percent(f, d) || (d->arg = param_index(f)) < 0)
		return 0;
	for (; one_of(at(f), "*'I"); f->i++)
		d->suppress |= at(f) == '*';
	d->width = number(f);
	if (at(f) == 'm') {
		d->alloc = 1;
		f->i++;
	}
	length(f, d);
	if (!(d->conv = at(f)))
		return 0;
	f->i++;
	/* GNU's %as, %aS, %a[...] (allocating) against C99's %a and a literal:
	 * glibc's non-C99 entry points read the former. */
	if (gnu_a && d->conv == 'a' && !d->len[0] && one_of(at(f), "sS[")) {
		d->gnu_a = 1;
		d->conv = at(f);
		f->i++;
	}
	if (d->conv == '[') {
		if (at(f) == '^')
			f->i++;
		if (at(f) == ']')
			f->i++;
		while (at(f) && at(f) != ']')
			f->i++;
		if (!at(f))
			return 0;
		f->i++;
	}
	return 1;
}

enum { STORES_STRING = -1, STORES_WSTRING = -2 };

/* The bytes a conversion stores through its pointer (AddressSanitizer's
 * scanf_get_value_size, with strings measured after the call); 0 for one
 * not understood. */
static long scanf_size(const struct dir *d)
{
	unsigned c = d->conv;
	if (one_of(c, "cCsS[")) {
		if (d->len[0] && (d->len[0] != 'l' || d->len[1]))
			return 0;
		if (d->alloc)
			return sizeof(char *);
		/* %as as a GNU allocation stores a pointer, as C99's %a a float:
		 * the smaller of the two is certain. */
		if (d->gnu_a)
			return sizeof(float);
		int w = c == 'C' || c == 'S' || d->len[0] == 'l';
		if (c == 'c' || c == 'C')
			return (long)(d->width ? d->width : 1) * (w ? (long)sizeof(wchar_t) : 1);
		return w ? STORES_WSTRING : STORES_STRING;
	}
	if (d->alloc)
		return 0;
	if (one_of(c, "diouxXn"))
		return (long)int_size(d);
	if (one_of(c, "aAeEfFgG")) {
		if (!d->len[0])
			return sizeof(float);
		if (d->len[0] == 'l' && !d->len[1])
			return sizeof(double);
		return one_of((unsigned char)d->len[0], "lLq") ? (long)sizeof(long double) : 0;
	}
	if (c == 'p')
		return d->len[0] ? 0 : sizeof(void *);
	return 0;
}

/* Every argument is a pointer: the walk learns how many there are (check
 * 0), then checks the objects of the first ret conversions the call
 * assigned, and the %n between them. */
static void scanf_walk(const void *fmt, int wide, int gnu_a, int ret, struct args *a, int check,
                       uintptr_t ip)
{
	struct fmt f = {fmt, wide, 0};
	struct dir d;
	int next = 0;
	a->positional = -1;
	while (scanf_next(&f, &d, gnu_a)) {
		if (d.suppress)
			continue;
		long size = scanf_size(&d);
		int k = size ? arg_number(a, d.arg, &next) : 0;
		if (!k)
			break;
		if (!check) {
			note(a, k, ARG_GP);
			continue;
		}
		if (d.conv != 'n' && ret-- == 0)
			break;
		void *p = (void *)a->val[k];
		if (size < 0)
			size = (long)((string_length(p, size == STORES_WSTRING) + 1) *
			              (size == STORES_WSTRING ? sizeof(wchar_t) : 1));
		__ukasan_check_range((uintptr_t)p, (size_t)size, 1, ip);
	}
}

void fmt_check_scanf(const void *fmt, int wide, int gnu_a, int ret, va_list ap, uintptr_t ip)
{
	if (ret <= 0 || !fmt)
		return;
	int saved = errno;
	struct args a;
	init_args(&a);
	scanf_walk(fmt, wide, gnu_a, ret, &a, 0, ip);
	fetch(&a, ap);
	scanf_walk(fmt, wide, gnu_a, ret, &a, 1, ip);
	errno = saved;
}
