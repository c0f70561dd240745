/* Where reports go: stderr, or the log file of ukasan.log_path. Either is
 * written only while it is still ukasan's. */
#ifndef UKASAN_CONFIG_SINK_H
#define UKASAN_CONFIG_SINK_H

#include <stddef.h>

void sink_write(const char *buf, size_t len);
/* A JSON line: to ukasan.json_path's file, else where the text goes. */
void sink_write_json(const char *buf, size_t len);

/* A report's fields for the sinks that keep fields (syslog's structured
 * data, journald's fields). */
struct sink_meta {
	const char *tool, *bug_type;
	char signature[20]; /* "" when none */
};
/* A block of output (text NULL: none) and its JSON line (jlen 0: none),
 * with the report's fields (NULL: not a bug report): one message to a
 * socket sink, else the text to the log and the line to its file. */
void sink_report(const char *text, size_t tlen, const char *json, size_t jlen,
                 const struct sink_meta *m);
/* A socket sink's message; 0 when sent, SINK_BUSY when the receiver's
 * queue stayed full (it is not reading), -1 when it cannot be sent
 * (sink_socket.c). */
#define SINK_BUSY 1
int sink_socket_send(int journal, const char *text, size_t tlen, const char *json, size_t jlen,
                     const struct sink_meta *m);

#endif
