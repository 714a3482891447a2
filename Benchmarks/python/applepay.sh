#!/usr/bin/env bash
# Apple Pay EC_v1 verify + decrypt per second, Sigil (sigil-bench --applepay-rate) against
# pyca/cryptography doing the same steps (applepay.py), one run, rounds interleaved. Needs the
# release sigil-bench (cd Benchmarks && swift build -c release) and python3 with cryptography;
# never run by the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c 'import cryptography' 2>/dev/null || { echo "applepay.sh: python3 needs the cryptography package" >&2; exit 2; }
python3 Benchmarks/python/applepay.py "${1:-Benchmarks/.build/release/sigil-bench}"
