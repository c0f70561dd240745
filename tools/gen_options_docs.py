#!/usr/bin/env python3
"""Writes docs/options.md and man/ukasan-options.7 from the options table,
src/config/options.inc, the one place an option is described (and, for an
option whose words a layer above owns, the file its CHOICES_FROM names:
src/report/sinks.inc, the sinks).

    python3 tools/gen_options_docs.py           rewrite both files
    python3 tools/gen_options_docs.py --check   exit 1, with a diff, if either
                                                is not what the table makes
    python3 tools/gen_options_docs.py --list    the table's option names and
                                                ASan keys, one a line

The prose around the tables is written once below, in a small markup that
both outputs are made from: `code` spans, and blocks of lines indented by
four spaces shown as they are.
"""
import difflib
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "src", "config", "options.inc")
MARKDOWN = os.path.join(ROOT, "docs", "options.md")
MAN = os.path.join(ROOT, "man", "ukasan-options.7")

OPTION_ARGS = ["group", "name", "field", "type", "default", "min", "max", "choices", "asan", "help"]
ASAN_ARGS = ["id", "name", "type", "min", "max", "sets", "help"]

GROUPS = [
    ("KFENCE", "KFENCE",
     "The sampling guard-page detector, on in every mode: the preload alone is KFENCE."),
    ("KASAN", "KASAN, every mode",
     "Generic KASAN (programs built by `ukasan-cc`), software tags and hardware tags."),
    ("GENERIC", "Generic KASAN",
     "Programs built by `ukasan-cc`, or any program with `ukasan.generic=on`."),
    ("TAGS", "Tag modes",
     "Hardware tags (arm64 MTE) in the preload, and software tags built by "
     "`ukasan-cc UKASAN_MODE=sw_tags`."),
    ("KMEMLEAK", "kmemleak", "The leak check of generic mode."),
    ("RUN", "Reports and the end of a run",
     "Where reports go, in which form, and how a run with reports ends."),
]

INTRO = """
ukasan reads its options once, at start, from `UKASAN_OPTIONS`, with the
kernel's boot-parameter names where the kernel has the option:
`UKASAN_OPTIONS=kfence.sample_rate=1:kfence.num_objects=255`. `ukasan run -o
NAME=VALUE` adds one. AddressSanitizer's `ASAN_OPTIONS` and LeakSanitizer's
`LSAN_OPTIONS` are read too, where their keys mean something here.
"""

SYNTAX = """
Options are `NAME=VALUE` words separated by `:`, `,` or white space, as
every sanitizer's options are. A value holding one of those is quoted,
`'...'` or `"..."`: `ukasan.log_path='/tmp/a:b/log'`. A quote left open is
one line, and the rest of the text is ignored.

Booleans take `on` or `off` (also `1`/`0`, `true`/`false`, `yes`/`no`), and a
boolean's name alone is on (`kasan_multi_shot`). Numbers are decimal or
`0x` hex; sizes take a `K`, `M` or `G` suffix.

A program's own `__asan_default_options()` is read first, then
`ASAN_OPTIONS`, then `LSAN_OPTIONS`, and `UKASAN_OPTIONS` last, each
overriding what came before. `help=1` in any of them prints every option
with its default and meaning at start, and the program runs on.

A bad value or an unknown name is one line, and the program runs on with
the default:

    ukasan: invalid value 'banana' for kfence.sample_rate (expected a whole number from 0 to 1073741824); using the default 0
    ukasan: unknown option kfence.nonsense; ignored

Control characters of option text are escaped in these lines, so that an
option cannot forge a line of the log. In set-user-ID and set-group-ID
programs the variables are ignored, with one line saying so, as glibc
ignores its malloc tunables there.
"""

ASAN = """
`ASAN_OPTIONS`, `LSAN_OPTIONS` and `__asan_default_options()` keep ASan's
syntax: the same separators and quoting, numbers in plain decimal, booleans
`0` or `1`. The keys that set one option as it is are in the ASan column of
the tables above; these act otherwise:
"""

ASAN_AFTER = """
Every other key is ignored, as ASan ignores keys it does not know
(`handle_segv`: KFENCE needs its handler; `verbosity`...), with no line. A
bad value of a key that maps is one line, and the key is ignored:

    ukasan: invalid value 'maybe' for halt_on_error in ASAN_OPTIONS (expected 0 or 1); ignored
"""


# The table.

def c_string(lit):
    """The value of one C string literal, with its quotes."""
    out, i, body = [], 0, lit[1:-1]
    while i < len(body):
        c = body[i]
        if c == "\\":
            nxt = body[i + 1]
            out.append({"n": "\n", "t": "\t", "\\": "\\", '"': '"', "'": "'"}[nxt])
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def c_number(expr):
    """A constant expression of the table: numbers, <<, and a minus sign."""
    e = re.sub(r"\b(0x[0-9a-fA-F]+|\d+)[uUlL]*\b", r"\1", expr.strip())
    if not re.fullmatch(r"[0-9a-fA-Fx<>()+\-* ]+", e):
        raise ValueError("not a constant: %r" % expr)
    return eval(e, {"__builtins__": {}})


CHOICE_WORD = r'CHOICE\(\s*[A-Z_][A-Z_0-9]*\s*,\s*("(?:\\.|[^"\\])*")\s*\)'
CHOICES = r'(\s*' + CHOICE_WORD.replace("(\"", "(?:\"", 1) + r'\s*)+'


def split_args(text):
    """The arguments of one macro call: strings joined, numbers evaluated,
    other words as they are."""
    args, cur, depth, i = [], [], 0, 0
    while i < len(text):
        c = text[i]
        if c == '"':
            m = re.match(r'"(\\.|[^"\\])*"', text[i:])
            cur.append(m.group(0))
            i += len(m.group(0))
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(cur))
            cur = []
            i += 1
            continue
        cur.append(c)
        i += 1
    args.append("".join(cur))
    values = []
    for a in args:
        a = a.strip()
        strings = re.findall(r'"(?:\\.|[^"\\])*"', a)
        m = re.fullmatch(r'CHOICES_FROM\(\s*("(?:\\.|[^"\\])*")\s*\)', a)
        if m:
            values.append(choices_from(c_string(m.group(1))))
        elif re.fullmatch(CHOICES, a):
            # An ENUM's words, CHOICE(ID, "word") each: the words, in order.
            values.append(" ".join(c_string(w) for w in re.findall(CHOICE_WORD, a)))
        elif strings and re.fullmatch(r'(\s*"(?:\\.|[^"\\])*"\s*)+', a):
            values.append("".join(c_string(s) for s in strings))
        elif re.fullmatch(r"[A-Z_a-z][A-Za-z_0-9]*", a):
            values.append(a)
        else:
            values.append(c_number(a))
    return values


def choices_from(rel):
    """CHOICES_FROM("file"): an ENUM's words that a layer above owns, rows
    NAME(ID, "word", "what it is") of that file (relative to the root):
    (the words, "word (what it is); ..."), as the runtime registers them."""
    text = re.sub(r"/\*.*?\*/", " ", open(os.path.join(ROOT, rel)).read(), flags=re.S)
    rows = [split_args(m.group(1)) for m in
            re.finditer(r'^\s*[A-Z_]+\s*\(((?:"(?:\\.|[^"\\])*"|[^()"])*)\)', text, re.M)]
    if not rows or any(len(r) != 3 for r in rows):
        raise ValueError("%s: no rows NAME(ID, \"word\", \"what it is\")" % rel)
    return (" ".join(r[1] for r in rows), "; ".join("%s (%s)" % (r[1], r[2]) for r in rows))


def read_table(path=TABLE):
    text = open(path).read()
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("#"))
    options, asan_keys = [], []
    pos = 0
    for m in re.finditer(r"\b(OPTION|ASAN_KEY)\s*\(", text):
        if m.start() < pos:
            continue
        depth, i = 1, m.end()
        while depth:
            if text[i] == '"':
                i += len(re.match(r'"(\\.|[^"\\])*"', text[i:]).group(0))
                continue
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        pos = i
        values = split_args(text[m.end():i - 1])
        names = OPTION_ARGS if m.group(1) == "OPTION" else ASAN_ARGS
        if len(values) != len(names):
            raise ValueError("%s(%s...): %d arguments, not %d" %
                             (m.group(1), values[:2], len(values), len(names)))
        row = dict(zip(names, values))
        if isinstance(row.get("choices"), tuple):  # CHOICES_FROM: help=1 shows what each is
            row["choices"], meanings = row["choices"]
            row["help"] += ": " + meanings
        (options if m.group(1) == "OPTION" else asan_keys).append(row)
    known = {o["name"] for o in options}
    groups = {g for g, _, _ in GROUPS}
    for o in options:
        if o["group"] not in groups:
            raise ValueError("%s: group %s has no heading here" % (o["name"], o["group"]))
    for k in asan_keys:
        for s in k["sets"].split():
            if s not in known:
                raise ValueError("ASAN_KEY %s sets %s, which is no option" % (k["name"], s))
    return options, asan_keys


def values_of(o):
    """What an option takes, in words."""
    t = o["type"]
    if t == "BOOL":
        return "on, off"
    if t == "ENUM":
        return ", ".join(o["choices"].split())
    if t == "PATH":
        return "a path"
    if t == "SIZE":
        return "bytes up to %s (K, M, G)" % human(o["max"])
    rng = "%d to %s" % (o["min"], human(o["max"]))
    return rng + ", auto" if t == "AUTO" else rng


def human(n):
    """A large power of two as 2^N, else the number."""
    if n >= 1 << 16 and n & (n - 1) == 0:
        return "2^%d" % (n.bit_length() - 1)
    return str(n)


def asan_of(o, asan_keys):
    """The ASan keys that act on an option: its own, then the others'."""
    keys = [o["asan"]] if o["asan"] else []
    keys += [k["name"] for k in asan_keys if o["name"] in k["sets"].split()]
    return keys


# The markup: paragraphs, `code`, and blocks indented by four spaces.

def blocks(text):
    """(kind, text) for each paragraph ("p") or block shown as it is ("pre")."""
    out = []
    for chunk in re.split(r"\n\s*\n", text.strip("\n")):
        lines = chunk.splitlines()
        if all(ln.startswith("    ") for ln in lines):
            out.append(("pre", "\n".join(ln[4:] for ln in lines)))
        else:
            out.append(("p", " ".join(ln.strip() for ln in lines)))
    return out


def md_cell(s):
    return s.replace("|", "\\|")


def md_default(o):
    """A value as written, or for a path what no path means."""
    return md_cell(o["default"]) if o["type"] == "PATH" else "`%s`" % o["default"]


def md_text(text):
    """Markdown is the markup itself: the text as written."""
    return text.strip("\n") + "\n"


def markdown(options, asan_keys):
    out = ["<!-- Made by tools/gen_options_docs.py from src/config/options.inc: edit those, "
           "then run python3 tools/gen_options_docs.py. -->", "", "# Options", ""]
    out.append(md_text(INTRO))
    out += ["## Syntax", "", md_text(SYNTAX)]
    for group, title, intro in GROUPS:
        rows = [o for o in options if o["group"] == group]
        out += ["## " + title, "", md_text(intro)]
        out += ["| option | values | default | ASan | meaning |", "|---|---|---|---|---|"]
        for o in rows:
            special = {k["name"] for k in asan_keys}
            asan = ", ".join("[`%s`](#asan_options)" % k if k in special else "`%s`" % k
                             for k in asan_of(o, asan_keys))
            out.append("| `%s` | %s | %s | %s | %s |" % (
                o["name"], md_cell(values_of(o)), md_default(o), asan,
                md_cell(o["help"])))
        out.append("")
    out += ["## ASAN_OPTIONS", "", md_text(ASAN)]
    out += ["| ASan key | values | acts on | meaning |", "|---|---|---|---|"]
    for k in asan_keys:
        vals = "0, 1" if k["type"] == "BOOL" else "%d to %s" % (k["min"], human(k["max"]))
        sets = ", ".join("`%s`" % s for s in k["sets"].split())
        out.append("| `%s` | %s | %s | %s |" % (k["name"], vals, sets, md_cell(k["help"])))
    out += ["", md_text(ASAN_AFTER)]
    return "\n".join(out).rstrip("\n") + "\n"


# roff, for man(7).

def roff_escape(s):
    return s.replace("\\", "\\e")


def roff_code(s):
    return "\\fB" + roff_escape(s).replace("-", "\\-") + "\\fR"


def roff_inline(s):
    """Text with `code` spans, escaped for a line of roff."""
    parts = re.split(r"`([^`]*)`", s)
    out = "".join(roff_code(p) if i % 2 else roff_escape(p) for i, p in enumerate(parts))
    return out


def roff_lines(s):
    """A paragraph's text, a sentence a line (roff's own convention), no line
    starting with a control character."""
    text = roff_inline(s)
    lines = re.split(r"(?<=[.;:])\s+(?=[A-Z\\`])", text)
    return "\n".join("\\&" + ln if ln[:1] in ".'" else ln for ln in lines)


def roff_text(text):
    out = []
    for kind, body in blocks(text):
        if kind == "pre":
            out += [".PP", ".RS 4", ".nf"]
            out += ["\\&" + roff_escape(ln).replace("-", "\\-") for ln in body.splitlines()]
            out += [".fi", ".RE"]
        else:
            out += [".PP", roff_lines(body)]
    return out


PLACEHOLDER = {"UINT": "N", "SIZE": "BYTES", "AUTO": "N", "BOOL": "on|off", "PATH": "PATH"}


def man(options, asan_keys):
    out = [
        '.\\" Made by tools/gen_options_docs.py from src/config/options.inc: edit those,',
        '.\\" then run python3 tools/gen_options_docs.py.',
        '.TH UKASAN-OPTIONS 7 "" "ukasan" "ukasan manual"',
        # Names and values are not to be broken across lines.
        ".nh",
        ".SH NAME",
        "ukasan-options \\- run-time options of ukasan (UKASAN_OPTIONS, ASAN_OPTIONS)",
        ".SH SYNOPSIS",
        ".B UKASAN_OPTIONS=\\c",
        ".IR NAME = VALUE [: NAME = VALUE ...]",
        ".I program",
        ".SH DESCRIPTION",
    ]
    out += roff_text(INTRO)
    out += [".SH SYNTAX"] + roff_text(SYNTAX)
    for group, title, intro in GROUPS:
        out += [".SH " + title.upper()] + roff_text(intro)
        for o in (o for o in options if o["group"] == group):
            value = PLACEHOLDER.get(o["type"], "|".join(o["choices"].split()))
            if o["type"] == "AUTO":
                value += "|auto"
            out += [".TP", "\\fB%s\\fR=\\fI%s\\fR" % (roff_escape(o["name"]), roff_escape(value))]
            default = o["default"] if o["type"] == "PATH" else "`%s`" % o["default"]
            text = "%s. Default: %s." % (o["help"][0].upper() + o["help"][1:], default)
            if o["type"] in ("UINT", "AUTO", "SIZE"):
                text += " Values: %s." % values_of(o)
            keys = asan_of(o, asan_keys)
            if keys:
                text += " ASan: %s." % ", ".join("`%s`" % k for k in keys)
            out.append(roff_lines(text))
    out += [".SH ASAN_OPTIONS"] + roff_text(ASAN)
    for k in asan_keys:
        vals = "0|1" if k["type"] == "BOOL" else "N"
        out += [".TP", "\\fB%s\\fR=\\fI%s\\fR" % (roff_escape(k["name"]), vals)]
        out.append(roff_lines(k["help"][0].upper() + k["help"][1:] + "."))
    out += roff_text(ASAN_AFTER)
    out += [
        ".SH ENVIRONMENT",
        ".TP", ".B UKASAN_OPTIONS", "ukasan's options, read last.",
        ".TP", ".B ASAN_OPTIONS", "AddressSanitizer's options, where a key means something here.",
        ".TP", ".B LSAN_OPTIONS", "LeakSanitizer's, read after ASAN_OPTIONS with the same keys.",
        ".SH SEE ALSO",
        ".BR ukasan (1),",
        ".BR ukasan\\-cc (1),",
        ".BR ukasan\\-symbolize (1)",
    ]
    return "\n".join(out) + "\n"


def main(argv):
    options, asan_keys = read_table()
    if "--list" in argv:
        for o in options:
            print("option %s=%s" % (o["name"], o["default"]))
        for o in options:
            if o["asan"]:
                print("asan %s" % o["asan"])
        for k in asan_keys:
            print("asan %s" % k["name"])
        return 0
    made = {MARKDOWN: markdown(options, asan_keys), MAN: man(options, asan_keys)}
    stale = 0
    for path, text in made.items():
        rel = os.path.relpath(path, ROOT)
        old = open(path).read() if os.path.exists(path) else ""
        if old == text:
            continue
        if "--check" in argv:
            stale = 1
            sys.stdout.writelines(difflib.unified_diff(
                old.splitlines(True), text.splitlines(True), rel + " (committed)",
                rel + " (from options.inc)", n=1))
        else:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
            print("wrote " + rel)
    return stale


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
