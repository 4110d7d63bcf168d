# VisionTasks — the two entry points are `make demo` and `make test`; each does its own set-up.
SHELL := /bin/bash
export VISION_TASKS_ASSETS ?= $(abspath $(CURDIR)/../shared)
export LITERT_LIBRARY ?= $(CURDIR)/.litert/lib/libLiteRt.so
SWIFT ?= swift

.PHONY: setup image image-check build demo test docs lint api avx2 help bench-serve serve-campaign downstream arm64 arm64-goldens arm64-insncount arm64-mca test-slurm bench roofline bench-track bench-throughput tracking goldens eval-goldens yolo-fixtures fuzz sanitize campaign clean

## setup: system libraries (apt, when missing) and LiteRT's libLiteRt.so (PyPI, sha256-checked).
setup:
	@scripts/install-system-deps.sh
	@scripts/fetch-litert.sh
	@scripts/tools/setup.sh

## build: the release build of the vision-tasks command (after setup).
build: setup
	$(SWIFT) build -c release --product vision-tasks

## demo: detection on a sample photo; prints the result and writes out/demo_detections.jpg.
demo: build
	@mkdir -p out
	@set -e; read -r model image <<< "$$(scripts/demo-assets.sh)"; \
	  echo "model: $$model"; echo "image: $$image"; \
	  .build/release/vision-tasks detect --model "$$model" "$$image" --output out/demo_detections.jpg

## test: the whole test suite (with CI=true, missing assets or runtime fail instead of skipping), built
## with complete concurrency checking; the build must print no warning (scripts/lint.sh). Then the code in
## the documentation: every Swift snippet compiled, every command that needs only the shared assets run.
test: setup
	@mkdir -p .build
	set -o pipefail; $(SWIFT) build --build-tests -Xswiftc -strict-concurrency=complete 2>&1 | tee .build/build-tests.log
	@scripts/lint.sh --build-log .build/build-tests.log
	$(SWIFT) test --skip-build
	@python3 scripts/docs/snippets.py .build/debug "$(VISION_TASKS_ASSETS)"

## docs: the documentation site, built offline with the toolchain's docc: each product's reference
## (Sources/P/P.docc) and the articles (Documentation/VisionTasks.docc) merged into out/docs, any static
## server hosts it (python3 -m http.server -d out/docs, then /documentation/). docc warnings are errors; every
## public symbol has a doc comment and is under a topic; four pages checked in headless Chromium
## (screenshots in out/docs-screenshots).
docs: setup
	$(SWIFT) build -Xswiftc -strict-concurrency=complete --product vision-tasks
	@scripts/docs/build.sh
	@python3 scripts/docs/check_site.py out/docs out/docs-screenshots

## lint: swift-format (the toolchain's, .swift-format) finds nothing; no unsafe flags, every @unchecked
## Sendable with its invariant, no nonisolated(unsafe) state.
lint:
	@scripts/lint.sh
	$(SWIFT) format lint --strict --recursive Sources Tests Plugins scripts/downstream/SeedApp/Sources
	@echo "lint: swift format clean"

## avx2: the CKernels suites (single ops and whole models bit for bit against LiteRT) under qemu-x86_64
## emulating an AVX2-only AMD EPYC (no AVX-512): our AVX2 paths against XNNPACK's AVX2/FMA3 kernels.
avx2: setup
	$(SWIFT) build --build-tests
	scripts/x86/avx2-check.sh

## api: the products' public API against the baseline in api/ (API=update rewrites it after a deliberate change).
api: setup
	@scripts/api/check.sh $(API)

## help: the targets and what they do.
help:
	@grep -E '^## ' Makefile | sed -e 's/^## //'

## downstream: a fresh Swift 6 package depends on this one by version (file:// URL, tag 1.0.0), gets
## the runtime with the plugin, builds debug and release and under ThreadSanitizer, runs the seeds' code
## and checks it against MediaPipe's goldens.
downstream: setup
	@scripts/downstream/check.sh

## arm64: Debian's Swift 6.0.3 (a cached trixie chroot and arm64 sysroot, pinned in scripts/arm64/debian.lock):
## the package built and tested natively, cross-built for aarch64 (library, CLI, test bundle), the test
## bundle and the seed package run under qemu-aarch64; the C kernels and the aarch64 runtime checked first.
## Then scripts/arm64/run PROGRAM ARGS... runs an aarch64 product. ARM64_STAGES / ARM64_TEST_FILTER pick parts.
arm64: setup
	@scripts/arm64/check.sh
	@scripts/arm64/build.sh

## arm64-goldens: MediaPipe 1.2.2's aarch64 wheel under qemu writes Tests/Goldens/aarch64 (where it differs).
arm64-goldens: setup
	@scripts/arm64/goldens.sh

## arm64-insncount: arm64 speed by proxy — the instructions a photo costs (file → result, 1 thread) under qemu-aarch64,
## ours (the aarch64 release CLI) vs MediaPipe 1.2.2's aarch64 wheel, per model (ARM64_CPU, default neoverse-n1).
arm64-insncount: setup
	@scripts/arm64/insncount.sh

## arm64-mca: the aarch64 inner loops on paper (llvm-mca, Neoverse-N1 and Cortex-A72): cycles and instructions per
## 64 multiply-adds of each loop in scripts/arm64/mca/, XNNPACK's beside ours.
arm64-mca:
	@scripts/arm64/mca.sh

## bench: release benchmarks (ours vs raw LiteRT; add MEDIAPIPE=1 for MediaPipe 1.2.2, OPENVINO=1 for OpenVINO from
## PyPI, LITERT=1 for our task on LiteRT's own kernels; side by side).
bench: build
	@scripts/bench/bench.sh

## roofline: this core's multiply-add peak for the exact kernels' inner loops (VNNI and AVX2, a micro-benchmark)
## and each shared model's multiply-adds and time at that peak, to compare with `make bench`'s inference.
roofline: setup
	@scripts/bench/roofline.sh

## image: the OCI image (Containerfile) with podman: localhost/vision-tasks:latest and :VERSION, built with
## Debian's Swift on debian:trixie-slim (made from Debian's packages when no registry answers); prints its size.
## VIDEO=yes adds Debian's FFmpeg libraries for /v1/video (tags :latest-video, :VERSION-video).
image: setup
	@scripts/image/build.sh

## image-check: builds the image if needed and runs it: Frigate's post and pydoods get detect's rows, the key
## from a mounted file, /healthz and the HEALTHCHECK, SIGTERM, the default command.
image-check: setup
	$(SWIFT) build --product vision-tasks
	@scripts/image/check.sh .build/debug/vision-tasks

## bench-serve: vision-tasks serve vs MediaPipe 1.2.2 behind FastAPI/uvicorn (wrk, loopback): throughput and
## latency at concurrency 1/4/16, Frigate's 320×320 frame, memory over 10,000 requests, overload.
bench-serve: build
	@scripts/bench/bench-serve.sh

## serve-campaign: bad input against a running vision-tasks serve (HTTP and ZMQ); counts as JSON.
ROUNDS ?= 20
serve-campaign: setup
	$(SWIFT) build --product vision-tasks
	.venv-tools/bin/python scripts/serve/campaign.py .build/debug/vision-tasks $(VISION_TASKS_ASSETS)/models/ssd_mobilenet_v1_coco_quant_metadata.tflite $(VISION_TASKS_ASSETS)/images/dog.jpg --rounds $(ROUNDS)

## test-slurm: a real one-node Slurm (slurm-wlm, munge; installed when missing) runs a 4-task array over
## the shared photos and video; the merged shards must equal a single run's records.
test-slurm: build
	@scripts/slurm/test-shards.sh

## bench-throughput: the app's pipeline vs a sequential loop on the shared photos and on car-detection.mp4.
bench-throughput: build
	@scripts/bench/bench-throughput.sh

## bench-track: stream-mode frames/s on a video, classification on vs the localizer alone (1 thread, pinned).
bench-track: build
	@scripts/bench/bench-track.sh

## tracking: tracking quality vs ByteTrack on generated sequences (py-motmetrics; VARIANT=1,2 for held-out sets).
TRACKING_ARGS ?=
tracking: build
	@scripts/tracking/evaluate.sh $(TRACKING_ARGS)

## fuzz: libFuzzer targets (model, metadata, picture) built with -sanitize=fuzzer,address, SECONDS each (default 60).
SECONDS_EACH ?= 60
fuzz: setup
	scripts/fuzz.sh $(SECONDS_EACH)

## sanitize: the test suite under AddressSanitizer (and UBSan for the C modules).
sanitize: setup
	$(SWIFT) build --build-tests --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined
	VISION_TASKS_SANITIZER=address ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test --skip-build --sanitize=address -Xcc -fsanitize=undefined -Xcc -fno-sanitize-recover=undefined

## campaign: mutated models and pictures through the release CLI (crash/hang/memory check).
COUNT ?= 5000
campaign: build
	python3 scripts/campaign.py --count $(COUNT)

## goldens: regenerate Tests/Goldens with MediaPipe 1.2.2 and ai-edge-litert 2.3.0 (PyPI).
goldens:
	scripts/goldens/generate.sh

## yolo-fixtures: regenerate the YOLO test models and Ultralytics' predictions on them (not CI; ~7 GB of wheels).
yolo-fixtures:
	scripts/yolo/generate.sh

## eval-goldens: regenerate the evaluation and zone references (pycocotools, TrackEval, py-motmetrics, supervision).
eval-goldens:
	scripts/eval/generate.sh

## clean: removes the build, out/ and .cache/ (not the fetched runtime or the tools' virtualenv).
clean:
	$(SWIFT) package clean
	rm -rf out .cache
