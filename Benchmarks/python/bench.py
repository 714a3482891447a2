#!/usr/bin/env python3
"""Verifications per second through Python on one real App Store JWS: the `sigil` package (over
libSigilC) against Apple's App Store Server Library for Python (app-store-server-library 3.1.x)
and apple-purchase-receipt-verifier 0.12.x (a WebAssembly core on wasmtime-py), all verifying the
same Sandbox transaction, bundle id and environment enforced, in one process, rounds interleaved.
The peer checks neither bundle id nor environment itself (its README leaves them to the caller), so
its row does both in Python after its verdict, as its README's checklist shows. Run by Benchmarks/python/run.sh (its own virtualenv); never by the tests.

Apple's library verifies offline (enable_online_checks=False) and then caches no chain: every call
validates x5c. Sigil's C ABI shares one chain cache across calls; its uncached row runs in a child
process with SIGIL_CHAIN_CACHE_SECONDS=0 (the cache off: every chain validated)."""
import os
import platform
import statistics
import subprocess
import sys

import rates

import sigil
from appstoreserverlibrary.models.Environment import Environment
from appstoreserverlibrary.signed_data_verifier import SignedDataVerifier
import apple_purchase_receipt_verifier as aprv
import json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
APPLE = subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), "apple"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
JWS = open(os.path.join(APPLE, "real/jws/mingos-app_store_server_api/sandbox-transaction-consumable-2025-02-10.jws")).read().strip()
G3 = open(os.path.join(APPLE, "real/apple-pki/AppleRootCA-G3.cer"), "rb").read()
BUNDLE = "com.goodheartapp"
SECONDS = float(os.environ.get("BENCH_SECONDS", "3"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def rate(call):
    return rates.rate(call, SECONDS)


def sigil_rate():
    return rate(lambda: sigil.verify(JWS, "transaction", bundle_id=BUNDLE, environments=["Sandbox"]))


def uncached_rate():
    """sigil_rate() in a child process whose libSigilC keeps no chain."""
    environment = dict(os.environ, SIGIL_CHAIN_CACHE_SECONDS="0")
    output = subprocess.run(
        [sys.executable, os.path.abspath(__file__), "--sigil-rate"], env=environment, stdout=subprocess.PIPE, check=True)
    return float(output.stdout.decode())


def main():
    if sys.argv[1:] == ["--sigil-rate"]:
        print(sigil_rate())
        return 0
    apple = SignedDataVerifier([G3], False, Environment.SANDBOX, BUNDLE)
    assert apple.verify_and_decode_signed_transaction(JWS).transactionId == "2000000847061981"
    answer = sigil.verify(JWS, "transaction", bundle_id=BUNDLE, environments=["Sandbox"])
    assert answer["payload"]["transactionId"] == "2000000847061981"
    peer = aprv.Verifier(aprv.Config())

    def peer_verify():
        result = peer.verify_signed_data(JWS)
        if not result.verified:
            raise RuntimeError("peer refused: %s %s" % (result.failure.reason, result.failure.message))
        payload = json.loads(result.payload.json)
        if payload.get("bundleId") != BUNDLE or result.payload.environment != aprv.Environment.SANDBOX:
            raise RuntimeError("peer: wrong bundle id or environment")
        return payload

    assert peer_verify()["transactionId"] == "2000000847061981"
    apple_row = "Apple's app-store-server-library, offline (validates the chain every call)"
    peer_row = "apple-purchase-receipt-verifier %s (wasmtime), bundle id and environment checked in Python" % aprv.VERSION
    rows = {"sigil (Python over libSigilC), uncached chain": [], "sigil (Python over libSigilC), cached chain": [], apple_row: [], peer_row: []}
    for _ in range(ROUNDS):
        rows["sigil (Python over libSigilC), uncached chain"].append(uncached_rate())
        rows["sigil (Python over libSigilC), cached chain"].append(sigil_rate())
        rows[apple_row].append(rate(lambda: apple.verify_and_decode_signed_transaction(JWS)))
        rows[peer_row].append(rate(peer_verify))
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    print("machine: %s, %d cores, Python %s, load %.2f" % (model, os.cpu_count(), platform.python_version(), os.getloadavg()[0]))
    print("| row | verifications/s (median of %d rounds of %.0f s) |" % (ROUNDS, SECONDS))
    print("|---|---|")
    medians = {name: statistics.median(values) for name, values in rows.items()}
    for name, value in medians.items():
        print("| %s | %.0f |" % (name, value))
    for name in list(medians)[:2]:
        print("%s / Apple: %.2fx, / the peer: %.2fx" % (name, medians[name] / medians[apple_row], medians[name] / medians[peer_row]))


if __name__ == "__main__":
    sys.exit(main())
