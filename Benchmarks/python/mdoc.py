#!/usr/bin/env python3
"""ISO/IEC 18013-5 Annex D's DeviceResponse verified per second: pymdoccbor's verifier (PyPI, in
Scripts/get-peers' virtual environment) against Sigil (sigil-bench --mdoc-rate, a child process),
rounds interleaved, one run. Run by Benchmarks/python/mdoc.sh; never by the tests.

What each side checks (pymdoccbor checks less, so the ratio flatters it):
  Sigil, full:              the response's structure, IssuerAuth's ES256 signature, the MSO (docType,
                            validity at 2021-01-01), all six digests, the deviceMac (ECDH of the
                            reader's key and the device key, HKDF-SHA-256, HMAC over
                            DeviceAuthenticationBytes), the document signer's chain to the IACA root
                            under RFC 5280 and Annex B at the MSO's signed time and at 2021-01-01.
  Sigil, without deviceMac: the same without the reader's key (acceptUnverifiedDeviceMAC).
  pymdoccbor:               MdocCbor.loads + verify(verify_hashes=True) without trusted roots:
                            IssuerAuth's signature with the x5chain's key and the six digests; no
                            chain, no MSO validity or docType check, no device authentication.
  pymdoccbor + deviceMac:   that, then the deviceMac as Sigil checks it, written here with cbor2,
                            hmac and pyca/cryptography (ECDH, HKDF).
"""
import hashlib
import hmac
import logging
import os
import platform
import statistics
import subprocess
import sys

import cbor2
import cryptography.x509  # pymdoccbor 1.4.0 reads cryptography.x509 without importing it
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from pymdoccbor.mdoc.verifier import MdocCbor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rates  # noqa: E402

logging.disable(logging.CRITICAL)
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECONDS = float(os.environ.get("BENCH_SECONDS", "2"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
AT = 1609459200  # 2021-01-01T00:00:00Z


def main():
    bench = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "Benchmarks", ".build", "release", "sigil-bench")
    vectors = subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), "mdoc"], stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    directory = os.path.join(vectors, "iso18013-5-annex-d")
    response = open(os.path.join(directory, "device-response.cbor"), "rb").read()
    transcript_bytes = open(os.path.join(directory, "session-transcript-bytes.cbor"), "rb").read()
    keys = {line.split()[0]: dict(part.split("=") for part in line.split()[1:])
            for line in open(os.path.join(directory, "keys.txt")) if not line.startswith("#")}
    reader = ec.derive_private_key(int(keys["ephemeral-reader-key"]["d"], 16), ec.SECP256R1())

    def pymdoccbor():
        mdoc = MdocCbor()
        mdoc.loads(response)
        assert mdoc.verify(verify_hashes=True)

    def device_mac():
        document = cbor2.loads(response)["documents"][0]
        mso = cbor2.loads(cbor2.loads(document["issuerSigned"]["issuerAuth"][2]).value)
        device_key = mso["deviceKeyInfo"]["deviceKey"]
        point = ec.EllipticCurvePublicNumbers(int.from_bytes(device_key[-2], "big"), int.from_bytes(device_key[-3], "big"), ec.SECP256R1())
        shared = reader.exchange(ec.ECDH(), point.public_key())
        key = HKDF(hashes.SHA256(), 32, hashlib.sha256(transcript_bytes).digest(), b"EMacKey").derive(shared)
        transcript = cbor2.loads(cbor2.loads(transcript_bytes).value)
        authentication = cbor2.dumps(cbor2.CBORTag(24, cbor2.dumps(
            ["DeviceAuthentication", transcript, document["docType"], document["deviceSigned"]["nameSpaces"]])))
        mac = document["deviceSigned"]["deviceAuth"]["deviceMac"]
        expected = hmac.new(key, cbor2.dumps(["MAC0", mac[0], b"", authentication]), hashlib.sha256).digest()
        assert hmac.compare_digest(expected, mac[3])

    pymdoccbor()
    device_mac()

    def sigil():
        import json
        output = subprocess.run([bench, "--mdoc-rate", directory, str(AT), str(SECONDS)], stdout=subprocess.PIPE, check=True)
        return json.loads(output.stdout)

    rows = {"sigil full": [], "sigil without deviceMac": [], "pymdoccbor": [], "pymdoccbor + deviceMac": []}
    for _ in range(ROUNDS):
        s = sigil()
        rows["sigil full"].append(s["full"])
        rows["sigil without deviceMac"].append(s["withoutDeviceMac"])
        rows["pymdoccbor"].append(rates.rate(pymdoccbor, SECONDS))
        rows["pymdoccbor + deviceMac"].append(rates.rate(lambda: (pymdoccbor(), device_mac()), SECONDS))
    median = {name: statistics.median(values) for name, values in rows.items()}
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    import cryptography
    import importlib.metadata
    print("machine: %s, %d cores, Python %s, pymdoccbor %s, cbor2 %s, cryptography %s, load %.2f" % (
        model, os.cpu_count(), platform.python_version(), importlib.metadata.version("pymdoccbor"), importlib.metadata.version("cbor2"),
        cryptography.__version__, os.getloadavg()[0]))
    print("| row | responses/s (median of %d rounds of %.0f s) | ratio |" % (ROUNDS, SECONDS))
    print("|---|---|---|")
    print("| Sigil, full verification | %.0f | **%.2f×** pymdoccbor + deviceMac |" % (
        median["sigil full"], median["sigil full"] / median["pymdoccbor + deviceMac"]))
    print("| pymdoccbor + deviceMac (cbor2, pyca) | %.0f | 1× |" % median["pymdoccbor + deviceMac"])
    print("| Sigil, without the deviceMac | %.0f | **%.2f×** pymdoccbor |" % (
        median["sigil without deviceMac"], median["sigil without deviceMac"] / median["pymdoccbor"]))
    print("| pymdoccbor (signature + digests only) | %.0f | 1× |" % median["pymdoccbor"])


if __name__ == "__main__":
    main()
