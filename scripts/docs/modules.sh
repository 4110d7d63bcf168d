#!/usr/bin/env bash
# Sourced by the docs scripts (from the package's root): the products documented, and the compiler flags that
# let a tool outside SwiftPM (swiftc on a snippet, swift-symbolgraph-extract) import them from a debug build.
#   doc_products                 prints the library products of Package.swift, each with its catalog Sources/P/P.docc
#   doc_module_flags BUILD_DIR   prints the flags (one per line): -I for the Swift modules, the C modules' maps

doc_products() {
  swift package dump-package | python3 -c 'import json, sys
print("\n".join(p["name"] for p in json.load(sys.stdin)["products"] if "library" in p["type"]))'
}

doc_module_flags() {
  local build=$1 map
  [ -d "$build/Modules" ] || { echo "docs: no Swift modules in $build (build first: swift build)" >&2; return 1; }
  echo "-I"
  echo "$build/Modules"
  for map in "$build"/*.build/module.modulemap Sources/*/module.modulemap; do
    echo "-Xcc"
    echo "-fmodule-map-file=$map"
  done
}
