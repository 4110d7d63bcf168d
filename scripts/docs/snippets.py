#!/usr/bin/env python3
"""The code in the documentation works: run by `make test` after the build.

- Every ```swift block of README.md, the articles (Documentation/VisionTasks.docc) and the products' catalogs
  (Sources/*/*.docc) is compiled on its own, as a reader would paste it: as main.swift (or, with `@main`, as
  a library file), Swift 6 language mode, against the products' modules of the debug build. A block whose
  first line is `// Package.swift` or `// swift-tools-version:…` is a manifest and is not compiled.
- Every command line of a ```sh block that starts with `vision-tasks ` (or `.build/release/vision-tasks `) runs
  with the debug build, when every file it names is in the shared assets (written `models/NAME`, `images/NAME`,
  or under `../shared/`, their default place beside a checkout; outputs go under `out/`), in a scratch
  directory where `models` and `images` are the assets'. `serve` and `live` run until stopped and
  are not run. A command naming files a reader brings (`my-photo.jpg`) is listed as not run.

  snippets.py BUILD_DIR ASSETS_DIR        exits 1 on the first snippet that does not compile or command that fails
"""
import glob
import os
import re
import shlex
import subprocess
import sys
import tempfile

build, assets = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
os.chdir(root)
documents = ["README.md"] + sorted(glob.glob("Documentation/*.docc/**/*.md", recursive=True)) + sorted(
    glob.glob("Sources/*/*.docc/**/*.md", recursive=True))
flags = subprocess.run(["bash", "-c", 'source scripts/docs/modules.sh && doc_module_flags "$1"', "-", build],
                       check=True, capture_output=True, text=True).stdout.split("\n")
flags = [f for f in flags if f]
FILE_SUFFIXES = (".tflite", ".jpg", ".jpeg", ".png", ".mp4", ".y4m", ".mkv", ".json", ".jsonl", ".csv", ".txt", ".html")
LONG_RUNNING = {"serve", "live"}


def blocks(path):
    """(language, first line number, text) of each fenced block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^(\s*)```(\w*)\s*$", lines[i])
        if m:
            start, indent = i + 1, len(m.group(1))
            i += 1
            while i < len(lines) and not re.match(r"^\s*```\s*$", lines[i]):
                i += 1
            yield m.group(2), start + 1, "\n".join(l[indent:] for l in lines[start:i])
        i += 1


def compile_swift(path, line, text, scratch, index):
    name = "main.swift" if "@main" not in text else "Snippet.swift"
    directory = os.path.join(scratch, "swift-%d" % index)
    os.makedirs(directory)
    source = os.path.join(directory, name)
    with open(source, "w") as f:
        f.write(text + "\n")
    command = ["swiftc", "-swift-version", "6", "-c", "-o", os.path.join(directory, "snippet.o"), source] + flags
    if name != "main.swift":
        command.insert(1, "-parse-as-library")
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("docs: the Swift snippet at %s:%d does not compile:\n%s%s" % (path, line, result.stdout, result.stderr))


def file_arguments(tokens):
    """The files a command names: each argument's value after its last `=` (`--opt=F`, `name=F`) when it has a
    directory or a file's suffix and is not an option or a URL."""
    for token in tokens:
        part = token.rsplit("=", 1)[-1]
        if ("/" in part or part.lower().endswith(FILE_SUFFIXES)) and not part.startswith(("-", "http://", "https://", "tcp://")):
            yield part


def run_command(path, line, text, scratch):
    text = text.replace("../shared/", assets + "/")
    tokens = shlex.split(text)
    if len(tokens) > 1 and tokens[1] in LONG_RUNNING:
        return False
    for argument in file_arguments(tokens[1:]):
        if argument.startswith("out/"):
            continue
        if not os.path.exists(os.path.join(scratch, argument)):
            return False
    result = subprocess.run(["bash", "-c", text], cwd=scratch, capture_output=True, text=True, timeout=300,
                            env=dict(os.environ, PATH=build + os.pathsep + os.environ["PATH"],
                                     VISION_TASKS_ASSETS=assets))
    if result.returncode != 0:
        sys.exit("docs: the command at %s:%d failed (exit %d): %s\n%s%s"
                 % (path, line, result.returncode, text, result.stdout[-2000:], result.stderr[-2000:]))
    return True


compiled, ran, not_run = 0, 0, []
with tempfile.TemporaryDirectory() as scratch:
    os.symlink(os.path.join(assets, "models"), os.path.join(scratch, "models"))
    os.symlink(os.path.join(assets, "images"), os.path.join(scratch, "images"))
    os.makedirs(os.path.join(scratch, "out"))
    for document in documents:
        for language, line, text in blocks(document):
            if language == "swift":
                if text.lstrip().startswith(("// Package.swift", "// swift-tools-version")):
                    continue
                compile_swift(document, line, text, scratch, compiled)
                compiled += 1
            elif language in ("sh", "bash", "shell"):
                for offset, command in enumerate(text.split("\n")):
                    command = command.split(" #", 1)[0].strip()
                    if command.startswith(".build/release/vision-tasks "):
                        command = command[len(".build/release/"):]
                    if not command.startswith("vision-tasks "):
                        continue
                    if run_command(document, line + offset, command, scratch):
                        ran += 1
                    else:
                        not_run.append("%s:%d %s" % (document, line + offset, command))
if compiled == 0 or ran == 0:
    sys.exit("docs: found %d Swift snippets and ran %d commands: the documents lost their examples" % (compiled, ran))
print("docs: %d Swift snippets compiled; %d commands ran; %d need a reader's files or run until stopped:"
      % (compiled, ran, len(not_run)))
for entry in not_run:
    print("  " + entry)
