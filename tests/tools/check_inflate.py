#!/usr/bin/env python3
"""The in-process inflater (src/symbolize/inflate.c, for zlib-compressed debug
sections) against Python's zlib: streams of text, incompressible bytes and
runs, at several levels and strategies, with flushes between chunks, so
that stored blocks follow Huffman-coded ones. A stored block after a coded
block lost the bytes the decoder had read ahead (22 of 150 streams came
out wrong)."""
import os
import random
import subprocess
import zlib

ROOT = os.environ.get("UKASAN_ROOT", os.getcwd())
T = os.path.join(os.environ.get("UKASAN_TEST_TMP", "/tmp"), "inflate")


def stream(seed):
    rnd = random.Random(seed)
    c = zlib.compressobj(rnd.choice([1, 6, 9]), zlib.DEFLATED, 15, 9, rnd.choice([0, 1, 2, 3, 4]))
    data, out = b"", b""
    for i in range(rnd.randint(2, 8)):
        kind = rnd.choice(["text", "noise", "run"])
        if kind == "text":
            chunk = (b"abc def ghi %d\n" % i) * rnd.randint(1, 500)
        elif kind == "noise":
            chunk = bytes(rnd.getrandbits(8) for _ in range(rnd.randint(1, 3000)))
        else:
            chunk = bytes([rnd.getrandbits(8)]) * rnd.randint(0, 5)
        data += chunk
        out += c.compress(chunk) + c.flush(rnd.choice(
            [zlib.Z_SYNC_FLUSH, zlib.Z_FULL_FLUSH, zlib.Z_NO_FLUSH, zlib.Z_BLOCK]))
    return out + c.flush(), data


def main():
    os.makedirs(T, exist_ok=True)
    exe = os.path.join(T, "inflate")
    r = subprocess.run(["gcc", "-O1", "-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all",
                        "-I" + os.path.join(ROOT, "src", "symbolize"), "-o", exe,
                        os.path.join(ROOT, "tests", "tools", "_inflate.c"),
                        os.path.join(ROOT, "src", "symbolize", "inflate.c")],
                       capture_output=True, text=True)
    if r.returncode:
        print("not ok inflate: build - %s" % r.stderr[:300])
        return
    wrong, steps = [], []
    for seed in range(150):
        z, raw = stream(seed)
        zp, rp = os.path.join(T, "s.z"), os.path.join(T, "s.raw")
        open(zp, "wb").write(z)
        open(rp, "wb").write(raw)
        out = subprocess.run([exe, zp, rp], capture_output=True, text=True,
                             env=dict(os.environ, LD_PRELOAD="", UKASAN_OPTIONS=""))
        lines = out.stdout.splitlines()
        if out.returncode or len(lines) != 2 or not all(l.endswith(": same") for l in lines):
            wrong.append("seed %d: %s%s" % (seed, out.stdout.strip(), out.stderr[:200]))
        else:
            steps.append(int(lines[1].split()[2]))
    if wrong:
        print("not ok inflate: %d of 150 streams - %s" % (len(wrong), "; ".join(wrong[:3])))
    else:
        print("ok inflate: 150 streams with stored, fixed and dynamic blocks as zlib has them")
    # Inflated a part at a time (lazily read debug sections), stopping
    # within blocks and between them, the same bytes; and in more than a
    # few steps, or the test would not stop midway.
    if wrong:
        print("not ok inflate: block by block - not run")
    else:
        many = sum(1 for n in steps if n > 8)
        print(("ok" if many >= 100 else "not ok") +
              " inflate: a part at a time, stopping and going on, the same bytes (%d of 150 in 9 steps or more)" % many)


if __name__ == "__main__":
    main()
