/* Run-time options, read once from UKASAN_OPTIONS in the kernel's
 * boot-parameter syntax: "kfence.sample_interval=10 kasan.fault=panic".
 * ASAN_OPTIONS's keys that mean something here are read first, so that
 * programs run as ASan's are still understood, and UKASAN_OPTIONS wins. */
#ifndef UKASAN_CONFIG_OPTIONS_H
#define UKASAN_CONFIG_OPTIONS_H

#include <stddef.h>

#define EXITCODE_AUTO 256ul

enum fault_action { FAULT_REPORT, FAULT_PANIC, FAULT_PANIC_ON_WRITE };
/* Hardware tags' tag check faults, the kernel's kasan.mode. */
enum kasan_hw_mode { KASAN_MODE_SYNC, KASAN_MODE_ASYNC, KASAN_MODE_ASYMM };
/* ukasan.symbolizer: where file:line comes from */
enum symbolizer { SYMBOLIZER_AUTO, SYMBOLIZER_INTERNAL, SYMBOLIZER_EXTERNAL };
/* ukasan.report_format: the kernel's text, JSON lines, or both */
enum report_format { REPORT_FORMAT_TEXT, REPORT_FORMAT_JSON, REPORT_FORMAT_BOTH };
/* ukasan.log_sink: auto is the file of ukasan.log_path if set, else stderr */
enum log_sink { SINK_AUTO, SINK_STDERR, SINK_FILE, SINK_SYSLOG, SINK_JOURNALD };
/* ukasan.asan_lines: the sanitizers' lines in reports (report_asan_wanted) */
enum asan_lines { ASAN_LINES_AUTO, ASAN_LINES_ON, ASAN_LINES_OFF };

struct options {
	unsigned long kfence_sample_interval; /* ms; 0 disables time sampling */
	unsigned long kfence_sample_rate;     /* 1 in N; 0 = use the interval */
	unsigned long kfence_num_objects;
	unsigned long kfence_skip_covered_thresh; /* percent of the pool */
	unsigned long kfence_burst;
	unsigned long kfence_process_sample; /* KFENCE in one process in N */
	unsigned long kfence_fault;
	unsigned long kfence_stats;
	unsigned long kasan_fault;
	unsigned long kasan_multi_shot;
	unsigned long kasan_stacktrace;
	unsigned long kasan_quarantine_size; /* bytes */
	unsigned long kasan_stack_use_after_return;
	unsigned long kasan_page_alloc_sample;       /* 1 in N large allocations checked */
	unsigned long kasan_page_alloc_sample_order; /* from this page order up */
	unsigned long kasan_stats;
	/* ASan's checks of globals: dynamic initialisation order, and two
	 * definitions of one global (0 off, 1 sizes differ, 2 any). */
	unsigned long kasan_init_order, kasan_strict_init_order, kasan_odr;
	unsigned long kasan_on;              /* kasan=on: hardware tags in the preload */
	unsigned long generic;               /* ukasan.generic: generic KASAN in the preload */
	unsigned long kasan_hw_mode;         /* enum kasan_hw_mode */
	unsigned long kasan_stack_ring_size; /* tag modes' alloc/free records */
	unsigned long symbolize;
	unsigned long dedup_token_length; /* frames in the DEDUP_TOKEN line; 0: none */
	unsigned long symbolizer;         /* enum symbolizer */
	/* ukasan.exitcode (ASan's exitcode): the status of a run that printed a
	 * report, when it would have been 0; EXITCODE_AUTO until the mode is
	 * known (report_exit_code). */
	unsigned long exitcode;
	unsigned long abort_on_error;        /* a panic aborts; off: exits */
	unsigned long print_summary;         /* the line at exit counting reports */
	unsigned long strict_string_checks;  /* ASan's: string arguments read whole */
	unsigned long invalid_pointer_pairs; /* ASan's detect_invalid_pointer_pairs */
	/* The allocator's checks of what a program asks of it, ASan's. */
	unsigned long alloc_dealloc_mismatch;    /* free vs delete vs delete[] */
	unsigned long new_delete_type_mismatch;  /* sized and aligned delete */
	unsigned long allocator_may_return_null; /* refused requests: NULL, no report */
	unsigned long max_allocation_size_mb;    /* 0: ASan's limit, 1 TiB */
	unsigned long malloc_fill_byte;          /* generic mode: new objects' bytes... */
	unsigned long max_malloc_fill_size;      /* ...this many at most; 0: left as they are */
	char log_path[256];
	unsigned long report_format; /* enum report_format */
	char json_path[256];         /* the JSON lines' own file; empty: the log */
	unsigned long log_sink;      /* enum log_sink */
	char syslog_path[256];       /* empty: /dev/log */
	char journal_path[256];      /* empty: journald's socket */
	/* ASAN_OPTIONS named the log file: a tool reads it as ASan's, and
	 * reports end with ASan's lines (report/asan_lines.c). */
	int asan_log_lines;
	unsigned long asan_lines; /* enum asan_lines */
	unsigned long kmemleak;          /* leak checks at exit and on demand (generic mode) */
	char kmemleak_suppressions[256]; /* LSan's suppressions file: leak:PATTERN lines */
};

extern struct options opt;

/* Parse a string of options; bad words get one "ukasan:" line each and keep
 * their defaults. Never allocates. */
void options_parse(const char *text);
/* The built-in defaults, then ASAN_OPTIONS's keys, then UKASAN_OPTIONS's,
 * each overriding what came before. */
void options_read(void);

#endif
