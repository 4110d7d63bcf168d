#!/usr/bin/env bash
# make docs: the documentation site, built offline with the toolchain's own docc.
#   1. each product's symbol graph, extracted from the debug build's modules (public symbols);
#   2. each product's catalog (Sources/P/P.docc: its landing page and topics) converted with its graph, and
#      the articles (Documentation/VisionTasks.docc) — every docc warning is an error;
#   3. the checks docc does not make (scripts/docs/coverage.py): every public symbol declared in our sources
#      has a doc comment, and every module's top-level symbols are curated under a topic of its landing page;
#   4. the archives merged into one static site: DOCS_OUT (default out/docs), which any static server hosts
#      (`python3 -m http.server -d out/docs`, then /documentation/).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
source scripts/docs/modules.sh
build=${DOCS_BUILD:-.build/debug}
out=${DOCS_OUT:-out/docs}
work=.build/docs
rm -rf "$work" && mkdir -p "$work"
mapfile -t flags < <(doc_module_flags "$build")
mapfile -t products < <(doc_products)
[ ${#products[@]} -gt 0 ] || { echo "docs: no library products from swift package dump-package" >&2; exit 1; }
triple=$(swiftc -print-target-info | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["triple"])')

archives=()
for product in "${products[@]}"; do
  graphs="$work/symbolgraph/$product"
  mkdir -p "$graphs"
  swift-symbolgraph-extract -module-name "$product" -target "$triple" -minimum-access-level public \
    -output-dir "$graphs" "${flags[@]}"
  lower=$(tr '[:upper:]' '[:lower:]' <<<"$product")
  docc convert "Sources/$product/$product.docc" --additional-symbol-graph-dir "$graphs" \
    --fallback-display-name "$product" --fallback-bundle-identifier "org.visiontasks.$lower" \
    --output-path "$work/$product.doccarchive" --transform-for-static-hosting --warnings-as-errors >"$work/$product.log" 2>&1 \
    || { cat "$work/$product.log" >&2; echo "docs: docc failed on $product's catalog" >&2; exit 1; }
  archives+=("$work/$product.doccarchive")
done
docc convert Documentation/VisionTasks.docc --fallback-display-name VisionTasks \
  --fallback-bundle-identifier org.visiontasks --output-path "$work/VisionTasks.doccarchive" --transform-for-static-hosting \
  --warnings-as-errors >"$work/VisionTasks.log" 2>&1 \
  || { cat "$work/VisionTasks.log" >&2; echo "docs: docc failed on the articles" >&2; exit 1; }
python3 scripts/docs/coverage.py "$work" "${products[@]}"
rm -rf "$out" && mkdir -p "$(dirname "$out")"
docc merge "$work/VisionTasks.doccarchive" "${archives[@]}" --synthesized-landing-page-name VisionTasks --synthesized-landing-page-topics-style list \
  --output-path "$out" >"$work/merge.log" 2>&1 || { cat "$work/merge.log" >&2; exit 1; }
# The renderer's settings (the site's title, quick navigation), which it asks the server for on every page.
cp Documentation/VisionTasks.docc/theme-settings.json "$out/"
echo "docs: $out (open /documentation/ from a static server: python3 -m http.server -d $out)"
