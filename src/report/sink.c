/* The report's destination, and keeping it ours.
 *
 * A descriptor is a bare number the program may close and reuse: sshd
 * closes everything from 3 up at start and its listening socket takes the
 * first number freed. So every descriptor ukasan writes to is one it opened
 * or duplicated itself, remembered with what it refers to (device, inode)
 * and checked before each write. Where a sandbox refuses fstat, the
 * interposed close/dup family (sink_fds_closed, sink_fd_replaced) is the
 * word on what the program did to it. fd 2 is the program's own stderr: it
 * is written while open, unless the program closed it (or it was closed
 * at start), and then the copy of stderr taken at start is used. */
#include "sink.h"

#include <errno.h>
#include <string.h>

#include "../base/compiler.h"

#include "../config/log.h"
#include "../config/options.h"
#include "../platform/os.h"

struct owned {
	int fd; /* -1: none */
	enum os_fd_kind kind;
	uint64_t identity;
};

static struct owned err_copy = {-1, OS_FD_CLOSED, 0};
static enum os_fd_kind err_kind = OS_FD_UNKNOWN; /* fd 2's, last seen */
static int err_closed;                           /* by the program, through libc */

/* A log file of ukasan's: created as PATH.PID at its first line, from
 * the directory held open when a chroot comes. The reports' file
 * (ukasan.log_path), and the JSON lines' own (ukasan.json_path). */
struct log_file {
	char path[256];
	struct owned file, dir;
	int refused; /* this process's file could not be used: stderr */
};

static struct log_file text_log = {"", {-1, OS_FD_CLOSED, 0}, {-1, OS_FD_CLOSED, 0}, 0};
static struct log_file json_log = {"", {-1, OS_FD_CLOSED, 0}, {-1, OS_FD_CLOSED, 0}, 0};

static void own(struct owned *o, int fd)
{
	struct os_fd_info in;
	os_fd_info(fd, &in);
	o->fd = fd;
	o->kind = in.kind;
	o->identity = in.identity;
}

static void forget(struct owned *o)
{
	o->fd = -1;
}

/* The descriptor to write, with its kind; -1 when it is no longer ours. */
static int still_ours(struct owned *o, enum os_fd_kind *kind)
{
	if (o->fd < 0)
		return -1;
	struct os_fd_info in;
	os_fd_info(o->fd, &in);
	if (in.kind == OS_FD_CLOSED || (in.kind != OS_FD_UNKNOWN && in.identity != o->identity)) {
		forget(o); /* the number is the program's now: never close it */
		return -1;
	}
	*kind = in.kind == OS_FD_UNKNOWN ? o->kind : in.kind;
	return o->fd;
}

/* sinks.inc's rows as the options take them: "auto stderr ..." and
 * "auto (what it is); stderr (...); ...", less the first separator. */
static const char sink_words[] =
#define SINK(id, word, what) " " word
#include "sinks.inc"
#undef SINK
    ;
static const char sink_meanings[] =
#define SINK(id, word, what) "; " word " (" what ")"
#include "sinks.inc"
#undef SINK
    ;

void sink_init(void)
{
	option_choices_register("ukasan.log_sink", sink_words + 1, sink_meanings + 2);
	log_set_writer(sink_write);
	/* A report's files, when the program has used up its descriptors. */
	os_fd_reserve();
	struct os_fd_info in;
	os_fd_info(2, &in);
	err_kind = in.kind;
	/* Started with no stderr (prog 2>&-): the first file the program opens
	 * takes the number 2, and is the program's, not a place for reports.
	 * fd 2 is ours again only when the program puts a stream there by
	 * dup2/dup3; until then reports go to the log file or socket, if
	 * any, else nowhere. */
	if (in.kind == OS_FD_CLOSED)
		__atomic_store_n(&err_closed, 1, __ATOMIC_RELAXED);
	/* Not under a filter in force from the start: it may refuse fcntl. */
	if (err_copy.fd < 0 && in.kind != OS_FD_CLOSED && !os_sandboxed()) {
		int fd = os_dup_high(2);
		if (fd >= 0)
			own(&err_copy, fd);
	}
}

static void set_path(struct log_file *l, const char *path)
{
	if (l->file.fd >= 0)
		os_close(l->file.fd);
	if (l->dir.fd >= 0)
		os_close(l->dir.fd);
	forget(&l->file);
	forget(&l->dir);
	l->refused = 0;
	if (!path || !*path || !strcmp(path, "stderr"))
		l->path[0] = 0;
	else
		fmt_buf(l->path, sizeof(l->path), "%s", path);
}

void sink_set_path(const char *path)
{
	set_path(&text_log, path);
}

void sink_set_json_path(const char *path)
{
	set_path(&json_log, path);
}

static int stderr_fd(enum os_fd_kind *kind)
{
	if (!__atomic_load_n(&err_closed, __ATOMIC_RELAXED)) {
		struct os_fd_info in;
		os_fd_info(2, &in);
		if (in.kind != OS_FD_CLOSED) {
			if (in.kind != OS_FD_UNKNOWN)
				err_kind = in.kind;
			*kind = err_kind;
			return 2;
		}
	}
	return still_ours(&err_copy, kind);
}

static const char *errno_name(int e)
{
	switch (e) {
	case ELOOP:
		return "it is a symbolic link";
	case EPERM:
		return "it is not a regular file of ours with one name";
	case EACCES:
		return "permission denied";
	case ENOENT:
		return "no such directory";
	default:
		return "cannot open it";
	}
}

/* Created at the first line written, so that a process that reports
 * nothing leaves no file; never opened once the process may be
 * sandboxed (a filter may kill on open). */
static int log_fd(struct log_file *l, enum os_fd_kind *kind)
{
	if (!l->path[0] || l->refused || (l == &text_log && opt.log_sink == SINK_STDERR))
		return -1;
	int fd = still_ours(&l->file, kind);
	if (fd >= 0 || !os_may_open_files())
		return fd;
	char full[300];
	fmt_buf(full, sizeof(full), "%s.%d", l->path, os_pid());
	enum os_fd_kind dir_kind;
	int dir = still_ours(&l->dir, &dir_kind);
	const char *slash = strrchr(full, '/');
	fd = os_open_log(dir, dir >= 0 && slash ? slash + 1 : full);
	if (fd < 0) {
		l->refused = 1;
		log_printf("ukasan: cannot open log file %s (%s); reports go to %s\n", full,
		           errno_name(-fd), l == &json_log ? "the reports' log" : "stderr");
		return -1;
	}
	own(&l->file, fd);
	*kind = l->file.kind;
	return fd;
}

static int socket_sink(void)
{
	return opt.log_sink == SINK_SYSLOG || opt.log_sink == SINK_JOURNALD;
}

/* Bytes RLIMIT_FSIZE left out of the files (the log, the JSON lines',
 * stderr when it is a regular file: 2>file), and the bug reports they
 * were of: a file full to the program's limit takes what fits, and the
 * rest is dropped, counted for the run's last line (a write past it would
 * raise SIGXFSZ, and end a program that did not block it). */
static unsigned long cut_bytes, cut_reports;

unsigned long sink_reports_cut(unsigned long *bytes)
{
	*bytes = __atomic_load_n(&cut_bytes, __ATOMIC_RELAXED);
	return __atomic_load_n(&cut_reports, __ATOMIC_RELAXED);
}

/* To one of the log files, if it is open: 0 when written, as
 * os_write_report says, *cut the bytes left out. */
static int write_log(struct log_file *l, const char *buf, size_t len, size_t *cut)
{
	enum os_fd_kind kind = OS_FD_UNKNOWN;
	int fd = log_fd(l, &kind);
	return fd >= 0 ? os_write_report(fd, kind, buf, len, cut) : -1;
}

/* To stderr or the log file, whatever the sink: stderr when the log takes
 * nothing. The bytes left out. */
static size_t write_local(const char *buf, size_t len)
{
	size_t cut = 0;
	if (write_log(&text_log, buf, len, &cut) == 0)
		return cut;
	size_t log_cut = cut;
	enum os_fd_kind kind = OS_FD_UNKNOWN;
	int fd = stderr_fd(&kind);
	if (fd < 0)
		return log_cut;
	return os_write_report(fd, kind, buf, len, &cut) == 0 || cut ? cut : log_cut;
}

static void count_cut(size_t bytes, const struct sink_meta *m)
{
	if (!bytes)
		return;
	__atomic_fetch_add(&cut_bytes, bytes, __ATOMIC_RELAXED);
	if (m)
		__atomic_fetch_add(&cut_reports, 1, __ATOMIC_RELAXED);
}

/* Bug reports a socket sink's receiver had no room for: dropped, not
 * written elsewhere (a reader that stopped must not stop the program),
 * counted for the run's last line; and told in a message of their own
 * before the next report the receiver takes. */
static unsigned long dropped, dropped_untold;

unsigned long sink_reports_dropped(void)
{
	return __atomic_load_n(&dropped, __ATOMIC_RELAXED);
}

static void tell_dropped(int journal)
{
	unsigned long n = __atomic_load_n(&dropped_untold, __ATOMIC_RELAXED);
	if (!n)
		return;
	char line[200];
	size_t len = fmt_buf(line, sizeof(line),
	                     "ukasan: %lu report%s dropped before this one: the %s socket's "
	                     "reader was not reading\n",
	                     n, n == 1 ? "" : "s", journal ? "journald" : "syslog");
	if (sink_socket_send(journal, line, len, NULL, 0, NULL) == 0)
		__atomic_fetch_sub(&dropped_untold, n, __ATOMIC_RELAXED);
}

/* Lines of ukasan's own (warnings, the run's last line): to stderr or the
 * log when the receiver has no room. */
void sink_write(const char *buf, size_t len)
{
	if (socket_sink() &&
	    sink_socket_send(opt.log_sink == SINK_JOURNALD, buf, len, NULL, 0, NULL) == 0)
		return;
	count_cut(write_local(buf, len), NULL);
}

/* The bytes left out. */
static size_t write_json(const char *buf, size_t len)
{
	size_t cut = 0;
	return write_log(&json_log, buf, len, &cut) == 0 ? cut : write_local(buf, len);
}

void sink_write_json(const char *buf, size_t len)
{
	count_cut(write_json(buf, len), NULL);
}

void sink_report(const char *text, size_t tlen, const char *json, size_t jlen,
                 const struct sink_meta *m)
{
	/* ukasan.json_path wins over the sink for the JSON lines. */
	int json_here = jlen && !json_log.path[0];
	if (socket_sink() && (tlen || json_here)) {
		int journal = opt.log_sink == SINK_JOURNALD;
		if (m)
			tell_dropped(journal);
		int sent = sink_socket_send(journal, text, tlen, json_here ? json : NULL,
		                            json_here ? jlen : 0, m);
		if (sent == SINK_BUSY && m) {
			__atomic_fetch_add(&dropped, 1, __ATOMIC_RELAXED);
			__atomic_fetch_add(&dropped_untold, 1, __ATOMIC_RELAXED);
		}
		if (sent == 0 || (sent == SINK_BUSY && m)) {
			if (jlen && !json_here)
				count_cut(write_json(json, jlen), m);
			return;
		}
	}
	size_t cut = 0;
	if (tlen)
		cut += write_local(text, tlen);
	if (jlen)
		cut += write_json(json, jlen);
	count_cut(cut, m);
}

/* The log file is opened now, as the sandbox will not let it be later;
 * unless no byte could be written to it there (RLIMIT_FSIZE 0, as OpenSSH
 * sets first): then the process's lines go to stderr, and it leaves no
 * empty file behind. */
void sink_prepare_sandbox(void)
{
	enum os_fd_kind kind;
	if (os_fsize_limit() != 0) {
		log_fd(&text_log, &kind);
		log_fd(&json_log, &kind);
	}
	stderr_fd(&kind);
}

/* After a chroot the path names another file, if any: create the file in
 * the directory held open from before, when its first line comes. */
static void prepare_chroot(struct log_file *l)
{
	enum os_fd_kind kind;
	if (!l->path[0] || l->refused || still_ours(&l->file, &kind) >= 0 ||
	    still_ours(&l->dir, &kind) >= 0)
		return;
	char dir[256];
	fmt_buf(dir, sizeof(dir), "%s", l->path);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		fmt_buf(dir, sizeof(dir), ".");
	int fd = os_open_dir(dir);
	if (fd >= 0)
		own(&l->dir, fd);
}

void sink_prepare_chroot(void)
{
	prepare_chroot(&text_log);
	prepare_chroot(&json_log);
}

void sink_after_fork(void)
{
	/* The parent's file, under the parent's pid: the child's own comes at
	 * its first line. */
	struct log_file *logs[] = {&text_log, &json_log};
	for (int i = 0; i < 2; i++) {
		if (logs[i]->file.fd >= 0)
			os_close(logs[i]->file.fd);
		forget(&logs[i]->file);
		logs[i]->refused = 0;
	}
	dropped = dropped_untold = 0;
	cut_bytes = cut_reports = 0;
}

void sink_fds_closed(int lo, int hi)
{
	if (lo <= 2 && 2 <= hi)
		__atomic_store_n(&err_closed, 1, __ATOMIC_RELAXED);
	if (err_copy.fd >= lo && err_copy.fd <= hi)
		forget(&err_copy);
	struct log_file *logs[] = {&text_log, &json_log};
	for (int i = 0; i < 2; i++) {
		if (logs[i]->file.fd >= lo && logs[i]->file.fd <= hi)
			forget(&logs[i]->file);
		if (logs[i]->dir.fd >= lo && logs[i]->dir.fd <= hi)
			forget(&logs[i]->dir);
	}
}

void sink_fd_replaced(int fd)
{
	if (fd == 2)
		__atomic_store_n(&err_closed, 0, __ATOMIC_RELAXED);
	else
		sink_fds_closed(fd, fd);
}
