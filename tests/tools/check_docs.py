#!/usr/bin/env python3
"""The documentation's links: every relative link and image in README.md
and docs/*.md names a file of the tree, and every #anchor a heading of the
page it points to (GitHub's anchors: the heading in lower case, without
punctuation, spaces as hyphens). And the README stays a front page: at
most 300 lines, the rest in docs/."""
import os
import re
import sys

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
LINK = re.compile(r"!?\[(?:[^\]`]|`[^`]*`)*\]\(([^)\s]+)\)")
README_MAX = 300


def say(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else " - " + why))


def slug(heading):
    s = heading.strip().lower()
    s = re.sub(r"[^\w\- ]", "", s)
    return s.replace(" ", "-")


def prose(path):
    """The page's lines outside fenced code blocks, with code spans blanked."""
    out, fence = [], False
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fence = not fence
                continue
            if not fence:
                out.append((n, re.sub(r"`[^`]*`", "``", line)))
    return out


def raw_headings(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    return text


def heading_anchors(path):
    seen, found = {}, set()
    for line in raw_headings(path).split("\n"):
        m = re.match(r"#{1,6} (.*)", line)
        if m:
            s = slug(m.group(1).replace("`", ""))
            k = seen.get(s, 0)
            seen[s] = k + 1
            found.add(s if k == 0 else "%s-%d" % (s, k))
    return found


def main():
    pages = [os.path.join(ROOT, "README.md")]
    docs = os.path.join(ROOT, "docs")
    pages += sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    bad, count = [], 0
    for page in pages:
        rel = os.path.relpath(page, ROOT)
        for n, line in prose(page):
            for target in LINK.findall(line):
                if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto:
                    continue
                count += 1
                path, _, anchor = target.partition("#")
                dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
                if not dest.startswith(ROOT + os.sep) and dest != ROOT:
                    bad.append("%s:%d: %s leaves the tree" % (rel, n, target))
                elif not os.path.exists(dest):
                    bad.append("%s:%d: %s: no such file" % (rel, n, target))
                elif anchor and dest.endswith(".md") and anchor not in heading_anchors(dest):
                    bad.append("%s:%d: %s: no heading #%s in %s" % (rel, n, target, anchor,
                                                                     os.path.relpath(dest, ROOT)))
    say(not bad and count > 0, "the %d relative links of README.md and docs/*.md lead to files "
        "and headings" % count, "; ".join(bad) if bad else "no links found")
    with open(pages[0], encoding="utf-8") as f:
        lines = sum(1 for _ in f)
    say(lines <= README_MAX, "README.md is a front page (%d lines, at most %d)" % (lines, README_MAX),
        "%d lines: move the detail into docs/" % lines)


if __name__ == "__main__":
    main()
    sys.exit(0)
