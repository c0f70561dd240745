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

__attribute__((noinline)) static void c_leak(void)
{
	kept = malloc(48);
	kept = 0;
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
