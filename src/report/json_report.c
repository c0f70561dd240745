/* The JSON line of a report (json_report.h). Its frames are the text's,
 * symbolized once (frames.h), in parts; under the report lock, so the
 * buffers are static (a signal stack is small). */
#include "json_report.h"

#include <string.h>

#include "json.h"
#include "../config/log.h"
#include "../config/option_table.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../symbolize/symbolize.h"
#include "frames.h"
#include "report.h"

#define SCHEMA_VERSION  1
#define JSON_FRAMES_MAX 32 /* of each stack, so that a line fits its buffer */

static const char *const stack_names[REPORT_STACKS] = {"access", "alloc", "free"};

static const char *mode = "kfence";

void json_report_set_mode(const char *m)
{
	mode = m;
}

/* One frame: the real function's (inl < 0), or the inl-th function
 * inlined at pc, innermost first, with the same pc. */
static void frame(struct json *j, uintptr_t pc, int exact, int inl, int ninl)
{
	static struct sym_info s;
	json_object(j, NULL);
	json_hex(j, "pc", pc);
	int found = report_frame_info(pc, exact, inl, &s);
	if (found) {
		json_string(j, "module", s.module);
		if (s.build_id[0])
			json_string(j, "build_id", s.build_id);
		else
			json_null(j, "build_id");
		json_hex(j, "offset", s.module_offset);
	} else {
		json_null(j, "module");
		json_null(j, "build_id");
		json_null(j, "offset");
	}
	if (s.function[0])
		json_string(j, "function", s.function);
	else
		json_null(j, "function");
	if (s.file[0]) {
		json_string(j, "file", s.file);
		json_int(j, "line", s.line);
	} else {
		json_null(j, "file");
		json_null(j, "line");
	}
	/* true for a function inlined at pc, false for the one it is inlined
	 * in; null for a frame with none (not known to be anything else) */
	if (inl >= 0 || ninl > 0)
		json_bool(j, "inlined", inl >= 0);
	else
		json_null(j, "inlined");
	json_close(j);
}

static void stacks(struct json *j, const struct report_record *r)
{
	json_object(j, "stacks");
	for (int s = 0; s < REPORT_STACKS; s++) {
		if (!r->stacks[s].pcs || !r->stacks[s].n) {
			json_null(j, stack_names[s]);
			continue;
		}
		json_array(j, stack_names[s]);
		/* inlined functions are frames of their own, first */
		for (int i = 0, shown = 0; i < r->stacks[s].n && shown < JSON_FRAMES_MAX; i++) {
			uintptr_t pc = r->stacks[s].pcs[i];
			int exact = i == 0 && r->stacks[s].exact;
			int ninl = sym_inlined_count(pc, exact);
			for (int k = 0; k < ninl && shown < JSON_FRAMES_MAX; k++, shown++)
				frame(j, pc, exact, k, ninl);
			if (shown < JSON_FRAMES_MAX)
				frame(j, pc, exact, -1, ninl);
			shown++;
		}
		json_close(j);
	}
	json_close(j);
}

static void object(struct json *j, const struct report_record *r)
{
	if (!r->region) {
		json_null(j, "object");
		return;
	}
	json_object(j, "object");
	json_string(j, "region", r->region);
	json_string(j, "cache", r->cache);
	json_string(j, "name", r->name);
	if (r->has_object) {
		json_hex(j, "address", r->object_addr);
		json_uint(j, "size", r->object_size);
	} else {
		json_null(j, "address");
		json_null(j, "size");
	}
	if (r->has_offset)
		json_int(j, "offset", r->offset);
	else
		json_null(j, "offset");
	json_close(j);
}

/* An ENUM option's value, as its word in options.inc. */
static void json_choice(struct json *j, const char *name, unsigned long v)
{
	char word[32];
	const struct option_desc *d = option_named(name, strlen(name));
	json_string(j, name, d ? option_choice_word(d, v, word, sizeof(word)) : "");
}

/* The options a reader needs to know what the run could see. */
static void options(struct json *j)
{
	json_object(j, "options");
	json_choice(j, "kasan.fault", opt.kasan_fault);
	json_choice(j, "kfence.fault", opt.kfence_fault);
	json_uint(j, "kfence.sample_interval", opt.kfence_sample_interval);
	json_uint(j, "kfence.sample_rate", opt.kfence_sample_rate);
	json_uint(j, "kfence.process_sample", opt.kfence_process_sample);
	json_bool(j, "kasan_multi_shot", (int)opt.kasan_multi_shot);
	json_choice(j, "kasan.mode", opt.kasan_hw_mode);
	json_bool(j, "kasan.stacktrace", (int)opt.kasan_stacktrace);
	json_bool(j, "kasan.stack_use_after_return", (int)opt.kasan_stack_use_after_return);
	json_bool(j, "kmemleak", (int)opt.kmemleak);
	json_bool(j, "ukasan.symbolize", (int)opt.symbolize);
	json_choice(j, "ukasan.report_format", opt.report_format);
	json_close(j);
}

void json_report_emit(const struct report_record *r, uint64_t sig)
{
	static char line[60000];
	const char *access = r->access;
	struct json j;
	char hex[40];
	json_begin(&j, line, sizeof(line) - 32);
	json_uint(&j, "schema", SCHEMA_VERSION);
	json_string(&j, "tool", r->tool);
	json_string(&j, "mode", mode);
	json_string(&j, "bug_type", r->bug_type);
	json_string_hidden(&j, "title", report_title_line());
	fmt_buf(hex, sizeof(hex), "%016llx", (unsigned long long)sig);
	json_string(&j, "signature", hex);
	if (access) {
		json_object(&j, "access");
		json_string(&j, "type", access);
		if (r->size)
			json_uint(&j, "size", r->size);
		else
			json_null(&j, "size");
		json_hex(&j, "address", r->addr);
		json_close(&j);
	} else {
		json_null(&j, "access");
	}
	object(&j, r);
	json_string(&j, "detail", r->detail);
	if (r->objects)
		json_uint(&j, "objects", r->objects);
	stacks(&j, r);
	json_object(&j, "task");
	json_int(&j, "pid", os_pid());
	json_int(&j, "tid", r->tid);
	json_string(&j, "comm", r->comm);
	json_close(&j);
	fmt_time(hex, sizeof(hex), os_realtime_ns());
	json_string(&j, "time", hex);
	json_uint(&j, "report", reports_printed() + 1);
	options(&j);
	size_t n = json_end(&j);
	/* A line cut short says so, in the room kept for it. */
	if (j.truncated && n > 1)
		n = n - 1 + fmt_buf(line + n - 1, sizeof(line) - (n - 1), ",\"truncated\":true}");
	report_json_line(line, n);
}
