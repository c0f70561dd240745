/* What a report says for machines: one record-like summary that every
 * report (KASAN's record, KFENCE's, UBSAN's, kmemleak's) fills from its
 * own data, and the one writer of its "signature:" text line and its JSON
 * line (schema: docs/report.schema.json). */
#ifndef UKASAN_REPORT_JSON_REPORT_H
#define UKASAN_REPORT_JSON_REPORT_H

#include <stddef.h>
#include <stdint.h>

enum { JSON_STACK_ACCESS, JSON_STACK_ALLOC, JSON_STACK_FREE, JSON_STACKS };

struct json_report {
	const char *tool; /* "KASAN", "KFENCE", "UBSAN", "kmemleak" */
	const char *bug_type;
	/* "read", "write", "free" or "unknown"; NULL: the report is of no
	 * access (a leak, a refused request), and the fields after it unset. */
	const char *access;
	size_t size; /* 0: not known */
	uintptr_t addr;
	/* What the address belongs to; region NULL: nothing known. */
	const char *region; /* heap, kfence, global, stack */
	const char *cache, *name;
	int has_object, has_offset;
	uintptr_t object_addr;
	size_t object_size;
	long long offset; /* of addr from the object's start */
	struct {
		const uintptr_t *pcs;
		int n, exact;
	} stacks[JSON_STACKS];
	int tid;
	const char *comm;
	const char *detail;    /* the report's own words on the bug; NULL: none */
	unsigned long objects; /* kmemleak: objects from this stack */
};

/* The KASAN mode in force, for every report's "mode" ("kfence" until
 * one is set: KFENCE alone). */
void json_report_set_mode(const char *mode);

/* Inside the report (report_begin_bug ... report_end), after its text:
 * the "signature:" line, then the JSON line when ukasan.report_format asks
 * for it. */
void json_report_emit(const struct json_report *r);

#endif
