/* The sinks, where reports and ukasan's own lines go: stderr, the log
 * file of ukasan.log_path, the JSON lines' file of ukasan.json_path
 * (sink.c), syslog or journald (sink_socket.c). Each is written only while
 * it is still ukasan's. Every sink is here: config/log.c's lines reach
 * them through the writer sink.c registers (log_set_writer), and nothing
 * outside report/ opens or writes a destination of reports
 * (tests/layers/check_layers.py). */
#ifndef UKASAN_REPORT_SINK_H
#define UKASAN_REPORT_SINK_H

#include <stddef.h>

/* ukasan.log_sink's values, one per row of sinks.inc (its words are
 * there too). */
enum sink_choice {
#define SINK(id, word, what) id,
#include "sinks.inc"
#undef SINK
};

/* Keep a copy of stderr, for reports after the program closes it; from
 * now on config/log.c's lines go to the sinks; and ukasan.log_sink's
 * words are sinks.inc's. Before the options are read. */
void sink_init(void);
/* Choose where reports go: a path gets ".PID" appended, as ASan's log_path;
 * the file is created at the first line written. */
void sink_set_path(const char *path);
/* ukasan.json_path: the JSON lines' own file, named as the log's. */
void sink_set_json_path(const char *path);
/* After fork the child's lines go to a file of its own pid. */
void sink_after_fork(void);
/* Open what the log needs now, while the program may still open files
 * (before a seccomp filter), or find its files (before a chroot). */
void sink_prepare_sandbox(void);
void sink_prepare_chroot(void);
/* The program closed descriptors lo..hi, or put something of its own at
 * fd, through libc: ukasan's there are gone, and fd 2 closed or set. */
void sink_fds_closed(int lo, int hi);
void sink_fd_replaced(int fd);
/* Bug reports a socket sink dropped in this process: its receiver was not
 * reading. */
unsigned long sink_reports_dropped(void);
/* Bug reports the files' RLIMIT_FSIZE cut short in this process (the
 * program's limit: a file full to it takes what fits, and never raises
 * SIGXFSZ), and *bytes, the bytes left out of reports and lines. */
unsigned long sink_reports_cut(unsigned long *bytes);

/* ukasan's own lines (warnings, the run's last line, statistics). */

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
