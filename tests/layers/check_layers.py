#!/usr/bin/env python3
"""The runtime's layering, enforced: src/LAYERS names its folders top first,
and a file may include headers of its own folder and of folders below it,
never of one above, so no two folders include each other, directly or in a
loop. Also: no runtime source file over 600 lines.

The check runs on the real tree, then on a copy with one upward include
added, where it must fail: a check that cannot fail checks nothing.
"""
import os
import re
import shutil
import sys
import tempfile

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(
    os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MAX_LINES = 600
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def layers(src):
    order = []
    for line in open(os.path.join(src, "LAYERS")):
        line = line.split("#")[0].strip()
        if line:
            order.append(line.split()[0])
    return order


def violations(src):
    """(file, included header, why) for every include that goes up."""
    order = layers(src)
    rank = {name: i for i, name in enumerate(order)}
    bad = []
    for dirpath, _, files in os.walk(src):
        for f in files:
            if not f.endswith((".c", ".h", ".S")):
                continue
            path = os.path.join(dirpath, f)
            rel = os.path.relpath(path, src)
            folder = rel.split(os.sep)[0]
            if folder not in rank:
                bad.append((rel, "", f"folder {folder} is not in src/LAYERS"))
                continue
            for inc in INCLUDE.findall(open(path, errors="replace").read()):
                target = os.path.normpath(os.path.join(dirpath, inc))
                trel = os.path.relpath(target, src)
                if trel.startswith(".."):
                    continue  # include/ukasan.h, the public header
                tfolder = trel.split(os.sep)[0]
                if tfolder not in rank:
                    bad.append((rel, inc, f"{tfolder} is not in src/LAYERS"))
                elif rank[tfolder] < rank[folder]:
                    bad.append((rel, inc, f"{folder} includes {tfolder}, which is above it"))
    return bad


def long_files(src):
    out = []
    for dirpath, _, files in os.walk(src):
        for f in files:
            if f.endswith((".c", ".h", ".S")):
                path = os.path.join(dirpath, f)
                n = sum(1 for _ in open(path, errors="replace"))
                if n > MAX_LINES:
                    out.append(f"{os.path.relpath(path, src)} ({n} lines)")
    return out


def main():
    src = os.path.join(ROOT, "src")
    bad = violations(src)
    if bad:
        print("not ok layering - " + "; ".join(f"{f}: {i} ({why})" for f, i, why in bad))
    else:
        print(f"ok layering: {len(layers(src))} folders, every include goes down")
    big = long_files(src)
    print("not ok file size - " + ", ".join(big) if big else
          f"ok file size: no runtime file over {MAX_LINES} lines")
    # The same check must catch an upward include: shadow/ reaching into
    # kasan/, as kfence once did.
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "src")
        shutil.copytree(src, copy)
        victim = os.path.join(copy, "shadow", "shadow.c")
        with open(victim, "a") as f:
            f.write('\n#include "../kasan/kasan.h"\n')
        caught = [v for v in violations(copy) if v[0] == os.path.join("shadow", "shadow.c")]
        if caught and "above" in caught[0][2]:
            print("ok layering check fails on an added upward include (shadow -> kasan)")
        else:
            print("not ok layering check missed an upward include (shadow -> kasan)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
