/* stdio's reads and writes of a program buffer, locked and _unlocked, byte
 * and wide, with their fortified forms: the buffer is checked before stdio
 * touches it (io.h); a bad one is reported and the call fails with EFAULT.
 * Strings written out are read up to their terminator; a bad one is
 * reported and written all the same, as by ASan after a recovered report
 * (and as printf.c does): finding its length has just read it, so stdio
 * can, and the program's output appears. A NULL string, reported, still
 * fails with EFAULT: glibc would fault on it. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include "io.h"

/* Inlined by <stdio.h> in optimised code. */
#undef fread_unlocked
#undef fwrite_unlocked

/* Declared by glibc's headers only for fortified or pre-C11 programs. */
char *gets(char *s);
char *__gets_chk(char *s, size_t size);
char *__fgets_unlocked_chk(char *s, size_t size, int n, FILE *f);
size_t __fread_unlocked_chk(void *buf, size_t blen, size_t size, size_t count, FILE *f);
wchar_t *__fgetws_chk(wchar_t *s, size_t size, int n, FILE *f);
wchar_t *__fgetws_unlocked_chk(wchar_t *s, size_t size, int n, FILE *f);

LIBC(wcslen)

#define W             sizeof(wchar_t)
#define CHECK_WSTR(s) CHECK_READ(s, ((s) ? get_wcslen()(s) + 1 : 1) * W)

// clang-format off
CHECKED(size_t, fread, (void *buf, size_t size, size_t count, FILE *f), (buf, size, count, f),
	CHECK_WRITE(buf, io_total(size, count)), 0)
CHECKED(size_t, fread_unlocked, (void *buf, size_t size, size_t count, FILE *f),
	(buf, size, count, f), CHECK_WRITE(buf, io_total(size, count)), 0)
CHECKED(size_t, fwrite, (const void *buf, size_t size, size_t count, FILE *f),
	(buf, size, count, f), CHECK_READ(buf, io_total(size, count)), 0)
CHECKED(size_t, fwrite_unlocked, (const void *buf, size_t size, size_t count, FILE *f),
	(buf, size, count, f), CHECK_READ(buf, io_total(size, count)), 0)
CHECKED(char *, fgets, (char *s, int n, FILE *f), (s, n, f),
	n <= 0 || CHECK_WRITE(s, (size_t)n), NULL)
CHECKED(char *, fgets_unlocked, (char *s, int n, FILE *f), (s, n, f),
	n <= 0 || CHECK_WRITE(s, (size_t)n), NULL)
CHECKED(wchar_t *, fgetws, (wchar_t *s, int n, FILE *f), (s, n, f),
	n <= 0 || CHECK_WRITE(s, (size_t)n * W), NULL)
CHECKED(wchar_t *, fgetws_unlocked, (wchar_t *s, int n, FILE *f), (s, n, f),
	n <= 0 || CHECK_WRITE(s, (size_t)n * W), NULL)
// clang-format on

/* Checked, then called whatever the verdict, but for NULL. */
#define WRITTEN_ON(ret, name, params, args, check, fail)                                           \
	LIBC(name)                                                                                 \
	INTERPOSER ret name params                                                                 \
	{                                                                                          \
		if (!(check) && !s) {                                                              \
			errno = EFAULT;                                                            \
			return fail;                                                               \
		}                                                                                  \
		return get_##name() args;                                                          \
	}

// clang-format off
WRITTEN_ON(int, fputs, (const char *s, FILE *f), (s, f), CHECK_STR(s), EOF)
WRITTEN_ON(int, fputs_unlocked, (const char *s, FILE *f), (s, f), CHECK_STR(s), EOF)
WRITTEN_ON(int, puts, (const char *s), (s), CHECK_STR(s), EOF)
WRITTEN_ON(int, fputws, (const wchar_t *s, FILE *f), (s, f), CHECK_WSTR(s), -1)
WRITTEN_ON(int, fputws_unlocked, (const wchar_t *s, FILE *f), (s, f), CHECK_WSTR(s), -1)

/* size counts the buffer's wchar_t for the wide ones. */
CHECKED_CHK(char *, __fgets_unlocked_chk, (char *s, size_t size, int n, FILE *f),
	(s, size, n, f), n <= 0 || CHECK_WRITE(s, (size_t)n), (size_t)n > size, NULL)
CHECKED_CHK(size_t, __fread_unlocked_chk,
	(void *buf, size_t blen, size_t size, size_t count, FILE *f), (buf, blen, size, count, f),
	CHECK_WRITE(buf, io_total(size, count)), io_total(size, count) > blen, 0)
CHECKED_CHK(wchar_t *, __fgetws_chk, (wchar_t *s, size_t size, int n, FILE *f),
	(s, size, n, f), n <= 0 || CHECK_WRITE(s, (size_t)n * W), (size_t)n > size, NULL)
CHECKED_CHK(wchar_t *, __fgetws_unlocked_chk, (wchar_t *s, size_t size, int n, FILE *f),
	(s, size, n, f), n <= 0 || CHECK_WRITE(s, (size_t)n * W), (size_t)n > size, NULL)

/* The buffer is *n bytes, which glibc fills without growing it while the
 * line fits: all of them are checked, with the two pointers it reads and
 * updates. What it allocates or reallocates is the program's malloc's.
 * Without the pointers, glibc fails the call (EINVAL). */
#define CHECK_LINE(line, n)                                                                        \
	(!(line) || !(n) ||                                                                        \
	 (CHECK_WRITE(line, sizeof(*(line))) && CHECK_WRITE(n, sizeof(*(n))) &&                    \
	  (!*(line) || CHECK_WRITE(*(line), *(n)))))
CHECKED(ssize_t, getline, (char **line, size_t *n, FILE *f), (line, n, f), CHECK_LINE(line, n), -1)
CHECKED(ssize_t, getdelim, (char **line, size_t *n, int delim, FILE *f), (line, n, delim, f),
	CHECK_LINE(line, n), -1)
CHECKED(ssize_t, __getdelim, (char **line, size_t *n, int delim, FILE *f),
	(line, n, delim, f), CHECK_LINE(line, n), -1)
// clang-format on

/* gets does not say how large the buffer is: the line is read into one of
 * our own first, then the bytes it needs in s (the line and a terminator)
 * are checked, and it is copied there. As glibc's, it returns NULL when
 * nothing could be read. */
static char *gets_line(size_t *len)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t r = get_getdelim()(&line, &cap, '\n', stdin);
	if (r <= 0) {
		free(line);
		return NULL;
	}
	*len = (size_t)r - (line[r - 1] == '\n');
	return line;
}

INTERPOSER char *gets(char *s)
{
	size_t len;
	char *line = gets_line(&len);
	if (!line)
		return NULL;
	if (!CHECK_WRITE(s, len + 1)) {
		free(line);
		errno = EFAULT;
		return NULL;
	}
	libc_memcpy(s, line, len);
	s[len] = 0;
	free(line);
	return s;
}

/* glibc's aborts when the line does not fit in size (the object). */
INTERPOSER char *__gets_chk(char *s, size_t size)
{
	size_t len;
	char *line = gets_line(&len);
	if (!line)
		return NULL;
	if (!CHECK_WRITE(s, len + 1) || len >= size) {
		free(line);
		if (len >= size)
			__chk_fail();
		errno = EFAULT;
		return NULL;
	}
	libc_memcpy(s, line, len);
	s[len] = 0;
	free(line);
	return s;
}
