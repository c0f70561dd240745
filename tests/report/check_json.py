#!/usr/bin/env python3
"""Machine-readable reports (ukasan.report_format, ukasan.json_path): every
kind of report ukasan prints has one JSON line that validates against
docs/report.schema.json, with the bug type its text names and the
signature its text's "signature:" line shows; generic KASAN's reports from
tests/report/_bugs.c (gcc and clang), KFENCE's from tests/kfence/ programs
under the preload, UBSAN's bounds and kmemleak's leak. The signature:
equal across 20 runs (ASLR), across rebuilds of the same source (another
-O, an unrelated object linked first that shifts every address), with
ukasan.symbolize=off, and different for two bugs in one function."""
import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "report_json")
CC = os.path.join(BUILD, "bin", "ukasan-cc")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
os.makedirs(T, exist_ok=True)

try:
    import jsonschema
except ImportError:  # tools/deps.sh installs python3-jsonschema
    jsonschema = None

# syzkaller's own parser (../shared/tools/README.md); absent in a user's clone.
SYZ = os.path.join(ROOT, "..", "shared", "tools", "syzkaller-titles")
if not os.access(SYZ, os.X_OK):
    print("# syzkaller-titles not found at %s: its checks are skipped" % SYZ)
    SYZ = None
SCHEMA = json.load(open(os.path.join(ROOT, "docs", "report.schema.json")))


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "report_json: " + name + ("" if good else " - " + str(why)))
    sys.stdout.flush()


def validate(line):
    """The problem with one line, or None."""
    try:
        doc = json.loads(line)
    except ValueError as e:
        return "not JSON: %s: %s" % (e, line[:200])
    if jsonschema is None:
        missing = [k for k in SCHEMA["required"] if k not in doc]
        return "missing %s" % missing if missing else None
    try:
        jsonschema.validate(doc, SCHEMA)
    except jsonschema.ValidationError as e:
        return "schema: %s at %s" % (e.message, list(e.absolute_path))
    return None


def build(name, src, compiler, flags, extra=()):
    exe = os.path.join(T, name)
    if compiler == "plain":
        cmd = ["gcc", "-g", "-O1", "-I" + os.path.join(ROOT, "include"), "-I" + os.path.join(ROOT, "tests")]
        env = dict(os.environ)
    else:
        cmd = [CC, "-g", "-fsanitize=pointer-compare"]
        env = dict(os.environ, UKASAN_CC=compiler)
    r = subprocess.run(cmd + flags + list(extra) + [src, "-o", exe], capture_output=True, text=True,
                       env=env, cwd=T)
    if r.returncode:
        ok("build " + name, False, r.stderr[-400:])
        return None
    return exe


def run(exe, args, options, preload=False, runner=()):
    """The JSON lines (from ukasan.json_path's file) and stderr of one run."""
    for f in glob.glob(os.path.join(T, "lines.*")):
        os.unlink(f)
    env = dict(os.environ)
    env.pop("ASAN_OPTIONS", None)
    env["UKASAN_OPTIONS"] = ("ukasan.report_format=both ukasan.json_path=%s kasan_multi_shot=1 "
                             "kasan.detect_invalid_pointer_pairs=1 %s" % (os.path.join(T, "lines"), options))
    if preload and runner:
        runner = list(runner) + ["-E", "LD_PRELOAD=" + preload]
    elif preload:
        env["LD_PRELOAD"] = LIB
    r = subprocess.run(list(runner) + [exe] + args, capture_output=True, text=True, env=env, timeout=120)
    lines = []
    for f in glob.glob(os.path.join(T, "lines.*")):
        lines += [l for l in open(f, errors="replace").read().splitlines() if l]
    return lines, r.stderr


def check(name, lines, err, bug_type, tool):
    """One report of bug_type by tool: valid, and the same as its text."""
    mine = [l for l in lines if ('"bug_type":"%s"' % bug_type) in l and ('"tool":"%s"' % tool) in l]
    if not mine:
        ok(name, False, "no %s line of %s among %d: %s\n%s" % (tool, bug_type, len(lines), lines[:2], err[-1500:]))
        return None
    problem = validate(mine[0])
    doc = json.loads(mine[0]) if problem is None else None
    if doc and "signature: %s" % doc["signature"] not in err:
        problem = "the text has no line 'signature: %s'" % doc["signature"]
    if doc and doc["title"].split(" in ")[0] not in err:
        problem = "title %r is not the text's" % doc["title"]
    if doc and not (doc["stacks"]["access"] or doc["stacks"]["alloc"]):
        problem = "no stack"
    if doc and SYZ:
        # The "signature:" line after the report must not change its title.
        t = subprocess.run([SYZ], input=err, capture_output=True, text=True).stdout.splitlines()
        if not t or any('"' in x or "signature" in x or "corrupted" in x for x in t):
            problem = "syzkaller's titles: %s" % t
    ok(name, problem is None, problem or "")
    return doc


GENERIC = [
    ("heap-oob", "slab-out-of-bounds"), ("heap-oob-read", "slab-out-of-bounds"),
    ("uaf", "slab-use-after-free"), ("double-free", "double-free"), ("invalid-free", "invalid-free"),
    ("stack-oob", "stack-out-of-bounds"), ("global-oob", "global-out-of-bounds"),
    ("overlap", "memcpy-param-overlap"), ("pointer-pair", "invalid-pointer-pair"),
    ("alloc", "calloc-overflow"), ("oops", "page-fault"),
]
src = os.path.join(ROOT, "tests", "report", "_bugs.c")
exes = {}
for cc in ("gcc", "clang-16"):
    exe = build("bugs_" + cc, src, cc, ["-O1"])
    exes[cc] = exe
    if not exe:
        continue
    for arg, bug in GENERIC:
        lines, err = run(exe, [arg], "kfence.sample_interval=0")
        doc = check("%s %s" % (cc, arg), lines, err, bug, "KASAN")
        if doc and arg == "heap-oob":
            ok("%s heap-oob fields" % cc,
               doc["access"]["type"] == "write" and doc["access"]["size"] == 1 and
               doc["object"]["region"] == "heap" and doc["object"]["size"] == 16 and
               doc["object"]["offset"] == 16 and doc["object"]["cache"] == "malloc" and
               doc["stacks"]["access"][0]["function"] == "heap_write" and
               doc["stacks"]["alloc"] and doc["mode"] == "generic" and doc["task"]["comm"],
               json.dumps(doc)[:600])
        if doc and arg == "uaf":
            ok("%s uaf has its free stack" % cc, bool(doc["stacks"]["free"]), json.dumps(doc)[:400])
    lines, err = run(exe, ["leak"], "kfence.sample_interval=0")
    doc = check("%s leak" % cc, lines, err, "memory-leak", "kmemleak")
    if doc:
        ok("%s leak's stack is the allocation's" % cc,
           doc["stacks"]["access"] is None and any(f["function"] == "leak" for f in doc["stacks"]["alloc"]),
           json.dumps(doc["stacks"])[:400])
    if cc == "clang-16":  # ukasan-cc asks clang for the bounds checks
        lines, err = run(exe, ["index"], "kfence.sample_interval=0")
        check("clang UBSAN bounds", lines, err, "array-index-out-of-bounds", "UBSAN")

# KFENCE alone, under the preload: the tests' own programs.
KFENCE = [("oob_write_right.c", "slab-out-of-bounds"), ("use_after_free.c", "slab-use-after-free"),
          ("corruption_left.c", "kfence-memory-corruption"), ("invalid_free.c", "invalid-free"),
          ("double_free.c", "double-free")]
for f, bug in KFENCE:
    exe = build("kfence_" + f[:-2], os.path.join(ROOT, "tests", "kfence", f), "plain", [])
    if exe:
        lines, err = run(exe, [], "kfence.sample_rate=1", preload=True)
        doc = check("kfence " + f[:-2], lines, err, bug, "KFENCE")
        if doc:
            ok("kfence %s object" % f[:-2], doc["object"] and doc["object"]["region"] == "kfence" and
               doc["mode"] == "kfence", json.dumps(doc["object"]))

# arm64's tag modes, under qemu, where build/aarch64 is made.
ARM = os.path.join(ROOT, "build", "aarch64")
QEMU = ["qemu-aarch64", "-cpu", "max", "-L", "/usr/aarch64-linux-gnu"]
if os.path.exists(os.path.join(ARM, "lib", "libukasan.so")) and shutil.which("qemu-aarch64"):
    sw = os.path.join(T, "bugs_sw_tags")
    env = dict(os.environ, UKASAN_CC="clang-16", UKASAN_MODE="sw_tags")
    r = subprocess.run([os.path.join(ARM, "bin", "ukasan-cc"), "-g", "-O1", src, "-o", sw],
                       capture_output=True, text=True, env=env)
    if r.returncode:
        ok("arm64 sw_tags build", False, r.stderr[-400:])
    else:
        for arg, bug in (("heap-oob", "slab-out-of-bounds"), ("uaf", "slab-use-after-free")):
            lines, err = run(sw, [arg], "kfence.sample_interval=0", runner=QEMU)
            doc = check("arm64 sw_tags " + arg, lines, err, bug, "KASAN")
            if doc:
                ok("arm64 sw_tags %s: mode" % arg, doc["mode"] == "sw_tags", doc["mode"])
    hw = os.path.join(T, "bugs_hw_tags")
    r = subprocess.run(["aarch64-linux-gnu-gcc", "-g", "-O1", src, "-o", hw], capture_output=True, text=True)
    if r.returncode:
        ok("arm64 hw_tags build", False, r.stderr[-400:])
    else:
        lines, err = run(hw, ["heap-oob"], "kasan=on kfence.sample_interval=0",
                         preload=os.path.join(ARM, "lib", "libukasan.so"), runner=QEMU)
        doc = check("arm64 hw_tags heap-oob", lines, err, "slab-out-of-bounds", "KASAN")
        if doc:
            ok("arm64 hw_tags: mode", doc["mode"] == "hw_tags", doc["mode"])
else:
    print("# build/aarch64 or qemu-aarch64 missing: the tag modes' checks are skipped")

# The signature.
exe = exes.get("gcc")


pcs = set()


def signature(exe, arg, options="", preload=False):
    lines, err = run(exe, arg.split(), "kfence.sample_interval=0 " + options, preload)
    docs = [json.loads(l) for l in lines if '"tool":"KASAN"' in l]
    sigs = sorted(set(d["signature"] for d in docs))
    pcs.update(d["stacks"]["access"][0]["pc"] for d in docs)
    return sigs[0] if len(sigs) == 1 else "none: %s" % err[-300:]


if exe:
    base = signature(exe, "heap-oob")
    pcs.clear()
    runs = [signature(exe, "heap-oob") for _ in range(20)]
    ok("20 runs, one signature", all(s == base for s in runs) and re.match("^[0-9a-f]{16}$", base),
       "%s vs %s" % (base, sorted(set(runs))))
    ok("the 20 runs were at other addresses (ASLR)", len(pcs) > 10, str(pcs))
    ok("symbolize=off keeps it", signature(exe, "heap-oob", "ukasan.symbolize=off") == base, base)
    ok("another index keeps it", signature(exe, "heap-oob 5") == base, base)
    # Rebuilt: an unrelated object linked first moves every address.
    extra = os.path.join(T, "extra.c")
    open(extra, "w").write("int unrelated_padding(int x) { volatile char b[4096]; b[x] = 1; return b[x + 1]; }\n"
                           "int unrelated_more(int x) { return unrelated_padding(x) * 3; }\n")
    moved = build("bugs_moved", src, "gcc", ["-O1"], extra=[extra])
    if moved:
        r = subprocess.run(["nm", moved], capture_output=True, text=True).stdout
        r0 = subprocess.run(["nm", exe], capture_output=True, text=True).stdout
        a = [l.split()[0] for l in r.splitlines() if l.endswith(" heap_write")]
        b = [l.split()[0] for l in r0.splitlines() if l.endswith(" heap_write")]
        ok("rebuild moved the function", a != b, "%s %s" % (a, b))
        ok("rebuild with an object linked first keeps it", signature(moved, "heap-oob") == base, base)
    o2 = build("bugs_o2", src, "gcc", ["-O2"])
    if o2:
        ok("rebuild at -O2 keeps it", signature(o2, "heap-oob") == base, base)
    ok("two bugs in one function differ", signature(exe, "two-bugs-1") != signature(exe, "two-bugs-2"), "")
    ok("a read and a write differ", signature(exe, "heap-oob") != signature(exe, "heap-oob-read"), "")
    clang = exes.get("clang-16")
    if clang:
        ok("two bugs in one function differ (clang)",
           signature(clang, "two-bugs-1") != signature(clang, "two-bugs-2"), "")

# json only: no text on stderr but the summary; the line goes to stderr
# without json_path.
if exe:
    env = dict(os.environ, UKASAN_OPTIONS="ukasan.report_format=json kfence.sample_interval=0")
    r = subprocess.run([exe, "heap-oob"], capture_output=True, text=True, env=env)
    first = r.stderr.splitlines()[0] if r.stderr else ""
    ok("report_format=json: the line on stderr, no text",
       validate(first) is None and "BUG: KASAN" not in r.stderr and "=====" not in r.stderr, r.stderr[:500])
    env = dict(os.environ, UKASAN_OPTIONS="kfence.sample_interval=0")
    r = subprocess.run([exe, "heap-oob"], capture_output=True, text=True, env=env)
    ok("default text: no JSON, a signature line", '{"schema"' not in r.stderr and
       re.search(r"^signature: [0-9a-f]{16}$", r.stderr, re.M), r.stderr[-500:])
    if SYZ:
        # Text and JSON in one log: the JSON line is no second report.
        env = dict(os.environ, UKASAN_OPTIONS="ukasan.report_format=both kfence.sample_interval=0")
        for arg in ("heap-oob", "leak"):
            r = subprocess.run([exe, arg], capture_output=True, text=True, env=env)
            t = subprocess.run([SYZ], input=r.stderr, capture_output=True, text=True).stdout.splitlines()
            want = {"heap-oob": ["TITLE: KASAN: slab-out-of-bounds Write in heap_write"],
                    "leak": ["TITLE: memory leak in leak"]}[arg]
            ok("syzkaller titles a mixed text+JSON log as the text alone (%s)" % arg, t == want, t)
    env = dict(os.environ, UKASAN_OPTIONS="ukasan.report_format=xml")
    r = subprocess.run([exe], capture_output=True, text=True, env=env)
    ok("a bad report_format is named", "ukasan.report_format" in r.stderr, r.stderr)
