"""The typed API on the shared real data and the bad inputs the issue names, and threads."""
import base64
import concurrent.futures
import datetime
import json
import os

import conformance
import pytest

import sigil

APPLE = conformance.vectors_dir("apple")
APPATTEST = conformance.vectors_dir("appattest")
MDOC = os.path.join(conformance.vectors_dir("mdoc"), "iso18013-5-annex-d")
JWS = os.path.join(APPLE, "real/jws/Doy-lee-session-pro-backend/transaction-2000001024998954-20251001T070838.jws")
INC_ROOT = os.path.join(APPLE, "real/apple-pki/AppleIncRootCertificate.cer")


def read(path, mode="r"):
    with open(path, mode) as f:
        return f.read()


def test_transaction_enforced():
    answer = sigil.verify(read(JWS).strip(), bundle_id="com.loki-project.loki-messenger", environments=["Sandbox"])
    assert answer["valid"] is True and answer["kind"] == "transaction" and answer["environment"] == "Sandbox"
    assert answer["payload"]["transactionId"] == "2000001024998954"
    assert answer["notEnforced"] == []


def test_refusal_carries_code_message_and_failures():
    with pytest.raises(sigil.VerificationError) as raised:
        sigil.verify(read(JWS).strip(), roots=[read(INC_ROOT, "rb")])
    assert raised.value.code == "appstore.VERIFICATION_FAILURE"
    assert raised.value.message
    assert all(set(failure) == {"reason", "rule"} for failure in raised.value.failures)


def test_receipt_from_der_bytes_and_a_datetime():
    der = base64.b64decode(read(os.path.join(APPLE, "real/receipts/tikhop-TPInAppReceipt/receipt-production")))
    answer = sigil.verify_receipt(
        der, roots=[read(INC_ROOT, "rb")], bundle_id="org.getpure.pure-iphone",
        at=datetime.datetime(2024, 2, 24, tzinfo=datetime.timezone.utc))
    assert answer["receipt"]["bundleId"] == "org.getpure.pure-iphone" and len(answer["receipt"]["inApp"]) == 4


def test_attestation_then_assertion():
    cases = json.loads(read(os.path.join(APPATTEST, "real-devices/cases.json")))["cases"]
    case = cases[0]
    team, bundle = case["appId"].split(".", 1)
    at = int(datetime.datetime.fromisoformat(case["chainVerifiedAt"]).timestamp())
    attested = sigil.verify_attestation(
        read(os.path.join(APPATTEST, "real-devices", case["attestation"]), "rb"), team_id=team, bundle_id=bundle,
        roots=[read(os.path.join(APPATTEST, "Apple_App_Attestation_Root_CA.pem"))],
        client_data_hash=bytes.fromhex(case["attestationClientDataHash"]), environment=case["environment"], at=at)
    assert attested["attestation"]["keyId"] == case["keyId"]
    assert base64.b64decode(attested["attestation"]["publicKey"]).hex() == case["credentialPublicKeyX962"]
    asserted = sigil.verify_assertion(
        read(os.path.join(APPATTEST, "real-devices", case["assertion"]), "rb"), team_id=team, bundle_id=bundle,
        public_key=attested["attestation"]["publicKey"], counter=attested["attestation"]["counter"],
        client_data=bytes.fromhex(case["assertionClientData"]))
    assert asserted["assertion"]["counter"] == case["counter"]
    with pytest.raises(sigil.VerificationError):  # replayed: the stored counter is now that one
        sigil.verify_assertion(
            read(os.path.join(APPATTEST, "real-devices", case["assertion"]), "rb"), team_id=team, bundle_id=bundle,
            public_key=attested["attestation"]["publicKey"], counter=case["counter"],
            client_data=bytes.fromhex(case["assertionClientData"]))


@pytest.mark.parametrize(
    "request_document,code",
    [
        (b"", "request.invalidJSON"),
        (b"\xc3\x28", "request.invalidJSON"),
        (b'{"data": "\xff"}', "request.invalidJSON"),
        (b"not json", "request.invalidJSON"),
        (b'{"data": "x"}\x00{"kind": "receipt"}', "request.invalidJSON"),
        (b'{"data": "' + b"A" * 10_000_000 + b'"}', "request.tooLarge"),
        (b"[" * 100_000 + b"]" * 100_000, "request.invalidJSON"),
        ('{"data": "x", "bundleId": "\udcff"}', "request.invalidJSON"),
    ],
    ids=["empty", "invalid-utf8", "invalid-utf8-in-string", "not-json", "nul-byte", "10-MB", "deep-nesting", "lone-surrogate"],
)
def test_bad_inputs_get_typed_errors(request_document, code):
    answer = json.loads(sigil.request(request_document))
    assert answer["valid"] is False and answer["error"]["code"] == code
    # and the library keeps serving
    assert sigil.request(b'{"data": "x"}').startswith('{"valid":false')


def test_invalid_request_from_the_typed_api():
    with pytest.raises(sigil.InvalidRequest) as raised:
        sigil.verify("x", environments=[])
    assert raised.value.code == "request.invalidMember"
    with pytest.raises(sigil.InvalidRequest):
        sigil.verify("x", kind="coupon")
    with pytest.raises(TypeError):
        sigil.verify(None)


def test_mint_token_and_its_errors():
    with pytest.raises(sigil.InvalidRequest) as raised:
        sigil.mint_token("app-store-server-api", key="-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", key_id="K",
                         issuer_id="i", bundle_id="b")
    assert raised.value.code == "request.invalidMember" and "AAAA" not in str(raised.value)


def test_threads_agree_with_one_thread():
    requests = [request for _, request, _, _ in conformance.load_cases()]
    expected = [sigil.request(r) for r in requests]
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        answers = list(pool.map(sigil.request, requests * 10))
    assert answers == expected * 10


def test_version():
    assert sigil.version() and "." in sigil.version()


def test_minted_token_verifies_with_an_independent_library():
    """The token is checked with python3-cryptography (the README's set-up line installs it)."""
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature

    key = ec.generate_private_key(ec.SECP256R1())
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()).decode()
    token = sigil.mint_token(
        "app-store-server-api", key=pem, key_id="ABC123", issuer_id="issuer", bundle_id="com.example.app",
        issued_at=1_700_000_000, lifetime=600)
    header, claims, signature = token.split(".")

    def decode(part):
        return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))

    raw = decode(signature)
    key.public_key().verify(
        encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")),
        (header + "." + claims).encode(), ec.ECDSA(hashes.SHA256()))
    assert json.loads(decode(header))["kid"] == "ABC123"
    body = json.loads(decode(claims))
    assert body["iss"] == "issuer" and body["bid"] == "com.example.app" and body["exp"] == 1_700_000_600
    with pytest.raises(sigil.VerificationError) as raised:
        sigil.mint_token("app-store-server-api", key=pem, key_id="K", issuer_id="i", bundle_id="b", lifetime=7200)
    assert raised.value.code.startswith("tokens.")


def _annex_d(name):
    with open(os.path.join(MDOC, name), "rb") as f:
        return f.read()


def _annex_d_reader_key():
    for line in _annex_d("keys.txt").decode().splitlines():
        if line.startswith("ephemeral-reader-key "):
            fields = dict(part.split("=", 1) for part in line.split()[1:])
            return bytes.fromhex(fields["d"])
    raise AssertionError("keys.txt has no ephemeral-reader-key")


def test_mdoc_annex_d_with_and_without_the_reader_key():
    response, transcript, root = _annex_d("device-response.cbor"), _annex_d("session-transcript-bytes.cbor"), _annex_d("iaca-root.der")
    at = datetime.datetime(2021, 1, 1, tzinfo=datetime.timezone.utc)
    answer = sigil.verify_mdoc(response, transcript, iaca_roots=[root], ephemeral_reader_key=_annex_d_reader_key(), at=at)
    assert answer["kind"] == "mdoc" and answer["trust"] == "request-roots"
    assert answer["notEnforced"] == ["iacaRoots", "at"]
    document = answer["response"]["documents"][0]
    assert document["deviceAuthentication"] == "deviceMac" and document["deviceAuthenticated"] is True
    assert all("value" not in element for element in document["issuerSigned"])
    assert "Doe" not in json.dumps(answer)
    with_values = sigil.verify_mdoc(response, transcript, iaca_roots=[root], ephemeral_reader_key=_annex_d_reader_key(), at=at, values=True)
    names = {e["identifier"]: e.get("value") for e in with_values["response"]["documents"][0]["issuerSigned"]}
    assert names["family_name"] == "Doe" and names["issue_date"] == "2019-10-20"
    with pytest.raises(sigil.VerificationError) as refused:
        sigil.verify_mdoc(response, transcript, iaca_roots=[root], at=at)
    assert refused.value.code == "mdoc.deviceMACNotVerifiable"
    unchecked = sigil.verify_mdoc(response, transcript, iaca_roots=[root], at=at, accept_unverified_device_mac=True)
    assert unchecked["notEnforced"] == ["iacaRoots", "deviceAuthentication", "at"]
    with pytest.raises(TypeError):
        sigil.verify_mdoc(base64.b64encode(response).decode(), transcript, iaca_roots=[root], at=at)
    with pytest.raises(sigil.InvalidRequest):
        sigil.verify_mdoc(response, transcript, iaca_roots=[])
