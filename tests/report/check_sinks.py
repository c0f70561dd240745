#!/usr/bin/env python3
"""The socket sinks (ukasan.log_sink=syslog|journald), against a datagram
socket this test binds (ukasan.syslog_path, ukasan.journal_path): syslog's
messages are RFC 5424 with the report's signature and bug type as
structured data, the JSON line a message of its own; journald's are its
native protocol, the report's text a length-prefixed MESSAGE, the fields
UKASAN_SIGNATURE, UKASAN_BUG_TYPE and UKASAN_JSON. A report from a signal
handler that interrupted the program's own syslog() is delivered and the run
ends (a sink through libc's syslog() would deadlock on its lock). A socket
that is not there: the report goes to stderr."""
import json
import os
import re
import socket
import struct
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "report_sinks")
CC = os.path.join(BUILD, "bin", "ukasan-cc")
os.makedirs(T, exist_ok=True)


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "report_sinks: " + name + ("" if good else " - " + str(why)[:1500]))
    sys.stdout.flush()


def build(name, src):
    exe = os.path.join(T, name)
    r = subprocess.run([CC, "-g", "-O1", os.path.join(ROOT, src), "-o", exe], capture_output=True, text=True)
    if r.returncode:
        ok("build " + name, False, r.stderr[-400:])
        return None
    return exe


def run_with_socket(exe, args, options, timeout=60):
    """Messages received on a socket of ours while exe runs, and its result."""
    path = os.path.join(T, "sock")
    if os.path.exists(path):
        os.unlink(path)
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    s.bind(path)
    env = dict(os.environ, UKASAN_OPTIONS=options.replace("SOCK", path) + " kfence.sample_interval=0")
    try:
        r = subprocess.run([exe] + args, capture_output=True, text=True, env=env, timeout=timeout)
    except subprocess.TimeoutExpired:
        s.close()
        return [], None
    msgs = []
    s.setblocking(False)
    while True:
        try:
            data, anc, _, _ = s.recvmsg(1 << 22, socket.CMSG_SPACE(4))
        except BlockingIOError:
            break
        for level, kind, fdata in anc:  # a memfd: the message is in it
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fd = struct.unpack("i", fdata[:4])[0]
                data = os.pread(fd, 1 << 22, 0)
                os.close(fd)
        msgs.append(data)
    s.close()
    return msgs, r


def journal_fields(data):
    """journald's native protocol: KEY=value lines, or KEY, a 64-bit
    little-endian length, the value and a newline."""
    fields, i = {}, 0
    while i < len(data):
        nl = data.index(b"\n", i)
        line = data[i:nl]
        if b"=" in line:
            k, v = line.split(b"=", 1)
            fields[k.decode()] = v.decode()
            i = nl + 1
        else:
            n = struct.unpack("<Q", data[nl + 1:nl + 9])[0]
            fields[line.decode()] = data[nl + 9:nl + 9 + n].decode()
            if data[nl + 9 + n:nl + 10 + n] != b"\n":
                raise ValueError("no newline after %s" % line)
            i = nl + 10 + n
    return fields


RFC5424 = re.compile(rb'^<11>1 \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z - (\S+) (\d+) ukasan '
                     rb'(\[ukasan@32473 tool="([^"]*)" bug_type="([^"]*)" signature="([0-9a-f]{16})"\]|-) (.*)$', re.S)

exe = build("bugs", "tests/report/_bugs.c")
if exe:
    msgs, r = run_with_socket(exe, ["heap-oob"], "ukasan.log_sink=syslog ukasan.syslog_path=SOCK "
                              "ukasan.report_format=both")
    parsed = [RFC5424.match(m) for m in msgs]
    reports = [p for p in parsed if p and p.group(3) != b"-" and p.group(5) == b"slab-out-of-bounds"]
    text = [p for p in reports if p.group(7).startswith(b"=====")]
    js = [p for p in reports if p.group(7).startswith(b"{")]
    good = len(text) == 1 and len(js) == 1 and all(parsed)
    if good:
        sig = text[0].group(6).decode()
        doc = json.loads(js[0].group(7))
        good = (("signature: " + sig).encode() in text[0].group(7) and doc["signature"] == sig and
                js[0].group(6).decode() == sig and text[0].group(1) == b"bugs" and
                int(text[0].group(2)) > 0)
    ok("syslog: RFC 5424, the report's fields as structured data, its JSON line", good,
       [m[:300] for m in msgs])
    ok("syslog: nothing on stderr but the sink's", r is not None and "BUG: KASAN" not in r.stderr,
       r and r.stderr[-500:])

    msgs, r = run_with_socket(exe, ["heap-oob"], "ukasan.log_sink=journald ukasan.journal_path=SOCK "
                              "ukasan.report_format=both")
    entries = []
    try:
        entries = [journal_fields(m) for m in msgs]
        parse = None
    except Exception as e:  # noqa: BLE001 -- the reason is the test's answer
        parse = e
    rep = [e for e in entries if e.get("UKASAN_BUG_TYPE") == "slab-out-of-bounds"]
    good = parse is None and len(rep) == 1
    if good:
        e = rep[0]
        doc = json.loads(e["UKASAN_JSON"])
        good = (e["PRIORITY"] == "3" and e["SYSLOG_IDENTIFIER"] == "bugs" and
                "BUG: KASAN: slab-out-of-bounds in heap_write" in e["MESSAGE"] and
                "\n" in e["MESSAGE"] and doc["signature"] == e["UKASAN_SIGNATURE"] and
                ("signature: " + e["UKASAN_SIGNATURE"]) in e["MESSAGE"] and e["UKASAN_TOOL"] == "KASAN")
    ok("journald: native protocol, MESSAGE length-prefixed, UKASAN_* fields", good,
       parse or [m[:300] for m in msgs])

    msgs, r = run_with_socket(exe, ["heap-oob"], "ukasan.log_sink=journald ukasan.journal_path=SOCK "
                              "ukasan.report_format=json")
    entries = [journal_fields(m) for m in msgs]
    rep = [e for e in entries if e.get("UKASAN_BUG_TYPE") == "slab-out-of-bounds"]
    ok("journald, json only: MESSAGE is the JSON line",
       len(rep) == 1 and json.loads(rep[0]["MESSAGE"])["bug_type"] == "slab-out-of-bounds", entries)

    # No socket there: the report is not lost.
    env = dict(os.environ, UKASAN_OPTIONS="ukasan.log_sink=syslog kfence.sample_interval=0 "
               "ukasan.syslog_path=" + os.path.join(T, "absent.sock"))
    r = subprocess.run([exe, "heap-oob"], capture_output=True, text=True, env=env)
    ok("syslog socket absent: the report on stderr", "BUG: KASAN: slab-out-of-bounds" in r.stderr and
       "signature: " in r.stderr, r.stderr[-500:])

sig_exe = build("syslog_signal", "tests/report/_syslog_signal.c")
if sig_exe:
    for sink, key in (("syslog", "syslog_path"), ("journald", "journal_path")):
        msgs, r = run_with_socket(sig_exe, [], "ukasan.log_sink=%s ukasan.%s=SOCK" % (sink, key), timeout=60)
        got = [m for m in msgs if b"BUG: KASAN: slab-out-of-bounds in tick" in m]
        ok("%s: a report from a handler that interrupted syslog() is delivered, no deadlock" % sink,
           r is not None and "interrupted syslog: 1" in r.stdout and len(got) == 1,
           "timed out" if r is None else (r.stdout, r.stderr[-800:], [m[:200] for m in msgs]))
