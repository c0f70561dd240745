/* The JSON writer (json.h). Each member is written whole or not at all:
 * room is kept for the closing brackets of every open level, so a line cut
 * short still parses. */
#include "json.h"

#include "../base/compiler.h"
#include "../config/log.h"

/* Bytes the closing brackets of the open levels need. */
static size_t reserve(const struct json *j)
{
	return (size_t)j->depth + 1;
}

static int room(struct json *j, size_t n)
{
	if (j->truncated || j->len + n + reserve(j) > j->cap) {
		j->truncated = 1;
		return 0;
	}
	return 1;
}

static void raw(struct json *j, const char *s, size_t n)
{
	rt_memcpy(j->buf + j->len, s, n);
	j->len += n;
}

/* Length of the valid UTF-8 sequence at s, 0 when it is not one. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (s[0] >= 0xf5)
		return 0;
	for (size_t i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

/* The escaped string, quoted, into tmp (cut short to fit); its length.
 * Bytes that are not UTF-8 (a path or a name from the program)
 * become U+FFFD, so every reader takes the line. */
static size_t escape(const char *s, char *tmp, size_t cap, int colons)
{
	size_t n = 0;
	const unsigned char *p = (const unsigned char *)s;
	tmp[n++] = '"';
	while (*p) {
		char e[8];
		size_t k = 0;
		const char *src = e;
		if (colons && *p == ':') {
			src = "\\u003a";
			k = 6;
			p++;
		} else if (*p == '"' || *p == '\\') {
			e[0] = '\\';
			e[1] = (char)*p++;
			k = 2;
		} else if (*p < 0x20 || *p == 0x7f) {
			static const char hex[] = "0123456789abcdef";
			k = fmt_buf(e, sizeof(e), "\\u00%c%c", hex[*p >> 4], hex[*p & 15]);
			if (*p == '\n')
				k = fmt_buf(e, sizeof(e), "\\n");
			else if (*p == '\t')
				k = fmt_buf(e, sizeof(e), "\\t");
			p++;
		} else if (*p < 0x80) {
			e[0] = (char)*p++;
			k = 1;
		} else if ((k = utf8_len(p)) != 0) {
			src = (const char *)p;
			p += k;
		} else {
			src = "\\ufffd";
			k = 6;
			p++;
		}
		if (n + k + 1 >= cap)
			break;
		rt_memcpy(tmp + n, src, k);
		n += k;
	}
	tmp[n++] = '"';
	return n;
}

/* The separator and the key; 0 when the member cannot start. */
static int member(struct json *j, const char *key, size_t value_len)
{
	static char k[160];
	size_t kl = 0;
	if (key) {
		kl = escape(key, k, sizeof(k), 0);
	}
	int comma = !j->first[j->depth];
	if (!room(j, (size_t)comma + kl + (key ? 1 : 0) + value_len))
		return 0;
	if (comma)
		raw(j, ",", 1);
	if (key) {
		raw(j, k, kl);
		raw(j, ":", 1);
	}
	j->first[j->depth] = 0;
	return 1;
}

static void value(struct json *j, const char *key, const char *v, size_t n)
{
	if (member(j, key, n))
		raw(j, v, n);
}

static void open(struct json *j, const char *key, char o, char c)
{
	/* A level that cannot open makes everything inside it fail too. */
	if (j->depth + 1 >= JSON_DEPTH || !member(j, key, 2)) {
		j->truncated = 1;
		return;
	}
	raw(j, &o, 1);
	j->depth++;
	j->first[j->depth] = 1;
	j->close[j->depth] = c;
}

void json_begin(struct json *j, char *buf, size_t cap)
{
	j->buf = buf;
	j->cap = cap;
	j->len = 0;
	j->depth = 0;
	j->truncated = 0;
	j->first[0] = 1;
	j->close[0] = 0;
	open(j, NULL, '{', '}');
}

void json_object(struct json *j, const char *key)
{
	open(j, key, '{', '}');
}

void json_array(struct json *j, const char *key)
{
	open(j, key, '[', ']');
}

void json_close(struct json *j)
{
	/* Past a truncation the levels are closed by json_end. */
	if (j->truncated || j->depth <= 1)
		return;
	raw(j, &j->close[j->depth], 1);
	j->depth--;
}

size_t json_end(struct json *j)
{
	while (j->depth > 0) {
		raw(j, &j->close[j->depth], 1);
		j->depth--;
	}
	j->buf[j->len < j->cap ? j->len : j->cap - 1] = 0;
	return j->len;
}

static void string(struct json *j, const char *key, const char *s, int colons)
{
	static char tmp[2048];
	if (!s) {
		json_null(j, key);
		return;
	}
	value(j, key, tmp, escape(s, tmp, sizeof(tmp), colons));
}

void json_string(struct json *j, const char *key, const char *s)
{
	string(j, key, s, 0);
}

void json_string_hidden(struct json *j, const char *key, const char *s)
{
	string(j, key, s, 1);
}

void json_uint(struct json *j, const char *key, unsigned long long v)
{
	char tmp[24];
	value(j, key, tmp, fmt_buf(tmp, sizeof(tmp), "%llu", v));
}

void json_int(struct json *j, const char *key, long long v)
{
	char tmp[24];
	value(j, key, tmp, fmt_buf(tmp, sizeof(tmp), "%lld", v));
}

void json_hex(struct json *j, const char *key, unsigned long long v)
{
	char tmp[24];
	value(j, key, tmp, fmt_buf(tmp, sizeof(tmp), "\"0x%llx\"", v));
}

void json_bool(struct json *j, const char *key, int v)
{
	value(j, key, v ? "true" : "false", v ? 4 : 5);
}

void json_null(struct json *j, const char *key)
{
	value(j, key, "null", 4);
}
