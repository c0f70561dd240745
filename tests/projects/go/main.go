// A Go program with C in it (cgo), for tests/projects/check_go.py: the
// argument chooses a bug in the C half, one in the Go half's use of C
// memory (seen only by go build -asan), a leak in C, C memory that only
// the Go heap holds (no leak), or none.
package main

/*
#include <stdlib.h>

__attribute__((noinline)) static int c_overflow(int i)
{
	char *volatile p = malloc(10);
	p[i] = 1;
	int r = p[0];
	free(p);
	return r;
}

static char *c_buffer(void) { return malloc(8); }

static void *volatile kept;

// The thread's stack below c_leak, where malloc's frames left copies of
// the pointer, cleared: a conservative scan reads another thread's stack
// from its stack pointer up, and Go may run the leak check on another
// thread than this one (main's goroutine moves when a system call holds
// its thread long, under load), whose own stack pointer, parked, may lie
// below those dead frames (the check missed this leak in one loaded CI
// run). Not instrumented: its buffer must be on this stack, not on a fake
// one.
__attribute__((noinline, no_sanitize_address)) static void c_scrub(void)
{
	volatile char buf[32768];
	for (unsigned i = 0; i < sizeof(buf); i++)
		buf[i] = 0;
}

__attribute__((noinline)) static void c_leak(void)
{
	kept = malloc(48);
	kept = 0;
	c_scrub();
}
*/
import "C"

import (
	"fmt"
	"os"
	"unsafe"
)

func goOverflow() {
	p := C.c_buffer()
	s := unsafe.Slice((*byte)(unsafe.Pointer(p)), 16)
	s[12] = 7 // GO-OVERFLOW-LINE
	C.free(unsafe.Pointer(p))
}

type holder struct {
	pad [64]byte
	p   unsafe.Pointer
}

// Reached from a global through the Go heap only: no leak.
var held *holder

func main() {
	what := ""
	if len(os.Args) > 1 {
		what = os.Args[1]
	}
	switch what {
	case "c":
		fmt.Println(C.c_overflow(10))
	case "go":
		goOverflow()
	case "leak":
		C.c_leak()
	case "held":
		held = &holder{p: unsafe.Pointer(C.c_buffer())}
	}
	fmt.Println("done")
}
