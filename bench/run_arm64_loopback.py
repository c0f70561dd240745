#!/usr/bin/env python3
"""Seed 003's loopback test under hardware tags, emulated: issue 12's "Done
when" for kasan.page_alloc.sample. bench/run_arm64.py runs it after its own
tables (so `make bench` does); alone:

    python3 bench/run_arm64_loopback.py [--rounds N | --quick]

bench/seeds/loopback.c (a sender and a receiver thread over TCP on
127.0.0.1, every 32 KiB message in a fresh malloc'd buffer on both sides:
32 KiB is page order 3, the seed's SKB_FRAG_PAGE_ORDER) is built plain for
arm64 and run under qemu-aarch64 -cpu max:
- plain, nothing preloaded;
- the same executable with libukasan.so preloaded and kasan=on (hardware
  tags, MTE, kasan.mode=sync), kasan.page_alloc.sample=1 (every large
  allocation tagged: the seed's unsampled case) and =10 (order 3, the
  default: one large allocation in ten tagged);
- besides, the software-tag build (run_arm64.py's sw_tags gcc build) with
  the same two settings: tagging there is shadow stores, which qemu runs
  at the speed it runs any store, so it shows what sampling saves without
  the cost of emulated MTE below.

EVERY FIGURE IS EMULATED. Under qemu, once a thread turns MTE tag checking
on (TCF sync), every load and store it makes is slower, tagged memory or
not (the facts note measured 3-7x): that cost is qemu's, not the tagging
work's, and sampling does not remove it. Real MTE hardware checks tags at
no such cost, so the emulated slowdowns are far larger than the seed's
(~50% unsampled, ~20% at sample=10, on an MTE device in sync mode). The
guest instruction count (a first, separate run of each variant under the
counting plugin, with kasan.stats=1) leaves qemu's MTE cost out and counts
the tagging work itself (stg/st2g loops, the allocator).

The counting run also gives kasan.stats=1's "page_alloc sampling: ... N
sampled, M skipped" line: at sample=10, about a tenth of the large
allocations must be sampled. Then ROUNDS rounds, every variant once a
round, order rotated; throughput is the program's own (bytes over the wall
time of the transfer); medians, ratios as medians of per-round ratios.
A run fails when it exits non-zero, prints a memory-error report or other
output than the plain build (throughput aside); failures are reported,
never hidden.
"""
import os
import re
import sys
import time

from benchlib import emit, fmt, med, paired, table

LOOPBACK_BYTES = 500000000  # run_seeds.py moves 2 GB natively
ROUNDS = 5
SAMPLE_RE = re.compile(r"page_alloc sampling: +kasan\.page_alloc\.sample=(\d+) order=(\d+): "
                       r"(\d+) sampled, (\d+) skipped")
THR_RE = re.compile(r"^throughput ([\d.]+) MB/s$", re.M)
SEED = {"plain": "",
        "hw-s1": "~50% slowdown (HW_TAGS KASAN, every allocation tagged)",
        "hw-s10": "~20% slowdown (sample=10, order 3)",
        "sw-s1": "(software tags: no seed figure)", "sw-s10": "(software tags: no seed figure)"}


def mbps(s):
    m = THR_RE.search(s.out) if s and s.ok else None
    return float(m.group(1)) if m else None


def shape(out):
    return THR_RE.sub("throughput X MB/s", out)


def bench(ra, rounds, plugin, sw):
    """ra: the run_arm64 module (its Variant, Program, build, run); sw: its
    software-tag gcc Variant, or None when that did not build. Emits the
    section; returns nothing."""
    start = time.time()
    prog = ra.Program("loopback", os.path.join(ra.ROOT, "bench", "seeds", "loopback.c"),
                      "Loopback TCP, 32 KiB messages (bench/seeds/loopback.c)",
                      ["--bytes", str(LOOPBACK_BYTES)], 1, "", shape=shape,
                      libs=["-pthread"])
    lib = os.path.join(ra.OUT, "lib", "libukasan.so")
    hw = "plain build, libukasan.so preloaded, kasan=on"
    vs = [ra.Variant("plain", f"plain: {ra.CC} -O2", ra.CC),
          ra.Variant("hw-s1", f"ukasan hw_tags (MTE), kasan.page_alloc.sample=1: {hw}", ra.CC,
                     preload=True, same_exe="plain",
                     run_env={"UKASAN_OPTIONS": "kasan=on kasan.page_alloc.sample=1"}),
          ra.Variant("hw-s10", f"ukasan hw_tags (MTE), kasan.page_alloc.sample=10: {hw}", ra.CC,
                     preload=True, same_exe="plain",
                     run_env={"UKASAN_OPTIONS": "kasan=on kasan.page_alloc.sample=10"})]
    if sw:
        for n in (1, 10):
            vs.append(ra.Variant(f"sw-s{n}", f"ukasan sw_tags, gcc, kasan.page_alloc.sample={n}"
                                 f": {sw.label.split(': ', 1)[1]}", sw.compiler, sw.build_env,
                                 sw.extra, post=sw.post,
                                 same_exe=None if n == 1 else "sw-s1",
                                 run_env={"UKASAN_OPTIONS": f"kasan.page_alloc.sample={n}"}))
    notes = []
    for v in list(vs):
        exe, err = ra.build(prog, v)
        if err:
            if v.key == "plain":
                emit(f"## {prog.title}: not run, the plain build failed: {err}")
                return
            notes.append(f"{v.short} left out: {err}")
            vs = [x for x in vs if x.key != v.key and x.same_exe != v.key]
            continue
        prog.exes[v.key] = exe

    # The counting run: a check, the guest instructions, and the counters.
    counters = {}
    for v in vs:
        cv = v
        if v.key != "plain":
            env = dict(v.run_env)
            env["UKASAN_OPTIONS"] += " kasan.stats=1"
            cv = ra.Variant(v.key, v.label, v.compiler, preload=v.preload, run_env=env)
        s = ra.run(prog, cv, plugin)
        if v.key == "plain":
            if not s.ok:
                emit(f"## {prog.title}: not run, the plain build failed under qemu ({s.why}):")
                emit(ra.excerpt(s.err))
                emit()
                return
            prog.expected = shape(s.out)
        prog.insns[v.key] = s.insns if s.ok else None
        if not s.ok:
            prog.failures.append((v.label + ", counting run", s))
        m = SAMPLE_RE.search(s.err)
        if m:
            counters[v.key] = (int(m.group(3)), int(m.group(4)))
        elif v.key != "plain":
            notes.append(f"{v.short}: no \"page_alloc sampling\" line from kasan.stats=1 "
                         f"in the counting run")

    prog.samples = {v.key: [] for v in vs}
    for r in range(rounds):
        for i in range(len(vs)):
            v = vs[(r + i) % len(vs)]
            s = ra.run(prog, v)
            if not s.ok:
                prog.failures.append((v.label, s))
            prog.samples[v.key].append(s)
    print(f"  loopback: {rounds} round(s) done, {time.time() - start:.0f} s", file=sys.stderr,
          flush=True)

    emit(f"## {prog.title}, seed 003, {ra.EMU}")
    emit()
    emit(f"`loopback --bytes {LOOPBACK_BYTES}` (run_seeds.py moves 2 GB natively), "
         f"{rounds} round(s). Throughput = the program's own (MB/s, wall time of the "
         f"transfer); 'slowdown' = plain's throughput / this one's - 1, as seed 003 counts it. "
         f"Guest instructions and the sampling counters from one counting run with "
         f"kasan.stats=1. All figures in this table: {ra.EMU}; the seed's column is the "
         f"kernel's, on an MTE device (real hardware), sync mode.")
    emit()
    base = prog.samples["plain"]
    pi = prog.insns.get("plain")
    rows = []
    for v in vs:
        ss = prog.samples[v.key]
        good = [s for s in ss if s.ok]
        thr = paired(ss, base, mbps)
        vi = prog.insns.get(v.key)
        c = counters.get(v.key)
        rows.append([v.label, f"{len(good)}/{len(ss)}", fmt(med([mbps(s) for s in good]), ".0f"),
                     "1.00" if v.key == "plain" else fmt(thr, ".2f"),
                     "0%" if v.key == "plain" else (f"{(1 / thr - 1) * 100:+.0f}%" if thr
                                                    else "n/a"),
                     fmt(med([s.cpu for s in good]), ".3f"),
                     "1.00" if v.key == "plain" else fmt(paired(ss, base, lambda s: s.cpu), ".2f"),
                     fmt(vi and vi / 1e6, ".0f"), fmt(vi / pi if vi and pi else None, ".2f"),
                     f"{c[0]} / {c[1]}" if c else "", SEED[v.key]])
    emit(ra.table(["Build", "Runs ok", "MB/s", "MB/s / plain", "slowdown (time)", "CPU s",
                   "CPU / plain", "Guest insns M", "Insns / plain", "sampled / skipped",
                   "seed 003 (kernel, MTE device, sync)"], rows))
    emit()
    for a, b in (("hw-s10", "hw-s1"), ("sw-s10", "sw-s1")):
        if a not in prog.samples or b not in prog.samples:
            continue
        gain = paired(prog.samples[a], prog.samples[b], mbps)
        ia, ib = prog.insns.get(a), prog.insns.get(b)
        c = counters.get(a)
        frac = c[0] / (c[0] + c[1]) if c and c[0] + c[1] else None
        emit(f"- {a.replace('-s10', '')} sample=10 against sample=1, {ra.EMU}: throughput "
             f"{ra.times(gain)} (median of per-round ratios), guest instructions "
             f"{ra.times(ia / ib if ia and ib else None)}; large allocations sampled: "
             + (f"{c[0]} of {c[0] + c[1]} = {frac:.1%} (about a tenth: "
                f"{'yes' if 0.09 <= frac <= 0.11 else 'NO'})" if frac is not None else "n/a"))
    emit()
    for n in notes:
        emit(f"Note: {n}")
        emit()
    if prog.failures:
        emit(f"Loopback failures ({ra.EMU}):")
        emit()
        for label, s in prog.failures:
            emit(f"- {label}: {s.why}; stderr:")
            emit()
            emit(ra.excerpt(s.err, 8))
            emit()


def main():
    import run_arm64 as ra
    args = sys.argv[1:]
    rounds = ROUNDS
    if args == ["--quick"]:
        rounds = 1
    elif len(args) == 2 and args[0] == "--rounds" and args[1].isdigit():
        rounds = max(1, int(args[1]))
    elif args:
        sys.exit("usage: run_arm64_loopback.py [--rounds N | --quick]")
    start = time.time()
    ukcc, plugin, note = ra.prepare()
    emit(f"# ukasan arm64 loopback benchmark, {ra.EMU}, {time.strftime('%Y-%m-%d %H:%M:%S')}")
    emit()
    if note:
        emit(f"Note: {note}")
        emit()
    sw = [v for v in ra.tag_variants(ukcc, ra.sw_tags_by_ukasan_cc(ukcc)) if v.key == "sw-gcc"]
    bench(ra, rounds, plugin, sw[0])
    ra.finish(f"{time.time() - start:.0f} s", ra.RESULTS, ra.OUT)


if __name__ == "__main__":
    main()
