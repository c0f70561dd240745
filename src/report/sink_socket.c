/* The socket sinks: syslog (RFC 5424 over the datagram socket /dev/log,
 * the report's fields as structured data) and journald (its native
 * protocol: KEY=value fields, multi-line values length-prefixed, a message
 * too big for a datagram in a sealed memfd). Raw system calls only
 * (platform/sock.c), never libc's syslog(), whose lock the program may be
 * holding when a report comes from a signal handler. */
#include "sink.h"

#include <errno.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"

#define SYSLOG_DEFAULT  "/dev/log"
#define JOURNAL_DEFAULT "/run/systemd/journal/socket"
/* RFC 5424's PRI: facility user (1), severity err (3). */
#define SYSLOG_PRI 11
/* The structured data's ID: a private one under the example enterprise
 * number RFC 5612 reserves for documentation. */
#define SD_ID "ukasan@32473"

/* The task's name as one token: no spaces (APP-NAME, SYSLOG_IDENTIFIER). */
static void app_name(char out[17])
{
	os_task_name(out);
	for (char *c = out; *c; c++)
		if (*c <= ' ' || *c > '~')
			*c = '_';
	if (!out[0])
		fmt_buf(out, 17, "ukasan");
}

/* An SD-PARAM's value: '"', '\\' and ']' escaped (RFC 5424 6.3.3). */
static size_t sd_value(char *buf, size_t cap, const char *v)
{
	size_t n = 0;
	for (; v && *v && n + 3 < cap; v++) {
		if (*v == '"' || *v == '\\' || *v == ']')
			buf[n++] = '\\';
		buf[n++] = *v;
	}
	buf[n] = 0;
	return n;
}

static size_t trim(const char *s, size_t n)
{
	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		n--;
	return n;
}

static int send_syslog(const char *body, size_t len, const struct sink_meta *m, int wait)
{
	static char head[600];
	char now[40], app[17], tool[32], bug[96];
	fmt_time(now, sizeof(now), os_realtime_ns());
	app_name(app);
	size_t h =
	    fmt_buf(head, sizeof(head), "<%d>1 %s - %s %d ukasan ", SYSLOG_PRI, now, app, os_pid());
	if (m && m->signature[0]) {
		sd_value(tool, sizeof(tool), m->tool);
		sd_value(bug, sizeof(bug), m->bug_type);
		h += fmt_buf(head + h, sizeof(head) - h,
		             "[" SD_ID " tool=\"%s\" bug_type=\"%s\" signature=\"%s\"] ", tool, bug,
		             m->signature);
	} else {
		h += fmt_buf(head + h, sizeof(head) - h, "- ");
	}
	const char *path = opt.syslog_path[0] ? opt.syslog_path : SYSLOG_DEFAULT;
	struct os_iov iov[2] = {{head, h}, {body, trim(body, len)}};
	int err = os_dgram_send(path, iov, 2, -1, wait);
	/* Bigger than the socket takes: the start of it, as syslog daemons
	 * cut long messages anyway. */
	for (size_t cut = 65536; (err == -EMSGSIZE || err == -ENOBUFS) && cut >= 4096; cut /= 2) {
		if (iov[1].len > cut)
			iov[1].len = cut;
		err = os_dgram_send(path, iov, 2, -1, wait);
	}
	return err;
}

/* "KEY=value\n", or for a value with a newline "KEY\n", its length as 64
 * bits little-endian, the value and "\n". */
static size_t field(char *buf, size_t cap, const char *key, const char *v)
{
	return fmt_buf(buf, cap, "%s=%s\n", key, v ? v : "");
}

static void length_le(char out[8], uint64_t n)
{
	for (int i = 0; i < 8; i++)
		out[i] = (char)(n >> (8 * i));
}

static int send_journal(const char *text, size_t tlen, const char *json, size_t jlen,
                        const struct sink_meta *m, int wait)
{
	static char head[1024];
	static char msg_len[8], json_len[8];
	char app[17];
	app_name(app);
	size_t h = field(head, sizeof(head), "PRIORITY", "3");
	h += field(head + h, sizeof(head) - h, "SYSLOG_IDENTIFIER", app);
	if (m && m->signature[0]) {
		h += field(head + h, sizeof(head) - h, "UKASAN_TOOL", m->tool);
		h += field(head + h, sizeof(head) - h, "UKASAN_BUG_TYPE", m->bug_type);
		h += field(head + h, sizeof(head) - h, "UKASAN_SIGNATURE", m->signature);
	}
	/* MESSAGE: the text, or the JSON line where there is no text. */
	const char *body = tlen ? text : json;
	size_t blen = trim(body, tlen ? tlen : jlen);
	h += fmt_buf(head + h, sizeof(head) - h, "MESSAGE\n");
	length_le(msg_len, blen);
	struct os_iov iov[8];
	int n = 0;
	iov[n++] = (struct os_iov){head, h};
	iov[n++] = (struct os_iov){msg_len, 8};
	iov[n++] = (struct os_iov){body, blen};
	iov[n++] = (struct os_iov){"\n", 1};
	if (tlen && jlen) {
		length_le(json_len, trim(json, jlen));
		iov[n++] = (struct os_iov){"UKASAN_JSON\n", 12};
		iov[n++] = (struct os_iov){json_len, 8};
		iov[n++] = (struct os_iov){json, trim(json, jlen)};
		iov[n++] = (struct os_iov){"\n", 1};
	}
	const char *path = opt.journal_path[0] ? opt.journal_path : JOURNAL_DEFAULT;
	int err = os_dgram_send(path, iov, n, -1, wait);
	if (err != -EMSGSIZE && err != -ENOBUFS)
		return err;
	/* Too big for a datagram: journald reads it from a sealed memfd. */
	int fd = os_sealed_memfd(iov, n);
	if (fd < 0)
		return fd;
	err = os_dgram_send(path, NULL, 0, fd, wait);
	os_close(fd);
	return err;
}

/* A receiver that is slow gets this long for room in its queue; one
 * that stopped reading costs this once, and nothing more until a message
 * gets through again. */
#define SLOW_RECEIVER_MS 200
static int receiver_stuck;

int sink_socket_send(int journal, const char *text, size_t tlen, const char *json, size_t jlen,
                     const struct sink_meta *m)
{
	/* Under a seccomp filter a socket may kill the process: the log. */
	if (os_sandboxed())
		return -1;
	int wait = __atomic_load_n(&receiver_stuck, __ATOMIC_RELAXED) ? 0 : SLOW_RECEIVER_MS;
	int err = 0;
	if (journal) {
		err = send_journal(text, tlen, json, jlen, m, wait);
	} else {
		if (tlen)
			err = send_syslog(text, tlen, m, wait);
		if (!err && jlen)
			err = send_syslog(json, jlen, m, wait);
	}
	__atomic_store_n(&receiver_stuck, err == -EAGAIN, __ATOMIC_RELAXED);
	if (err == -EAGAIN)
		return SINK_BUSY;
	return err ? -1 : 0;
}
