#!/usr/bin/env bash
# ISO/IEC 18013-5 Annex D verified per second, Sigil (sigil-bench --mdoc-rate) against pymdoccbor
# (mdoc.py, in Scripts/get-peers' virtual environment), one run, rounds interleaved. Needs the
# release sigil-bench (cd Benchmarks && swift build -c release) and Scripts/get-peers; never run by
# the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
Scripts/get-peers > /dev/null
.build-peers/venv/bin/python3 Benchmarks/python/mdoc.py "${1:-Benchmarks/.build/release/sigil-bench}"
