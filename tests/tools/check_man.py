#!/usr/bin/env python3
"""The manual pages (man/): each renders with groff -man -ww without a
warning, and each tool's page names every subcommand, flag and
environment variable that tool's --help prints, so that a flag added to a
tool without a word in its page fails here. The tools are run from
tools/, as make install copies them."""
import os
import re
import shutil
import subprocess
import sys

ROOT = os.environ.get("UKASAN_ROOT") or os.path.dirname(os.path.dirname(
    os.path.dirname(os.path.abspath(__file__))))
MAN = os.path.join(ROOT, "man")
TOOLS = os.path.join(ROOT, "tools")

# page -> the commands whose --help it documents
PAGES = {
    "ukasan.1": [["sh", os.path.join(TOOLS, "ukasan"), "--help"]],
    "ukasan-cc.1": [["sh", os.path.join(TOOLS, "ukasan-cc"), "--help"]],
    "ukasan-symbolize.1": [["python3", os.path.join(TOOLS, "ukasan-symbolize"), "--help"]],
}

# A flag starts a word: -o, --kasan, -fsanitize=address (a value, when it is
# a word, belongs to the flag: -fsanitize=fuzzer-no-link is not
# -fsanitize=fuzzer).
FLAG = re.compile(r"(?<![\w\-=/.])(--?[A-Za-z][A-Za-z0-9_-]*(?:=[A-Za-z][A-Za-z0-9_-]*)?)")
VAR = re.compile(r"\b(UKASAN_[A-Z_]+)\b")
SUB = re.compile(r"^(?:usage:)?\s+ukasan ([a-z]+)\b", re.M)


def say(ok, name, why=""):
    print(("ok " if ok else "not ok ") + name + ("" if ok else " - " + why))


def plain(roff):
    """The page's text as a reader sees it, near enough to search: escapes
    for the minus sign, fonts and zero-width breaks gone."""
    t = roff.replace("\\-", "-").replace("\\&", "").replace("\\c", "").replace("\\e", "\\")
    t = re.sub(r"\\f(\[[A-Z]*\]|[BIRP])", "", t)
    # .BR a ", " b: the quotes and macro names are not the words
    return t


def words(help_text):
    help_text = help_text.replace("-f[no-]", "-f")
    found = set(FLAG.findall(help_text)) | set(VAR.findall(help_text))
    found |= {"ukasan " + s for s in SUB.findall(help_text)}
    return sorted(found)


def has(text, word):
    return re.search(r"(?<![\w-])" + re.escape(word) + r"(?![\w-])", text) is not None


def main():
    groff = shutil.which("groff")
    pages = sorted(f for f in os.listdir(MAN) if re.search(r"\.[1-8]$", f)) \
        if os.path.isdir(MAN) else []
    for want in PAGES:
        if want not in pages:
            say(False, "man/" + want, "missing")
    for page in pages:
        path = os.path.join(MAN, page)
        if not groff:
            say(False, "man/%s renders" % page, "groff not installed (tools/deps.sh core)")
        else:
            r = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", path],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            err = r.stderr.strip()
            say(r.returncode == 0 and not err, "man/%s renders without warnings" % page,
                err.splitlines()[0] if err else "groff exited %d" % r.returncode)
        man = shutil.which("man")
        if man:
            r = subprocess.run([man, "-l", path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env=dict(os.environ, MANWIDTH="80", MAN_KEEP_FORMATTING=""))
            err = r.stderr.strip()
            say(r.returncode == 0 and not err and "NAME" in r.stdout, "man -l man/%s" % page,
                err.splitlines()[0] if err else "exit %d, no NAME section" % r.returncode)
        if page not in PAGES:
            continue
        with open(path, encoding="utf-8") as f:
            text = plain(f.read())
        for cmd in PAGES[page]:
            r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            tool = os.path.basename(cmd[1])
            ws = words(r.stdout)
            if r.returncode != 0 or not ws:
                say(False, "%s --help" % tool, "exit %d: %s" % (r.returncode, r.stdout[:200]))
                continue
            missing = [w for w in ws if not has(text, w)]
            say(not missing, "man/%s documents all %d of %s --help's flags, variables and "
                "subcommands" % (page, len(ws), tool), "not in the page: " + ", ".join(missing))


if __name__ == "__main__":
    main()
    sys.exit(0)
