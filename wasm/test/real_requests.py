#!/usr/bin/env python3
"""Every real object of the module's jobs in the shared vectors (Scripts/vectors-dir), as request
documents for sigil.wasm and the C ABI: the real App Store JWS (apple/real/jws), the real receipts
(apple/real/receipts: Sandbox, Production, an Xcode receipt with its certificate) and every
real-device App Attest attestation with its recorded client data hash, app id, environment and time
(appattest/real-devices/cases.json).

    real_requests.py REQUESTS NAMES    one request per line in REQUESTS, its object's name in NAMES
"""
import base64
import datetime
import glob
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def vectors(data_set):
    return subprocess.run([os.path.join(ROOT, "Scripts", "vectors-dir"), data_set], stdout=subprocess.PIPE, check=True).stdout.decode().strip()


def main():
    apple, appattest = vectors("apple"), vectors("appattest")
    requests = []
    for path in sorted(glob.glob(os.path.join(apple, "real/jws/*/*.jws"))):
        requests.append((os.path.relpath(path, apple), {"data": open(path).read().strip(), "reportOnly": True}))
    receipts = os.path.join(apple, "real/receipts/tikhop-TPInAppReceipt")
    for name in ("receipt-sandbox-g5", "receipt-production"):
        requests.append((name, {"kind": "receipt", "data": open(os.path.join(receipts, name)).read().strip(), "reportOnly": True}))
    certificate = base64.b64encode(open(os.path.join(receipts, "xcode-local/StoreKitTestCertificate.cer"), "rb").read()).decode()
    requests.append(("receipt-xcode", {"kind": "receipt", "data": open(os.path.join(receipts, "xcode-local/receipt-xcode")).read().strip(),
                                       "environments": ["Xcode"], "roots": [certificate], "reportOnly": True}))
    for case in json.load(open(os.path.join(appattest, "real-devices/cases.json")))["cases"]:
        if "attestation" not in case:
            continue  # an assertion-only case: its key comes from an attestation listed on its own
        team, _, bundle = case["appId"].partition(".")
        when = case.get("chainVerifiedAt")
        at = int(datetime.datetime.fromisoformat(when).timestamp()) if when else \
            int(datetime.datetime.fromisoformat(case["credCertValidity"][0]).timestamp()) + 3600
        data = base64.b64encode(open(os.path.join(appattest, "real-devices", case["attestation"]), "rb").read()).decode()
        requests.append((case["attestation"], {
            "kind": "attestation", "data": data, "teamId": team, "bundleId": bundle,
            "clientDataHash": base64.b64encode(bytes.fromhex(case["attestationClientDataHash"])).decode(),
            "environments": [case["environment"]], "at": at}))
    with open(sys.argv[1], "w") as out, open(sys.argv[2], "w") as names:
        for name, request in requests:
            out.write(json.dumps(request, separators=(",", ":")) + "\n")
            names.write(name + "\n")


main()
