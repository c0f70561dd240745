#!/usr/bin/env python3
"""The bug corpus (bench/corpus/, see bench/run_corpus.py) under generic
KASAN: every program built with ukasan-cc / ukasan-c++, with gcc at -O1 and
with clang-16 at -O2 -D_FORTIFY_SOURCE=2 (UKASAN_CORPUS_BUILDS=all: both
compilers at both), and run. Each bad program must be reported with its
bug's class:

    CWE-121 122 124 126 127 787   an out-of-bounds type (slab-, stack-,
                                  global-, alloca-out-of-bounds)
    CWE-415                       double-free
    CWE-416                       use-after-free (slab-use-after-free)
    CWE-590 761                   invalid-free

and no good twin may report anything or exit non-zero.

Bad programs that ukasan misses today are not hidden: they are listed in
EXPECTED_MISS below, each with the builds it misses in and the reason, and
their lines say "expected miss". A listed program that is detected fails
the check, so that the table is kept true: take it out of the table.

One line per program: "ok NAME: ..." or "not ok NAME - why". Runs use
kfence.sample_interval=0 (KASAN's own reports, as tests/run.py does for
generic-mode tests; KFENCE has its own tests) and ukasan.symbolize=off
(the class is in the title; file:line would cost a symbolizer start per
report). Built in $UKASAN_TEST_TMP/corpus (or a temporary directory), two at
a time.
"""
import os
import shutil
import sys
import tempfile

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
sys.path.insert(0, os.path.join(ROOT, "bench"))
import run_corpus as rc  # noqa: E402

JOBS = 2
RUN_ENV = {"UKASAN_OPTIONS": "kfence.sample_interval=0 ukasan.symbolize=off"}

# The bug class each CWE must be reported as: a test on the KASAN title.
OOB = ("out-of-bounds", lambda t: t.endswith("out-of-bounds"))
CLASS = {
    "121": OOB, "122": OOB, "124": OOB, "126": OOB, "127": OOB, "787": OOB,
    "415": ("double-free", lambda t: t == "double-free"),
    "416": ("use-after-free", lambda t: t.endswith("use-after-free")),
    "590": ("invalid-free", lambda t: t == "invalid-free"),
    "761": ("invalid-free", lambda t: t == "invalid-free"),
}

# The builds: compiler and configuration. make test runs two of them, each
# compiler once and each configuration once (a quarter of the suite's time
# went to the four); UKASAN_CORPUS_BUILDS=all runs all four, as make bench's
# run_corpus.py does beside ASan.
BUILDS = [("gcc", "O1"), ("gcc", "O2F"), ("clang", "O1"), ("clang", "O2F")]
DEFAULT_BUILDS = [("gcc", "O1"), ("clang", "O2F")]
ALL = {f"{c}-{o}" for c, o in BUILDS}
GCC = {"gcc-O1", "gcc-O2F"}
CLANG = {"clang-O1", "clang-O2F"}

# Bad programs ukasan does not report today: program -> (builds, reason), or
# a list of them when the reason differs between builds.
# The reasons start "ASAN CATCHES IT" when AddressSanitizer with the same
# compiler and configuration reports the program (bench/run_corpus.py
# measures it): those are the ones to fix. The others ASan misses too.

# ASan catches these; ukasan does not.
SEGV = ("ASAN 'CATCHES' IT ONLY AS A SEGV from its signal handler: the overflow "
        "stays inside the struct (intra-object: no redzone between fields, for "
        "either tool) and overwrites a pointer that is then dereferenced; ukasan "
        "prints the kernel's oops for it (general protection fault, with the "
        "trace), not a KASAN report of an out-of-bounds access")
# Neither tool catches these.
DELETED = ("asan misses it too: the compiler deletes or folds the bad access "
           "(stores to memory never read again or freed next, a constant index "
           "it treats as undefined behaviour, an allocation it removes)")
NO_FREE = ("asan misses it too: the compiler removes the allocation and its "
           "frees (the memory is only used locally)")
GLOBAL_LEFT = ("asan misses it too: globals have redzones on their right only, so "
               "an access just before one lands in the previous global or padding "
               "(with _FORTIFY_SOURCE glibc's __memset_chk may abort)")
INLINE_MEMCPY_STACK = ("asan misses it too: gcc expands the constant-size memcpy "
                       "inline and checks its first and last byte only; the last "
                       "lands in another variable")
FAR_LEFT = ("asan misses it too: the read starts 32 bytes before the object, past "
            "the left redzone either tool keeps, and wcsncpy stops at the first "
            "L'\\0' there")
MEMCMP_INLINE = ("asan misses it too: gcc -O2 expands memcmp(...) == 0 of a constant "
                 "size inline, after instrumentation")

EXPECTED_MISS = {
    "cwe121_02_int_declare_index_large_bad": ({"clang-O2F"}, DELETED),
    "cwe121_03_int_declare_index_from_string_bad": ({"clang-O2F"}, DELETED),
    "cwe121_04_int_2d_array_row_loop_bad": ({"clang-O2F"}, DELETED),
    "cwe121_05_struct_declare_loop_off_by_one_bad": ({"clang-O2F"}, DELETED),
    "cwe121_21_int_alloca_loop_sizeof_bad": (CLANG, DELETED),
    "cwe121_22_int_alloca_memcpy_sizeof_bad": ({"gcc-O1", "gcc-O2F", "clang-O1"}, DELETED),
    "cwe121_23_int_declare_memcpy_bad": ({"clang-O1"}, DELETED),
    "cwe121_24_int64_declare_loop_bad": (CLANG, DELETED),
    "cwe121_25_struct_declare_memmove_bad": ({"clang-O1"}, DELETED),
    "cwe121_40_char_sink_pointer_copy_bad": ({"clang-O1"}, DELETED),
    "cwe121_41_char_type_overrun_memcpy_bad": (ALL, SEGV),
    "cwe121_42_char_type_overrun_memmove_bad": (ALL, SEGV),
    "cwe121_43_placement_new_declare_bad": (CLANG, DELETED),
    "cwe121_44_placement_new_array_bad": ({"clang-O2F"}, DELETED),
    "cwe121_45_std_array_data_memcpy_bad": ({"clang-O1"}, DELETED),
    "cwe121_48_class_array_loop_off_by_one_bad": ({"clang-O2F"}, DELETED),
    "cwe122_13_int_malloc_loop_sizeof_bad": (CLANG, NO_FREE),
    "cwe122_14_int_malloc_memcpy_sizeof_bad": ({"gcc-O1", "gcc-O2F", "clang-O1"}, DELETED),
    "cwe122_20_int_malloc_index_large_bad": ({"clang-O2F"}, DELETED),
    "cwe122_21_int_malloc_index_from_string_bad": ({"clang-O2F"}, DELETED),
    "cwe122_26_int64_calloc_loop_bad": (CLANG, NO_FREE),
    "cwe122_29_int_realloc_grow_wrong_count_bad": ({"clang-O2F"}, DELETED),
    "cwe122_34_struct_flexible_array_size_bad": ({"clang-O2F"}, DELETED),
    "cwe122_38_int_new_array_loop_off_by_one_bad": ({"clang-O2F"}, DELETED),
    "cwe122_41_vector_data_memcpy_bad": ({"clang-O1"}, DELETED),
    "cwe122_43_vector_index_past_size_bad": (CLANG, DELETED),
    "cwe122_46_placement_new_malloc_bad": (ALL, DELETED),
    "cwe124_14_int_declare_negative_index_bad": ({"clang-O2F"}, DELETED),
    "cwe124_15_int_malloc_negative_index_bad": ({"clang-O2F"}, DELETED),
    "cwe124_16_char_global_memset_before_bad": (ALL, GLOBAL_LEFT),
    "cwe124_17_int_static_negative_index_bad": (ALL, GLOBAL_LEFT),
    "cwe126_10_int_declare_index_read_bad": (CLANG, DELETED),
    "cwe126_12_int_global_sum_off_by_one_bad": ({"clang-O2F"}, DELETED),
    "cwe126_19_char_malloc_memcmp_past_end_bad": ({"gcc-O2F"}, MEMCMP_INLINE),
    "cwe126_27_vector_data_memcpy_read_bad": (CLANG, DELETED),
    "cwe126_29_std_string_data_memcpy_bad": (GCC, INLINE_MEMCPY_STACK),
    "cwe126_30_std_array_index_read_bad": ({"clang-O2F"}, DELETED),
    "cwe127_01_char_declare_memcpy_bad": (CLANG, DELETED),
    "cwe127_02_char_declare_loop_bad": (CLANG, DELETED),
    "cwe127_05_char_alloca_memcpy_bad": (CLANG, DELETED),
    "cwe127_10_wchar_t_malloc_wcsncpy_bad": (ALL, FAR_LEFT),
    "cwe127_12_int_declare_negative_index_read_bad": (CLANG, DELETED),
    "cwe127_14_char_global_memcpy_before_bad": (ALL, GLOBAL_LEFT),
    "cwe127_16_char_static_previous_line_bad": (CLANG, DELETED),
    "cwe415_02_int_malloc_alias_bad": ({"clang-O2F"}, NO_FREE),
    "cwe415_03_struct_free_in_sink_bad": (CLANG, NO_FREE),
    "cwe415_09_int_calloc_array_of_pointers_bad": ({"clang-O2F"}, NO_FREE),
    "cwe415_10_char_malloc_large_free_twice_bad": ({"clang-O2F"}, NO_FREE),
    "cwe415_11_aligned_alloc_free_twice_bad": (CLANG, NO_FREE),
    "cwe415_13_new_delete_twice_bad": (ALL, NO_FREE),
    "cwe415_14_new_array_delete_twice_bad": ({"clang-O2F"}, NO_FREE),
    "cwe415_16_class_no_assignment_operator_bad": (CLANG, NO_FREE),
    "cwe415_17_unique_ptr_and_delete_bad": (CLANG, NO_FREE),
    "cwe415_18_two_unique_ptrs_same_pointer_bad": (CLANG, NO_FREE),
    "cwe416_02_int_malloc_write_after_free_bad": (ALL, DELETED),
    "cwe416_03_char_malloc_memcpy_into_freed_bad": (GCC | {"clang-O2F"}, DELETED),
    "cwe416_06_char_malloc_strcpy_into_freed_bad": (GCC | {"clang-O2F"}, DELETED),
    "cwe416_10_char_realloc_old_pointer_bad": ({"clang-O2F"}, DELETED),
    "cwe416_12_struct_field_write_after_free_bad": (GCC, DELETED),
    "cwe416_14_char_malloc_memset_after_free_bad": (GCC | {"clang-O2F"}, DELETED),
    "cwe416_25_unique_ptr_get_after_reset_bad": (CLANG, NO_FREE),
    "cwe761_05_struct_field_pointer_free_bad": (CLANG, NO_FREE),
    "cwe761_06_int_calloc_middle_free_bad": (CLANG, NO_FREE),
    "cwe761_09_char_large_middle_free_bad": (CLANG, NO_FREE),
    "cwe761_11_new_array_plus_offset_delete_bad": ({"clang-O2F"}, NO_FREE),
    "cwe761_13_delete_member_of_new_object_bad": (CLANG, NO_FREE),
    "cwe787_02_int_global_loop_off_by_one_bad": ({"clang-O2F"}, DELETED),
}


def label(compiler, opt):
    return f"{compiler}-{opt}"


def main():
    tmp_root = os.environ.get("UKASAN_TEST_TMP")
    if tmp_root:
        out = os.path.join(tmp_root, "corpus")
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
    else:
        out = tempfile.mkdtemp(prefix="ukasan-corpus-")
    tools = {t.compiler: t for t in rc.tools(os.path.join(BUILD, "bin")) if t.ukasan}
    progs = rc.programs()
    misses = {}  # (program, build) -> reason
    for name, entries in EXPECTED_MISS.items():
        if not any(p.name == name for p in progs):
            print(f"not ok EXPECTED_MISS - {name} is not in the corpus")
        for bs, why in entries if isinstance(entries, list) else [entries]:
            for b in bs:
                misses[(name, b)] = why
    missing = [c for c, _ in BUILDS if c not in tools]
    for c in sorted(set(missing)):
        print(f"not ok corpus [{c}] - {c} is not installed")
    want = os.environ.get("UKASAN_CORPUS_BUILDS", "")
    chosen = (BUILDS if want == "all" else
              [b for b in BUILDS if label(*b) in want.split()] if want else DEFAULT_BUILDS)
    if not chosen:
        print(f"not ok corpus - UKASAN_CORPUS_BUILDS={want!r} names no build of "
              f"{', '.join(sorted(ALL))} (or all)")
        return 0
    builds = [(c, o) for c, o in chosen if c in tools]
    r = {}
    for c in sorted({c for c, _ in builds}):
        r.update(rc.run_matrix(progs, [tools[c]], sorted({o for cc, o in builds if cc == c}), out,
                               JOBS, run_env=RUN_ENV, keep=False, progress=False))
    compiler = {t.key: t.compiler for t in tools.values()}
    results = {(name, label(compiler[key], o)): outcome for (name, key, o), outcome in r.items()}
    counts = {"detected": 0, "expected": 0, "asan": 0}
    for p in progs:
        problems, notes, seen = [], {}, set()
        for c, o in builds:
            b = label(c, o)
            res = results[(p.name, b)]
            if not res.built:
                problems.append(f"{b}: did not build: {res.build_err.strip()[-300:]}")
                continue
            if not p.bad:
                if res.report:
                    problems.append(f"{b}: false alarm: {res.report} in {res.frame}")
                elif res.status != 0:
                    problems.append(f"{b}: exited {res.status}"
                                    f"{' (' + res.crash() + ')' if res.crash() else ''}"
                                    f"{' (glibc fortify abort)' if res.fortify else ''}")
                continue
            want, ok = CLASS[p.cwe]
            if (p.name, b) in misses:
                if res.report:
                    problems.append(f"{b}: detected now ({res.report}): take it out of "
                                    f"EXPECTED_MISS")
                else:
                    notes.setdefault(misses[(p.name, b)], []).append(b)
                    counts["expected"] += 1
                    counts["asan"] += misses[(p.name, b)].startswith("ASAN")
                continue
            if not res.report:
                tail = " | ".join(res.err.strip().splitlines()[-2:])[:200]
                how = res.crash() or ("glibc fortify abort" if res.fortify else
                                      f"exit {res.status}")
                problems.append(f"{b}: no report ({how}){': ' + tail if tail else ''}")
            elif not ok(res.report):
                problems.append(f"{b}: reported {res.report} in {res.frame}, expected {want}")
            else:
                seen.add(res.report)
                counts["detected"] += 1
        if problems:
            print(f"not ok {p.name} - " + "; ".join(problems))
        elif p.bad:
            what = ", ".join(sorted(seen)) or "not detected"
            expected = "; ".join(f"expected miss in {', '.join(bs)}: {why}"
                                 for why, bs in notes.items())
            print(f"ok {p.name}: {what}" + (f" # {expected}" if expected else ""))
        else:
            print(f"ok {p.name}: no report")
    nbad = sum(p.bad for p in progs) * len(builds)
    print(f"ok corpus summary: of {nbad} builds of bad programs, {counts['detected']} "
          f"detected with their class, {counts['expected']} expected misses "
          f"({counts['asan']} of them caught by ASan)")
    if not tmp_root:
        shutil.rmtree(out, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
