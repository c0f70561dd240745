/* Fibers on makecontext/swapcontext, annotated as ASan documents: before
 * swapcontext, __sanitizer_start_switch_fiber with the destination stack's
 * bottom and size (and where to keep the fake stack of the fiber being
 * left, or NULL when it is left for good); on the destination, once running,
 * __sanitizer_finish_switch_fiber with the fake stack it kept.
 *
 * With -DFIBER_UNANNOTATED the two calls are left out, to show what they
 * are for (tests/api/fiber.c says what then goes wrong). */
#ifndef FIBER_H
#define FIBER_H

#define _GNU_SOURCE
#include <sanitizer/common_interface_defs.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <ucontext.h>

#ifdef FIBER_UNANNOTATED
#define fiber_start(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#define fiber_finish(save, bottom, size) ((void)(save), (void)(bottom), (void)(size))
#else
#define fiber_start  __sanitizer_start_switch_fiber
#define fiber_finish __sanitizer_finish_switch_fiber
#endif

#define FAIL_IF(c)                                                                                 \
	do {                                                                                       \
		if (c) {                                                                           \
			fprintf(stderr, "FAIL line %d: %s\n", __LINE__, #c);                     \
			exit(3);                                                                   \
		}                                                                                  \
	} while (0)

struct fiber {
	ucontext_t ctx;
	char *stack; /* bottom; main's comes from the first finish */
	size_t size;
	void *fake; /* its fake stack while it is switched out */
};

static struct fiber main_fiber;
static struct fiber *volatile current = &main_fiber, *volatile previous;
/* A frame of the last switch made on main's stack. */
static char *volatile main_frame;

/* On the fiber just switched to: the switch is done. The bounds of the
 * stack left behind come back; main's are learnt this way. */
__attribute__((noinline)) static void fiber_arrived(void)
{
	const void *old_bottom = NULL;
	size_t old_size = 0;
	fiber_finish(current->fake, &old_bottom, &old_size);
#ifndef FIBER_UNANNOTATED
	if (previous == &main_fiber && !main_fiber.stack) {
		main_fiber.stack = (char *)old_bottom;
		main_fiber.size = old_size;
	}
	/* main's bounds are its stack's, wherever the runtime first looked */
	FAIL_IF(previous == &main_fiber &&
	        (main_frame < main_fiber.stack || main_frame >= main_fiber.stack + main_fiber.size));
	/* ASan's answer: the stack left is the one the switch said it was. */
	FAIL_IF((char *)old_bottom != previous->stack || old_size != previous->size);
#endif
}

/* leaving: the current fiber has ended and is never switched to again. */
__attribute__((noinline)) static void fiber_switch(struct fiber *to, int leaving)
{
	struct fiber *from = current;
	previous = from;
	if (from == &main_fiber)
		main_frame = __builtin_frame_address(0);
	current = to;
	fiber_start(leaving ? NULL : &from->fake, to->stack, to->size);
	swapcontext(&from->ctx, &to->ctx);
	fiber_arrived();
}

static void fiber_make(struct fiber *f, char *stack, size_t size, void (*fn)(void))
{
	FAIL_IF(getcontext(&f->ctx) != 0);
	f->stack = stack;
	f->size = size;
	f->fake = NULL;
	f->ctx.uc_stack.ss_sp = stack;
	f->ctx.uc_stack.ss_size = size;
	f->ctx.uc_link = NULL; /* fibers end with fiber_switch(..., 1) */
	makecontext(&f->ctx, fn, 0);
}

#endif
