/* Where reports go: stderr, or the log file of ukasan.log_path. Either is
 * written only while it is still ukasan's. */
#ifndef UKASAN_CONFIG_SINK_H
#define UKASAN_CONFIG_SINK_H

#include <stddef.h>

void sink_write(const char *buf, size_t len);
/* A JSON line: to ukasan.json_path's file, else where the text goes. */
void sink_write_json(const char *buf, size_t len);

#endif
