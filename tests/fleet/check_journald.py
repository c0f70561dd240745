#!/usr/bin/env python3
"""ukasan.log_sink=journald against systemd's own journald, not a socket of
ours: Debian's systemd-journald runs in a private mount namespace (unshare
-m, as root), over empty tmpfs mounts of /run/systemd/journal and
/run/log (and of /var/log/journal when the machine has one), so the
machine's own journal is not touched. With no ukasan.journal_path, reports
go to journald's default socket:

  * a KASAN report (ukasan-cc, tests/tools/_report_bugs.c heap_oob) and a
    KFENCE report (the preload, uaf), ukasan.report_format=both;
  * journalctl -o json --all shows each as one entry: PRIORITY 3, MESSAGE the
    text report (its title and signature: line), UKASAN_BUG_TYPE,
    UKASAN_TOOL, UKASAN_SIGNATURE, and UKASAN_JSON that parses to the
    same bug type and signature;
  * journalctl -F UKASAN_SIGNATURE lists the two signatures, and
    journalctl UKASAN_SIGNATURE=S finds each report by its signature: a
    fleet's grouping, done by journald's own index;
  * nothing on stderr: the sink took the reports.

Not root (no private mount namespace): says so and checks nothing."""
import json
import os
import shutil
import subprocess
import sys

ROOT = os.path.abspath(os.environ.get("UKASAN_ROOT", os.getcwd()))
BUILD = os.path.abspath(os.environ.get("UKASAN_BUILD", os.path.join(ROOT, "build")))
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "journald")
JOURNALD = "/lib/systemd/systemd-journald"


def ok(name, good, why=""):
    print(("ok " if good else "not ok ") + "journald: " + name + ("" if good else " - " + str(why)[:1500]))
    sys.stdout.flush()


# Inside the namespace: journald on empty mounts, the two reports, then
# what journalctl shows.
INNER = r"""
set -u
mkdir -p /run/systemd/journal /run/log
mount -t tmpfs tmpfs /run/systemd/journal && mount -t tmpfs tmpfs /run/log || exit 90
if [ -d /var/log/journal ]; then mount -t tmpfs tmpfs /var/log/journal || exit 91; fi
JOURNALD &
jd=$!
i=0
while [ ! -S /run/systemd/journal/socket ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
[ -S /run/systemd/journal/socket ] || { kill $jd; exit 92; }
UKASAN_OPTIONS="ukasan.log_sink=journald ukasan.report_format=both kfence.sample_interval=0" \
	"$T/kasan" heap_oob >"$T/kasan.out" 2>"$T/kasan.err"
echo $? >"$T/kasan.status"
LD_PRELOAD="$LIB" UKASAN_OPTIONS="ukasan.log_sink=journald ukasan.report_format=both kfence.sample_rate=1" \
	"$T/plain" uaf >"$T/kfence.out" 2>"$T/kfence.err"
echo $? >"$T/kfence.status"
i=0
while [ "$(journalctl -o json --all --no-pager 2>/dev/null | grep -c UKASAN_SIGNATURE)" -lt 2 ] && [ $i -lt 50 ]; do
	sleep 0.1; i=$((i + 1))
done
journalctl -o json --all --no-pager >"$T/journal.json" 2>&1
journalctl -F UKASAN_SIGNATURE >"$T/signatures" 2>&1
for s in $(cat "$T/signatures"); do
	journalctl -o json --all --no-pager UKASAN_SIGNATURE="$s" >"$T/by-$s.json" 2>&1
done
kill $jd
wait $jd 2>/dev/null
exit 0
"""


def main():
    if os.geteuid() != 0:
        print("ok journald: real journald # skipped: needs root for a private mount namespace")
        return
    if not os.access(JOURNALD, os.X_OK) or not shutil.which("journalctl"):
        ok("systemd-journald installed", False, "no " + JOURNALD + " or journalctl: tools/deps.sh "
           "test installs systemd")
        return
    shutil.rmtree(T, ignore_errors=True)
    os.makedirs(T)
    src = os.path.join(ROOT, "tests/tools/_report_bugs.c")
    flags = ["-g", "-O1", "-fno-omit-frame-pointer"]
    for exe, cc in (("kasan", os.path.join(BUILD, "bin", "ukasan-cc")), ("plain", "gcc")):
        r = subprocess.run([cc] + flags + [src, "-o", os.path.join(T, exe)], capture_output=True,
                           text=True)
        if r.returncode:
            ok("build " + exe, False, r.stderr[-400:])
            return
    script = INNER.replace("JOURNALD", JOURNALD).replace("$T", T).replace(
        "$LIB", os.path.join(BUILD, "lib", "libukasan.so"))
    env = {k: v for k, v in os.environ.items() if k not in ("UKASAN_OPTIONS", "LD_PRELOAD")}
    try:
        r = subprocess.run(["unshare", "-m", "--propagation", "private", "sh", "-c", script],
                           capture_output=True, text=True, env=env, timeout=120)
    except subprocess.TimeoutExpired:
        ok("journald runs", False, "timed out")
        return
    if r.returncode:
        ok("journald runs in a private mount namespace", False,
           "exit %d (90/91: mount, 92: no socket): %s" % (r.returncode, r.stderr[-500:]))
        return
    entries = []
    for line in open(os.path.join(T, "journal.json"), errors="replace"):
        try:
            entries.append(json.loads(line))
        except ValueError:
            pass
    sigs = open(os.path.join(T, "signatures")).read().split()
    # The bug type is the kernel's word in both: KFENCE's is KASAN's.
    for tool, bug, title in (
            ("KASAN", "slab-out-of-bounds", "BUG: KASAN: slab-out-of-bounds in bug_heap_oob"),
            ("KFENCE", "slab-use-after-free", "BUG: KFENCE: use-after-free write in bug_uaf")):
        name = "kasan" if tool == "KASAN" else "kfence"
        status = open(os.path.join(T, name + ".status")).read().strip()
        err = open(os.path.join(T, name + ".err"), errors="replace").read()
        mine = [e for e in entries if e.get("UKASAN_TOOL") == tool]
        good = len(mine) == 1
        why = "%d entries of %s among %d" % (len(mine), tool, len(entries))
        if good:
            e = mine[0]
            try:
                doc = json.loads(e["UKASAN_JSON"])
            except (KeyError, ValueError) as x:
                doc, why = {}, "UKASAN_JSON: %r" % x
            sig = e.get("UKASAN_SIGNATURE", "")
            msg = e.get("MESSAGE", "")
            good = (e.get("PRIORITY") == "3" and title in msg and ("signature: " + sig) in msg and
                    e.get("UKASAN_BUG_TYPE") == bug and doc.get("bug_type") == bug and
                    doc.get("signature") == sig)
            if not good and doc:
                why = {k: (v[:200] if isinstance(v, str) else v) for k, v in e.items()
                       if k.startswith(("UKASAN", "MESSAGE", "PRIORITY"))}
        ok("%s report: one entry in journalctl -o json, its fields and UKASAN_JSON" % tool, good, why)
        if good:
            found = []
            path = os.path.join(T, "by-%s.json" % sig)
            if os.path.exists(path):
                found = [json.loads(l) for l in open(path) if l.startswith("{")]
            ok("%s report: journalctl -F lists its signature, UKASAN_SIGNATURE= finds it" % tool,
               sig in sigs and len(found) == 1 and found[0].get("UKASAN_TOOL") == tool,
               "signatures %r, %d found" % (sigs, len(found)))
        ok("%s report: not on stderr, the run's status %s" % (tool, status),
           title.split(" in ")[0] not in err and status in ("0", "1"), err[-400:])
    ok("two reports, two signatures", len(sigs) == 2, sigs)


main()
