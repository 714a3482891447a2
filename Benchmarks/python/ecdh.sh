#!/usr/bin/env bash
# P-256 ECDH with a fresh peer key per second, Sigil (sigil-bench --ecdh-rate: the fixed window and
# the comb it replaced) against pyca/cryptography (ecdh.py), one run, rounds interleaved. Needs the
# release sigil-bench (cd Benchmarks && swift build -c release) and python3 with cryptography;
# never run by the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
python3 -c 'import cryptography' 2>/dev/null || { echo "ecdh.sh: python3 needs the cryptography package" >&2; exit 2; }
python3 Benchmarks/python/ecdh.py "${1:-Benchmarks/.build/release/sigil-bench}"
