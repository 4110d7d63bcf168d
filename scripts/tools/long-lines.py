"""Lines of Swift over 120 characters (Unicode characters, as an editor shows them): prints
FILE:LINE for each and exits 1 when there is any. Usage: long-lines.py DIR..."""
import pathlib
import sys

LIMIT = 120
found = 0
for root in sys.argv[1:]:
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        if ".build" in path.parts:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
            if len(line) > LIMIT:
                print(f"{path}:{number}: {len(line)} characters (at most {LIMIT})")
                found += 1
sys.exit(1 if found else 0)
