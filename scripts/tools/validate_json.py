#!/usr/bin/env python3
"""Validates vision-tasks output against schemas/records.schema.json (JSON Schema 2020-12).

Usage: validate_json.py SCHEMA FILE [--jsonl]
  FILE is one JSON document (--json output), or with --jsonl one record per line.
Prints "ok N" and exits 0 when every document validates; else prints each error and exits 1.
"""
import json
import sys

import jsonschema


def main() -> int:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    schema = json.load(open(args[0], encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    text = open(args[1], encoding="utf-8").read()
    docs = [line for line in text.splitlines() if line.strip()] if "--jsonl" in sys.argv else [text]
    errors = 0
    for n, doc in enumerate(docs, 1):
        try:
            value = json.loads(doc)
        except json.JSONDecodeError as e:
            print(f"{args[1]}:{n}: not JSON: {e}")
            errors += 1
            continue
        for e in validator.iter_errors(value):
            print(f"{args[1]}:{n}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
            errors += 1
    if errors:
        return 1
    print(f"ok {len(docs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
