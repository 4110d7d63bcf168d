"""The module diagram of docs/architecture.md, made from Package.swift, and the checks that keep
the two and the sources in agreement:

  architecture.py            prints the diagram (paste it between the markers in the doc)
  architecture.py --check    exits 1, saying why, when the doc's diagram is not the one Package.swift
                             gives, or when a target imports a module of the package it does not
                             declare, or declares one it never imports (an unused dependency)

The diagram lists every module once, layer by layer (a module imports only modules above it),
with what it depends on; library products are marked with a star.
"""
import json
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
BEGIN = "<!-- modules: made by scripts/tools/architecture.py from Package.swift; make lint checks it -->"
END = "<!-- end of modules -->"
IMPORT = re.compile(r"^\s*(?:@_exported\s+|@testable\s+)?(?:(?:public|package|internal)\s+)?import\s+"
                    r"(?:(?:struct|enum|class|protocol|func|var|typealias)\s+)?([A-Za-z_][A-Za-z0-9_]*)")


def package():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def dependencies(target):
    names = []
    for dep in target.get("dependencies", []):
        for kind in ("byName", "target", "product"):
            if kind in dep:
                names.append(dep[kind][0])
    return names


def diagram(pkg):
    targets = {t["name"]: t for t in pkg["targets"] if t["type"] in ("regular", "system", "executable")}
    deps = {name: [d for d in dependencies(t) if d in targets] for name, t in targets.items()}
    products = {p["name"] for p in pkg["products"] if "library" in p["type"]}
    layer = {}

    def depth(name, seen=()):
        if name in layer:
            return layer[name]
        if name in seen:
            raise SystemExit(f"architecture: dependency cycle through {name}")
        layer[name] = 1 + max((depth(d, seen + (name,)) for d in deps[name]), default=-1)
        return layer[name]

    for name in targets:
        depth(name)
    width = max(len(n) for n in targets) + 4
    lines = ["```", "module (★ library product)    depends on (every one in a row above)"]
    for level in range(max(layer.values()) + 1):
        for name in sorted(n for n in targets if layer[n] == level):
            label = name + (" ★" if name in products else "")
            parts = sorted(deps[name], key=lambda d: (layer[d], d))
            lines.append((label.ljust(width) + ("──► " + ", ".join(parts) if parts else "")).rstrip())
    lines.append("```")
    return "\n".join(lines)


def imports(folder, modules):
    found = set()
    for path in folder.rglob("*.swift"):
        for line in path.read_text(encoding="utf-8").splitlines():
            m = IMPORT.match(line)
            if m and m.group(1) in modules:
                found.add(m.group(1))
    return found


def check(pkg):
    problems = []
    text = DOC.read_text(encoding="utf-8")
    if BEGIN not in text or END not in text:
        problems.append(f"{DOC.relative_to(ROOT)}: no diagram between the markers {BEGIN} … {END}")
    else:
        current = text.split(BEGIN, 1)[1].split(END, 1)[0].strip()
        if current != diagram(pkg):
            problems.append(f"{DOC.relative_to(ROOT)}: the module diagram is not Package.swift's; "
                            "run python3 scripts/tools/architecture.py and paste its output between the markers")
    modules = {t["name"] for t in pkg["targets"]}
    for t in pkg["targets"]:
        if t["type"] in ("system", "plugin"):
            continue
        folder = ROOT / (t.get("path") or ("Tests/" if t["type"] == "test" else "Sources/") + t["name"])
        if not folder.is_dir() or not any(folder.rglob("*.swift")):
            continue  # C targets include their headers; the compiler checks those
        declared = {d for d in dependencies(t) if d in modules}
        used = imports(folder, modules) - {t["name"]}
        for name in sorted(used - declared):
            problems.append(f"Package.swift: {t['name']} imports {name} without declaring it")
        for name in sorted(declared - used):
            problems.append(f"Package.swift: {t['name']} declares {name} and never imports it (an unused dependency)")
    return problems


def main():
    pkg = package()
    if "--check" in sys.argv[1:]:
        problems = check(pkg)
        for p in problems:
            print("architecture: " + p, file=sys.stderr)
        sys.exit(1 if problems else 0)
    print(diagram(pkg))


if __name__ == "__main__":
    main()
