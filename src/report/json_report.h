/* What a report says for machines: its record's JSON line (schema:
 * docs/report.schema.json). */
#ifndef UKASAN_REPORT_JSON_REPORT_H
#define UKASAN_REPORT_JSON_REPORT_H

#include <stdint.h>

struct report_record;

/* The KASAN mode in force, for every report's "mode" ("kfence" until
 * one is set: KFENCE alone). */
void json_report_set_mode(const char *mode);

/* The report's JSON line (report_json_line), with its signature sig;
 * called by report_finish when ukasan.report_format asks for it. */
void json_report_emit(const struct report_record *r, uint64_t sig);

#endif
