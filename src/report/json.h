/* A JSON writer for machine-readable reports: into a caller's fixed
 * buffer, no allocation, no stdio, so it runs on the report path. A line
 * that does not fit is cut at a whole member and closed, so what is
 * written always parses (json.truncated says so). */
#ifndef UKASAN_REPORT_JSON_H
#define UKASAN_REPORT_JSON_H

#include <stddef.h>
#include <stdint.h>

#define JSON_DEPTH 8

struct json {
	char *buf;
	size_t cap, len;
	int depth;
	int first[JSON_DEPTH]; /* nothing written yet at this level */
	char close[JSON_DEPTH];
	int truncated;
};

/* Opens the top-level object. */
void json_begin(struct json *j, char *buf, size_t cap);
/* Closes every open level; the line's length (no newline added). */
size_t json_end(struct json *j);

/* key NULL inside an array. */
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key);
void json_close(struct json *j);
void json_string(struct json *j, const char *key, const char *s);
/* The same with every ':' escaped (\u003a): a report's title, which a
 * reader of the kernel's text (syzkaller) would otherwise take for a
 * report of its own where JSON and text share a log. */
void json_string_hidden(struct json *j, const char *key, const char *s);
void json_uint(struct json *j, const char *key, unsigned long long v);
void json_int(struct json *j, const char *key, long long v);
/* An address or offset as a "0x..." string: JSON numbers lose 64-bit
 * precision in most readers. */
void json_hex(struct json *j, const char *key, unsigned long long v);
void json_bool(struct json *j, const char *key, int v);
void json_null(struct json *j, const char *key);

#endif
