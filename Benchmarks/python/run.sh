#!/usr/bin/env bash
# Python throughput (bench.py): a virtualenv of its own (Benchmarks/.venv-python, git-ignored) with
# Apple's app-store-server-library 3.1.x and apple-purchase-receipt-verifier 0.12.x from PyPI and this repository's `sigil` package
# (pip install ./python: the release build's libSigilC.so). Needs the network once, for PyPI;
# never run by the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
venv=Benchmarks/.venv-python
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q "app-store-server-library>=3.1,<3.2" "apple-purchase-receipt-verifier>=0.12,<0.13"
"$venv/bin/pip" install -q --force-reinstall ./python
"$venv/bin/python" Benchmarks/python/bench.py
