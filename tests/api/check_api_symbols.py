#!/usr/bin/env python3
"""Every function that <sanitizer/asan_interface.h>,
<sanitizer/common_interface_defs.h>, <sanitizer/lsan_interface.h> (and
clang's <sanitizer/allocator_interface.h>, <sanitizer/coverage_interface.h>
and <sanitizer/linux_syscall_hooks.h>, whose macros call its functions)
declare, as gcc 12 and clang 16 ship them, is defined by libukasan.so, or is a hook the program itself
provides; the system-call hooks by libukasan_syscall_hooks.a, which ukasan-cc
links into what calls them. The names are read from the headers, so a newer header's
functions show up here as missing rather than as a link error in a user's
build."""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIB = os.path.join(ROOT, "build", "lib", "libukasan.so")
HOOKS_LIB = os.path.join(ROOT, "build", "lib", "libukasan_syscall_hooks.a")
HOOKS_HEADER = "linux_syscall_hooks.h"
DIRS = {
    "gcc": "/usr/lib/gcc/x86_64-linux-gnu/12/include/sanitizer",
    "clang": "/usr/lib/llvm-16/lib/clang/16/include/sanitizer",
}
HEADERS = ["asan_interface.h", "common_interface_defs.h", "lsan_interface.h",
           "allocator_interface.h", "coverage_interface.h", "linux_syscall_hooks.h"]
# Defined by the program, called by the runtime (or by nobody here): the
# headers declare them so that the program's definition has the right type.
USER_HOOKS = {
    "__asan_default_options", "__asan_on_error", "__lsan_default_options",
    "__lsan_default_suppressions", "__lsan_is_turned_off",
    "__sanitizer_malloc_hook", "__sanitizer_free_hook",
    "__sanitizer_weak_hook_memcmp", "__sanitizer_weak_hook_strcmp",
    "__sanitizer_weak_hook_strncmp", "__sanitizer_weak_hook_strcasecmp",
    "__sanitizer_weak_hook_strncasecmp", "__sanitizer_weak_hook_strstr",
    "__sanitizer_weak_hook_strcasestr", "__sanitizer_weak_hook_memmem",
}
# A macro, not a function.
MACROS = {"__sanitizer_return_address"}
DECL = re.compile(r"\b(__(?:asan|lsan|sanitizer)_\w+)\s*\(")


def declared(path):
    text = open(path).read()
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"#\s*define[^\n]*(\\\n[^\n]*)*", "", text)
    return set(DECL.findall(text))


def main():
    for lib in (LIB, HOOKS_LIB):
        if not os.path.exists(lib):
            print(f"not ok api symbols - {lib} is not built")
            return 1

    def defined_in(args):
        out = subprocess.run(["nm", "--defined-only"] + args, capture_output=True, text=True,
                             check=True).stdout
        return {p[-1] for p in (line.split() for line in out.splitlines())
                if len(p) == 3 and p[1] in "TWDB"}

    in_lib = defined_in(["-D", LIB])
    in_hooks = defined_in([HOOKS_LIB])
    failed = 0
    for cc, d in DIRS.items():
        for h in HEADERS:
            path = os.path.join(d, h)
            if not os.path.exists(path):
                continue  # gcc ships no allocator_interface.h
            names = declared(path) - MACROS
            defined, where = (in_hooks, HOOKS_LIB) if h == HOOKS_HEADER else (in_lib, LIB)
            missing = sorted(n for n in names if n not in defined and n not in USER_HOOKS)
            ours = sorted(n for n in names & USER_HOOKS if n in defined)
            name = f"api symbols {cc} {h}"
            if not names:
                print(f"not ok {name} - no function found in the header: the pattern is stale")
                failed += 1
            elif missing:
                print(f"not ok {name} - not in {os.path.basename(where)}: {' '.join(missing)}")
                failed += 1
            elif ours:
                print(f"not ok {name} - the program's hooks defined by the runtime: "
                      f"{' '.join(ours)}")
                failed += 1
            else:
                print(f"ok {name} ({len(names)} functions)")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
