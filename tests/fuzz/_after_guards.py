"""What a program's code reads at __stop___sancov_guards, one past its last
PCGUARD guard: the section there and its first word in the file, or
"zero 0x0" when nothing with contents is there (.bss, a gap); "none" for a
program without guards. AFL++'s PCGUARD computes guard addresses up to
there (vectorised selects), so a non-zero word is an index into the
coverage map far past its end.  Usage: _after_guards.py PROGRAM"""
import subprocess
import sys

exe = sys.argv[1]
stop = None
for line in subprocess.run(["nm", exe], capture_output=True, text=True).stdout.splitlines():
    f = line.split()
    if len(f) == 3 and f[2] == "__stop___sancov_guards":
        stop = int(f[0], 16)
if stop is None:
    print("none")
    sys.exit()
for line in subprocess.run(["readelf", "-SW", exe], capture_output=True, text=True).stdout.splitlines():
    f = line.replace("[ ", "[").split()
    if len(f) < 7 or not f[0].startswith("["):
        continue
    try:
        addr, off, size = int(f[3], 16), int(f[4], 16), int(f[5], 16)
    except ValueError:
        continue
    if addr and addr <= stop < addr + size:
        if f[2] == "NOBITS":
            break
        with open(exe, "rb") as image:
            image.seek(off + stop - addr)
            word = int.from_bytes(image.read(4), "little")
        print(f"{f[1]} {word:#x}")
        sys.exit()
print("zero 0x0")
