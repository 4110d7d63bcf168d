"""Normalizes a swift-api-digester dump into the checked-in form of a product's API: package
declarations (`isInternal`) and plain imports left out (only `@_exported` imports are API), keys
sorted. With two dumps: prints the public declarations the second adds (by USR) and exits 1 when
there are any.

  normalize.py RAW.json OUT.json
  normalize.py --added BASELINE.json CURRENT.json
"""
import json
import sys


def strip(node):
    if isinstance(node, dict):
        out = {}
        for key, value in node.items():
            if key in ("children", "accessors") and isinstance(value, list):
                value = [c for c in value if keep(c)]
            out[key] = strip(value)
        return out
    if isinstance(node, list):
        return [strip(c) for c in node]
    return node


def keep(child):
    if not isinstance(child, dict):
        return True
    if child.get("isInternal"):
        return False
    if child.get("kind") == "Import":
        return "Exported" in (child.get("declAttributes") or [])
    return True


def usrs(node, found):
    if isinstance(node, dict):
        if "usr" in node and node.get("kind") not in ("TypeNominal", "TypeNameAlias", "TypeFunc"):
            found[node["usr"]] = node.get("printedName", node.get("name", "?"))
        for value in node.values():
            usrs(value, found)
    elif isinstance(node, list):
        for c in node:
            usrs(c, found)
    return found


def main():
    if sys.argv[1] == "--added":
        base = usrs(json.load(open(sys.argv[2])), {})
        current = usrs(json.load(open(sys.argv[3])), {})
        added = sorted(current[u] for u in current.keys() - base.keys())
        for name in added:
            print("  + " + name)
        sys.exit(1 if added else 0)
    raw = json.load(open(sys.argv[1]))
    with open(sys.argv[2], "w") as out:
        json.dump(strip(raw), out, indent=1, sort_keys=True)
        out.write("\n")


if __name__ == "__main__":
    main()
