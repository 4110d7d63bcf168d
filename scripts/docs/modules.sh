#!/usr/bin/env bash
# Sourced by the docs scripts: the products documented, and the compiler flags that let a tool outside
# SwiftPM (swiftc on a snippet, swift-symbolgraph-extract) import them from a debug build's modules.
#   DOC_PRODUCTS    the library products, each with its catalog Sources/P/P.docc
#   doc_module_flags BUILD_DIR   prints the flags (one per line): -I for the Swift modules, the C modules' maps
DOC_PRODUCTS=(MediaPipeTasksVision MLKit Video VisionAnalytics UIKitCompat)

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
