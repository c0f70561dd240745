/* Run-time options, read once from UKASAN_OPTIONS with the kernel's
 * boot-parameter names, separated as sanitizers' options are (':', ',' or
 * white space): "kfence.sample_interval=10:kasan.fault=panic". ASAN_OPTIONS's
 * keys that mean something here are read first, so that programs run as
 * ASan's are still understood, and UKASAN_OPTIONS wins. Every option is a
 * row of options.inc. */
#ifndef UKASAN_CONFIG_OPTIONS_H
#define UKASAN_CONFIG_OPTIONS_H

#include <stddef.h>

#include "../base/compiler.h"

/* ukasan.exitcode=auto (its MAX + 1), until the mode is known
 * (report_exit_code). */
#define EXITCODE_AUTO 256ul

/* The ENUM options' values, each the index of its word: one constant per
 * CHOICE(ID, "word") of options.inc, made from those rows. kasan.fault:
 * FAULT_REPORT, FAULT_PANIC, FAULT_PANIC_ON_WRITE; kfence.fault:
 * KFENCE_FAULT_*; kasan.mode (hardware tags' tag check faults, the
 * kernel's): KASAN_MODE_*; ukasan.symbolizer (where file:line comes
 * from): SYMBOLIZER_*; ukasan.report_format (the kernel's text, JSON lines,
 * or both): REPORT_FORMAT_*; ukasan.asan_lines (the sanitizers' lines in
 * reports, report_asan_wanted): ASAN_LINES_*. ukasan.log_sink's are
 * report/'s (SINK_*, report/sink.h), as its words are (CHOICES_FROM). */
#define OPTION_IDS_UINT(...)
#define OPTION_IDS_SIZE(...)
#define OPTION_IDS_AUTO(...)
#define OPTION_IDS_BOOL(...)
#define OPTION_IDS_PATH(...)
#define OPTION_IDS_ENUM(field, ...) enum { __VA_ARGS__ option_ids_end_##field };
#define CHOICE(id, word)            id,
#define CHOICES_FROM(file)
#define OPTION(group, name, field, type, def, min, max, choices, ...)                              \
	OPTION_IDS_##type(field, choices)
#include "options.inc"

/* The paths' size, the terminating zero included. */
#define OPTION_PATH_MAX 256

/* One member per row of options.inc, named by its FIELD: an unsigned long
 * (a BOOL, an ENUM's index, a number), or a path. */
#define OPTION_STORE_UINT(field) unsigned long field
#define OPTION_STORE_SIZE(field) unsigned long field
#define OPTION_STORE_AUTO(field) unsigned long field
#define OPTION_STORE_BOOL(field) unsigned long field
#define OPTION_STORE_ENUM(field) unsigned long field
#define OPTION_STORE_PATH(field) char field[OPTION_PATH_MAX]
struct options {
#define OPTION(group, name, field, type, ...) OPTION_STORE_##type(field);
#include "options.inc"
	/* ASAN_OPTIONS named the log file: a tool reads it as ASan's, and
	 * reports end with ASan's lines (report/asan_lines.c). */
	int asan_log_lines;
};

extern RT_HIDDEN struct options opt;

/* opt.kmemleak: any nonzero value is on. The default is on in programs
 * built with ukasan-cc, where it costs nothing; under the preload the
 * registry it needs costs a stack capture per allocation, so only a value
 * set by the user (UKASAN_OPTIONS kmemleak=on, ASAN/LSAN_OPTIONS
 * detect_leaks=1) starts it there. */
enum { KMEMLEAK_SET_ON = 1, KMEMLEAK_DEFAULT_ON = 2 };

/* The words of an ENUM whose table row says CHOICES_FROM (a layer above
 * owns them): "w1 w2 ...", in the order of their indices, and what each
 * is, "w1 (what); w2 (what); ...", for help=1. Made at start, before
 * options_read, by the layer that owns them; static strings. */
void option_choices_register(const char *name, const char *words, const char *meanings);

/* Parse a string of options; bad words get one "ukasan:" line each and keep
 * their defaults. Never allocates. */
void options_parse(const char *text);
/* The built-in defaults, then ASAN_OPTIONS's keys, then UKASAN_OPTIONS's,
 * each overriding what came before. */
void options_read(void);

#endif
