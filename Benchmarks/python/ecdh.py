#!/usr/bin/env python3
"""P-256 ECDH with a fresh peer key, per second: pyca/cryptography (OpenSSL) against Sigil
(sigil-bench --ecdh-rate, a child process: the fixed window of sharedSecret(with:) and the comb it
replaced), rounds interleaved, one run. Run by Benchmarks/python/ecdh.sh; never by the tests.

Each call on either side reads a peer's uncompressed point (validated on the curve) and computes
the shared secret with one private key: pyca's EllipticCurvePublicKey.from_encoded_point and
exchange(ECDH()), Sigil's ECDSAPublicKey(sec1Representation:) and sharedSecret(with:). 64 peers
are taken in turn, so neither side can cache anything between calls. This is the step HPKE (an
18013-7 Annex C response), an mdoc's deviceMac and Apple Pay's EC_v1 each take once per message.
"""
import json
import os
import platform
import statistics
import subprocess
import sys

from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rates  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = float(os.environ.get("BENCH_SECONDS", "2"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Benchmarks", ".build", "release", "sigil-bench")
    key = ec.generate_private_key(ec.SECP256R1())
    peers = [ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(Encoding.X962, PublicFormat.UncompressedPoint)
             for _ in range(64)]
    state = {"next": 0}

    def pyca():
        peer = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), peers[state["next"] % 64])
        state["next"] += 1
        return key.exchange(ec.ECDH(), peer)

    rows = {"sigil fixed window": [], "sigil comb": [], "pyca": []}
    for _ in range(ROUNDS):
        output = json.loads(subprocess.run([bench, "--ecdh-rate", str(SECONDS)], stdout=subprocess.PIPE, check=True).stdout)
        rows["sigil fixed window"].append(output["fixedWindow"])
        rows["sigil comb"].append(output["comb"])
        rows["pyca"].append(rates.rate(pyca, SECONDS))
    median = {name: statistics.median(values) for name, values in rows.items()}
    import cryptography
    from cryptography.hazmat.backends.openssl.backend import backend
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    print("machine: %s, %d cores, Python %s, cryptography %s (%s), load %.2f" % (
        model, os.cpu_count(), platform.python_version(), cryptography.__version__, backend.openssl_version_text(), os.getloadavg()[0]))
    print("| row | ECDH/s (median of %d rounds of %.0f s) | Sigil / pyca |" % (ROUNDS, SECONDS))
    print("|---|---|---|")
    print("| Sigil, `sharedSecret(with:)` (fixed window) | %.0f | **%.2f×** |" % (median["sigil fixed window"], median["sigil fixed window"] / median["pyca"]))
    print("| Sigil, the comb over a per-call table (before) | %.0f | %.2f× |" % (median["sigil comb"], median["sigil comb"] / median["pyca"]))
    print("| pyca/cryptography `exchange(ECDH())` | %.0f | 1× |" % median["pyca"])


if __name__ == "__main__":
    main()
