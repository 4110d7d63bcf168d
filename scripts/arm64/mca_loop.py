"""Prints the loop around the LLVM-MCA-BEGIN marker of an aarch64 assembly file (clang -S of a kernel built
with -DVT_MCA): the instructions from the loop's label to its branch back, without the markers — the loop as
compiled, for llvm-mca. Usage: mca_loop.py FILE.s NAME MACS [dotprod]"""
import re
import sys

path, name, macs = sys.argv[1], sys.argv[2], sys.argv[3]
lines = open(path).read().split("\n")
begin = next((i for i, line in enumerate(lines) if "LLVM-MCA-BEGIN " + name in line), None)
if begin is None:
    sys.exit("no LLVM-MCA-BEGIN %s in %s" % (name, path))
start = begin
while start > 0 and not re.match(r"^\.LBB\S+:", lines[start]):
    start -= 1
label = lines[start].split(":")[0]
end = begin
back = re.compile(r"\b(b\.\w+|b|cbn?z|tbn?z)\s+(\w+,\s*)*(#\d+,\s*)?" + re.escape(label) + r"$")
while end < len(lines) - 1 and not back.search(lines[end].strip()):
    end += 1
if end == len(lines) - 1:
    sys.exit("no branch back to %s in %s" % (label, path))
body = [l for l in lines[start + 1:end + 1] if l.strip() and not l.strip().startswith(("//", "#", "."))]
print("// %s as compiled (clang -O2, %s's loop %s): %d instructions" % (name, path.split("/")[-1], label, len(body)))
print("// MACS %s%s" % (macs, " dotprod" if len(sys.argv) > 4 else ""))
print("\n".join(body))
