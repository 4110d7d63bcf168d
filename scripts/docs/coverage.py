#!/usr/bin/env python3
"""The documentation checks docc leaves to us, run by scripts/docs/build.sh on its work directory:

- every public symbol declared in our sources (the symbol graphs of .build/docs/symbolgraph/P) has a doc
  comment — symbols the compiler synthesizes or inherits (Equatable's `!=`, `hashValue`) have no source
  location and are not ours to document;
- every module's landing page curates its top-level symbols: docc's automatic sections ("Classes",
  "Structures", …) are what is left when a symbol is under no topic, so none may remain;
- every article of the site catalog is under a topic of its landing page.

  coverage.py WORK PRODUCT...        exits 1 listing each gap
"""
import glob
import json
import os
import sys

work, products = sys.argv[1], sys.argv[2:]
gaps = []
documented = 0


def generated_sections(archive, page):
    with open(os.path.join(archive, "data", "documentation", page + ".json")) as f:
        sections = json.load(f).get("topicSections", [])
    return [s["title"] for s in sections if s.get("generated")]


for product in products:
    for path in sorted(glob.glob(os.path.join(work, "symbolgraph", product, "*.symbols.json"))):
        with open(path) as f:
            graph = json.load(f)
        for symbol in graph["symbols"]:
            uri = symbol.get("location", {}).get("uri", "")
            if "/Sources/" not in uri:
                continue
            where = uri.split("/Sources/", 1)[1]
            name = ".".join(symbol["pathComponents"])
            if symbol.get("docComment", {}).get("lines"):
                documented += 1
            else:
                gaps.append("%s: %s %s has no doc comment (%s)" % (product, symbol["kind"]["displayName"], name, where))
    archive = os.path.join(work, product + ".doccarchive")
    for title in generated_sections(archive, product.lower()):
        gaps.append("%s: symbols under no topic of Sources/%s/%s.docc/%s.md (docc made a '%s' section)"
                    % (product, product, product, product, title))
for title in generated_sections(os.path.join(work, "VisionTasks.doccarchive"), "visiontasks"):
    gaps.append("VisionTasks: articles under no topic of Documentation/VisionTasks.docc/VisionTasks.md ('%s')" % title)

if gaps:
    print("\n".join("docs: " + g for g in gaps), file=sys.stderr)
    sys.exit(1)
print("docs: %d public symbols of %d products documented, each under a topic" % (documented, len(products)))
