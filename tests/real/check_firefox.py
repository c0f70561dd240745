#!/usr/bin/env python3
"""Firefox (Debian's firefox-esr) keeps working under the KFENCE preload.

firefox-esr --headless --screenshot OUT.png of a local page (three solid
colour blocks and a line of text), with a fresh profile (--profile DIR,
HOME in the tmp dir) each run: once without the preload, once with
libukasan.so preloaded (UKASAN_OPTIONS empty: the default setting).
Firefox is a hard case: its executable defines malloc itself
(mozjemalloc), so the program's malloc comes before libukasan.so's in the
symbol lookup, and it starts child processes (content, GPU/RDD, socket)
that inherit the preload.

The lines:

* "firefox baseline (no preload)": exit status 0, the PNG decodes and shows
  the page (the three blocks' colours where they belong), and stderr has
  none of the crash signs below: an environment problem is not blamed on
  ukasan (the other lines then say "fails without the preload");
* "firefox [default] exit": the preloaded run exits with status 0 (in time);
* "firefox [default] stderr": its stderr has no "BUG:" line and none of
  the signs of a crashed process: glibc's malloc aborts ("free(): invalid
  pointer", "double free or corruption", "malloc(): ...", "munmap_chunk()",
  "corrupted ..."), "Aborted", "Segmentation fault", MOZ_CRASH, and
  Firefox's "... receives IPC close with reason=AbnormalShutdown" (a
  child process died). A child that aborts need not change the exit
  status or the picture, hence this line of its own;
* "firefox [default] screenshot": the two PNGs are pixel-identical
  (decoded here with zlib: 8-bit RGB or RGBA, not interlaced).

Each run has a timeout of 50 s and the check as a whole stays under 120 s;
every process Firefox started gets SIGKILL at the end. When firefox-esr is
not installed (tools/deps.sh test installs it), the lines say "skipped".
"""
import os
import re
import shutil
import signal
import struct
import sys
import time
import zlib

from _proc import Failed, log, notok, ok, run, status_text

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BUILD = os.environ.get("UKASAN_BUILD") or os.path.join(ROOT, "build")
LIB = os.path.join(BUILD, "lib", "libukasan.so")
TEST_TMP = os.environ.get("UKASAN_TEST_TMP") or "/tmp"
TMP = os.path.join(TEST_TMP, "firefox")
RUN_TIMEOUT = 50
WIDTH, HEIGHT = 800, 400

PAGE = """<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>ukasan</title><style>
html, body { margin: 0; padding: 0; background: #ffffff; }
body { font: 24px sans-serif; color: #000000; }
.b { width: 200px; height: 100px; float: left; }
p { clear: both; margin: 0; padding-top: 20px; }
</style></head><body>
<div class="b" style="background: #dd0000"></div>
<div class="b" style="background: #00aa00"></div>
<div class="b" style="background: #0000cc"></div>
<p>ukasan under Firefox: 0123456789 The quick brown fox</p>
</body></html>
"""
# (x, y) -> RGB the baseline must show.
PROBES = {(100, 50): (0xdd, 0, 0), (300, 50): (0, 0xaa, 0), (500, 50): (0, 0, 0xcc),
          (700, 50): (0xff, 0xff, 0xff), (400, 350): (0xff, 0xff, 0xff)}

CRASH = re.compile(r"BUG:|free\(\)|double free|corrupted|malloc\(\)|realloc\(\)|munmap_chunk|Aborted"
                   r"|Segmentation fault|MOZ_CRASH|AbnormalShutdown|Crash Annotation|SIGSEGV|SIGABRT")

NAMES = ["firefox baseline (no preload)", "firefox [default] exit", "firefox [default] stderr",
         "firefox [default] screenshot"]


def png_pixels(path):
    """(width, height, rows of RGB bytes) of an 8-bit RGB/RGBA PNG."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise Failed(f"{os.path.basename(path)} is not a PNG")
    pos, idat, hdr = 8, [], None
    while pos + 8 <= len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
        pos += 12 + n
    if not hdr:
        raise Failed(f"{os.path.basename(path)} has no IHDR")
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise Failed(f"{os.path.basename(path)}: depth {depth}, colour type {ctype}, interlace {interlace}: "
                     f"not decoded here")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif ft == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    if bpp == 4:  # compare colours; alpha is opaque in a screenshot
        rows = [bytes(r[i] for i in range(len(r)) if i % 4 != 3) for r in rows]
    return w, h, rows


def screenshot(label, env):
    d = os.path.join(TMP, label)
    os.makedirs(os.path.join(d, "profile"))
    os.makedirs(os.path.join(d, "home"))
    env = dict(env, HOME=os.path.join(d, "home"), TMPDIR=os.path.join(d, "home"))
    out = os.path.join(d, "shot.png")
    cmd = ["firefox-esr", "--headless", "--no-remote", "--profile", os.path.join(d, "profile"),
           "--window-size", f"{WIDTH},{HEIGHT}", "--screenshot", out, "file://" + os.path.join(TMP, "page.html")]
    t0 = time.time()
    status, o, err = run(cmd, env, RUN_TIMEOUT)
    log(f"firefox {label}: {time.time() - t0:.1f}s, {status_text(status)}")
    return status, (o + err).decode(errors="replace"), out


def crash_lines(t):
    return [l for l in t.splitlines() if CRASH.search(l)]


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    start = time.time()
    if not shutil.which("firefox-esr"):
        for n in NAMES:
            ok(f"{n} (skipped: firefox-esr not installed; tools/deps.sh test installs it)")
        return
    if not os.path.exists(LIB):
        for n in NAMES:
            notok(n, f"{LIB} not built")
        return
    if os.path.isdir(TMP):
        shutil.rmtree(TMP)
    os.makedirs(TMP)
    with open(os.path.join(TMP, "page.html"), "w") as f:
        f.write(PAGE)
    env = dict(os.environ)
    for k in ("LD_PRELOAD", "UKASAN_OPTIONS", "DISPLAY", "WAYLAND_DISPLAY", "MOZ_HEADLESS"):
        env.pop(k, None)
    env.update(LC_ALL="C", LANG="C", TZ="UTC", MOZ_CRASHREPORTER_DISABLE="1")

    # baseline
    base_bad, base_pixels = None, None
    try:
        status, text, png = screenshot("baseline", env)
        if status != 0:
            raise Failed(f"{status_text(status)}: {text.strip()[-300:]!r}")
        bad = crash_lines(text)
        if bad:
            raise Failed(f"stderr has {bad[0][:200]!r} (+{len(bad) - 1} such lines)")
        if not os.path.exists(png):
            raise Failed(f"no screenshot written: {text.strip()[-300:]!r}")
        w, h, rows = png_pixels(png)
        for (x, y), rgb in PROBES.items():
            if x >= w or y >= h:
                raise Failed(f"screenshot is {w}x{h}, too small for the page")
            got = tuple(rows[y][3 * x:3 * x + 3])
            if got != rgb:
                raise Failed(f"pixel ({x},{y}) is {got}, the page has {rgb}: not the page")
        base_pixels = (w, h, rows)
        ok(f"{NAMES[0]} ({w}x{h})")
    except (Failed, OSError, zlib.error) as e:
        base_bad = str(e)
        notok(NAMES[0], base_bad)
    if base_bad:
        for n in NAMES[1:]:
            notok(n, f"fails without the preload: {base_bad}")
        return

    # preloaded, the default setting
    status, text, png = screenshot("default", dict(env, LD_PRELOAD=LIB, UKASAN_OPTIONS=""))
    if status == 0:
        ok(NAMES[1])
    else:
        notok(NAMES[1], f"{status_text(status)}; output ends {text.strip()[-300:]!r}")
    bad = crash_lines(text)
    if bad:
        kinds = sorted({CRASH.search(l).group(0) for l in bad})
        notok(NAMES[2], f"{len(bad)} lines of crashed processes ({', '.join(kinds)}), e.g. "
                        + " | ".join(repr(l[:150]) for l in bad[:4]))
    else:
        ok(NAMES[2])
    try:
        if not os.path.exists(png):
            raise Failed("no screenshot written")
        w, h, rows = png_pixels(png)
        bw, bh, brows = base_pixels
        if (w, h) != (bw, bh):
            raise Failed(f"{w}x{h}, without the preload {bw}x{bh}")
        diff = [y for y in range(h) if rows[y] != brows[y]]
        if diff:
            raise Failed(f"{len(diff)} rows differ from the run without the preload (first: row {diff[0]})")
        ok(NAMES[3])
    except (Failed, OSError, zlib.error) as e:
        notok(NAMES[3], str(e))
    log(f"firefox total {time.time() - start:.1f}s")


if __name__ == "__main__":
    main()
