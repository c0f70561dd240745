/* One report record, as the kernel's struct kasan_report_info: a fault (a
 * check, a signal, a free) fills it (report.c, with the mode's describe),
 * and printers read nothing else (report_text.c: the kernel's text). */
#ifndef UKASAN_KASAN_REPORT_H
#define UKASAN_KASAN_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "../stack/stack.h"

enum report_kind {
	REPORT_ACCESS, /* a bad access, from a check or a tag fault */
	REPORT_FREE,   /* a double or invalid free */
	REPORT_ASYNC,  /* hardware tags' asynchronous fault: no address */
	REPORT_WILD,   /* an access to the shadow itself */
	REPORT_OOPS,   /* a fault no check could see, that ends the program */
	REPORT_PAIR,   /* two addresses that must not go together: overlapping copies,
	                  pointers into different objects compared */
	REPORT_ALLOC,  /* an allocation request the allocator refused */
};

/* What the buggy address belongs to. */
enum report_where { WHERE_NONE, WHERE_HEAP, WHERE_GLOBAL, WHERE_STACK };

struct report_track {
	int present;
	uint32_t tid;
	depot_handle_t stack;
};

#define REPORT_ROWS 5 /* of the memory table: two either side of the bad one */

struct kasan_report_info {
	enum report_kind kind;
	const char *bug_type;
	uintptr_t addr, first_bad;
	size_t size;
	int write;
	/* The stack; exact: pcs[0] is the faulting pc, not a return address. */
	uintptr_t pcs[STACK_MAX_FRAMES];
	int npcs, exact;
	char function[256]; /* the title's: the function that made the access */
	char comm[16];
	/* REPORT_ALLOC's request, or what a REPORT_FREE compared (allocating
	 * and freeing families, sizes, alignments); empty: none. */
	char detail[192];
	int tid, cpu;
	unsigned uid;

	int has_tags; /* the tag modes: the pointer's and the memory's tags */
	uint8_t ptr_tag, mem_tag;

	enum report_where where;
	struct {
		uintptr_t start;
		size_t size;
		int api, large, freed;
		struct report_track alloc, free;
	} object;
	struct {
		const char *name, *file;
		uintptr_t beg;
		size_t size_with_redzone;
		int line;
	} global;
	struct {
		char comm[16];
		int tid;
		int known; /* the frame's base was found: the fields below are set */
		uintptr_t offset;
		char function[256];
		/* The compiler's description of its objects ("2 32 4 1 a ..."),
		 * read by frame_object_next. */
		char objects[1024];
	} frame;

	int has_memory;
	unsigned granule;
	struct {
		int valid;
		uintptr_t addr;
		uint8_t bytes[16];
	} rows[REPORT_ROWS]; /* rows[2] holds first_bad */

	/* REPORT_OOPS and REPORT_WILD: the fault. */
	uintptr_t pc;
	int sig, si_code;
	unsigned long error_code;

	/* REPORT_PAIR: the second range (size 0: a pointer) and what it
	 * belongs to. */
	uintptr_t addr2;
	size_t size2;
	const struct kasan_report_info *other;
	/* REPORT_OOPS: the stack ran into its guard; [stack_lo, stack_hi). */
	int stack_overflow;
	uintptr_t stack_lo, stack_hi;
	/* REPORT_OOPS: the faulting instruction is this library's. */
	int in_runtime;
};

/* Fill r with what addr belongs to (r->where), as a report would, without
 * a report; 0 when KASAN is off (describe.c). */
int kasan_describe(uintptr_t addr, struct kasan_report_info *r);
/* The last KASAN report's record; NULL before the first (report.c). */
const struct kasan_report_info *kasan_last_report(void);

/* One object of a frame's description: *d is advanced past it; 0 at the
 * end or where the text is not the compiler's. */
struct frame_object {
	unsigned long beg, end;
	char name[128];
};
int frame_count(const char **d, unsigned long *n);
int frame_object_next(const char **d, struct frame_object *o);

/* The compiler's magic word at the base of every instrumented frame. */
#define FRAME_MAGIC 0x41b58ab3ul

/* Around a report printed without the record: enter answers 0 when none
 * may start now (one is in progress, or printed and not multi-shot). */
int kasan_report_enter(void);
void kasan_report_leave(void);

/* The printer: the kernel's text, between its two rules. */
void kasan_print_report(const struct kasan_report_info *r);
/* The record the report service ends the report with (report_json.c):
 * the signature, DEDUP token, JSON line and ASan's lines read it. */
struct report_record;
void kasan_fill_record(const struct kasan_report_info *r, struct report_record *out);

/* AddressSanitizer's name for the bug ("heap-buffer-overflow" for
 * slab-out-of-bounds, "SEGV" for an oops), for the lines in ASan's form:
 * a reader of ASan's reports then gives one bug one type under either. */
const char *kasan_asan_name(const struct kasan_report_info *r);

/* For the modes' describe: a fake stack frame's owner and base (NULL when
 * not known); 0 when addr is in no fake stack (fake_stack.c). */
int kasan_find_fake_frame(uintptr_t addr, char comm[16], int *tid, const uintptr_t **frame);

#endif
