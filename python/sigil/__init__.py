"""Sigil's verifiers from Python: App Store signed data (JWS), app receipts, App Attest attestations
and assertions, and Apple's ES256 tokens, through Sigil's C ABI (libSigilC).

Every function builds one request document (Conformance/verification-request.schema.json in the
repository), hands it to libSigilC and returns the answer's members as a dict: the same document the
C ABI and the HTTP service (POST /v1/verify) give for the same request. A refusal raises
VerificationError; a request libSigilC cannot read raises InvalidRequest. Nothing is verified in
Python. Any thread may call any function.

Trust configuration: `roots`, `environments=["Xcode"]` and `unpinned_test_root` choose what the data
must chain to. Left out, the anchor is Apple's root for the kind: Apple Root CA - G3 (built in) for
App Store data, Apple Inc. Root Certificate (receipts) and the Apple App Attestation Root CA
(attestations, pinned) from the roots directory (SIGIL_ROOTS, else ~/.local/share/sigil/roots;
`sigil roots install` fills it). The caller of this package is the operator: trust it brings is used
and reported, never hidden. Every valid answer names its anchor in "trust" ("apple",
"request-roots", "xcode", "unpinned-test-root", "attested-key") and "notEnforced" lists "appleRoot"
when the anchor is not Apple's (roots that are exactly Apple's root by fingerprint answer "apple")
and "at" when `at` is more than 60 s from now. Code that passes on requests from others must check
answer["trust"] == "apple" itself: data signed under a root the sender made is valid only as
"request-roots".

    >>> import sigil
    >>> answer = sigil.verify(open("transaction.jws").read(), bundle_id="com.example.app", environments=["Sandbox"])
    >>> answer["payload"]["transactionId"]
"""
import base64
import datetime
import json
from typing import Any, Dict, List, Optional, Sequence, Union

from . import _native

__all__ = [
    "SigilError",
    "VerificationError",
    "InvalidRequest",
    "verify",
    "verify_receipt",
    "verify_attestation",
    "verify_assertion",
    "verify_mdoc",
    "mint_token",
    "request",
    "version",
]

Data = Union[str, bytes]
Time = Union[int, datetime.datetime]

KINDS = (
    "auto",
    "transaction",
    "renewal-info",
    "notification",
    "app-transaction",
    "realtime-request",
    "receipt",
    "attestation",
    "assertion",
    # Apple Pay tokens need the merchant keys and a replay store, which only the HTTP verification
    # service is given: through this package the answer is VerificationError service.notConfigured.
    "applepay",
    # An ISO/IEC 18013-5 DeviceResponse (base64) with its session's sessionTranscript, under the IACA
    # roots given in roots (this package has none of its own): request(kind="mdoc", ...).
    "mdoc",
)


class SigilError(Exception):
    """A failure answer: `code` (stable, "domain.code"), `message` (for people), `failures` (the
    certificate verifier's typed reasons, each {"reason", "rule"}, when a chain failed)."""

    def __init__(self, code: str, message: str, failures: Optional[List[Dict[str, str]]] = None) -> None:
        super().__init__("%s: %s" % (code, message))
        self.code = code
        self.message = message
        self.failures = failures or []


class VerificationError(SigilError):
    """The verifier refused the data (HTTP 422): "appstore.VERIFICATION_FAILURE", "pkcs7.…", "appattest.…", "tokens.…"."""


class InvalidRequest(SigilError):
    """The request itself was wrong (HTTP 400/413): a "request.*" code naming the member."""


def version() -> str:
    """The version of the libSigilC this package loaded."""
    return _native.version()


def request(document: Union[Dict[str, Any], str, bytes], *, mint: bool = False) -> str:
    """The answer document (JSON text) libSigilC gives for `document` (a dict, or JSON text or
    bytes sent as they are), without raising on a failure answer: the raw door the conformance
    tests use. `mint` sends it to sigil_mint_token instead of sigil_verify."""
    if isinstance(document, dict):
        raw = json.dumps(document, separators=(",", ":")).encode("utf-8")
    elif isinstance(document, str):
        raw = document.encode("utf-8", "surrogatepass")
    elif isinstance(document, (bytes, bytearray)):
        raw = bytes(document)
    else:
        raise TypeError("a request is a dict, str or bytes, not %s" % type(document).__name__)
    if b"\0" in raw:
        # A C string ends at NUL: sent, the request would be cut short, so it is refused here.
        return json.dumps(
            {
                "valid": False,
                "error": {"code": "request.invalidJSON", "message": "the request holds a NUL byte", "failures": []},
            },
            separators=(",", ":"),
        )
    return _native.call("sigil_mint_token" if mint else "sigil_verify", raw)


def _answer(document: Dict[str, Any], mint: bool = False) -> Dict[str, Any]:
    answer = json.loads(request(document, mint=mint))
    if answer.get("valid") is True:
        return answer
    error = answer.get("error") or {}
    code = error.get("code", "")
    kind = InvalidRequest if code.startswith("request.") else VerificationError
    raise kind(code, error.get("message", ""), error.get("failures"))


def _text(data: Data) -> str:
    """A JWS or base64 text as given; raw bytes (a receipt, a CBOR object) as standard base64."""
    if isinstance(data, str):
        return data
    if isinstance(data, (bytes, bytearray)):
        return base64.b64encode(bytes(data)).decode("ascii")
    raise TypeError("data is str or bytes, not %s" % type(data).__name__)


def _roots(roots: Optional[Sequence[Data]]) -> Optional[List[str]]:
    """Each root as PEM text (str) or DER (bytes, sent as base64)."""
    return None if roots is None else [_text(root) for root in roots]


def _seconds(at: Optional[Time]) -> Optional[int]:
    if at is None or isinstance(at, int):
        return at
    if isinstance(at, datetime.datetime):
        if at.tzinfo is None:
            raise ValueError("at must be timezone-aware")
        return int(at.timestamp())
    raise TypeError("at is int seconds or an aware datetime, not %s" % type(at).__name__)


def _bytes(value: Optional[Data]) -> Optional[str]:
    """Bytes as base64; str taken as UTF-8 bytes (client data) and then base64."""
    if value is None:
        return None
    return base64.b64encode(value.encode("utf-8") if isinstance(value, str) else bytes(value)).decode("ascii")


def _document(members: Dict[str, Any]) -> Dict[str, Any]:
    return {name: value for name, value in members.items() if value is not None and value is not False}


def verify(
    data: Data,
    kind: str = "auto",
    *,
    bundle_id: Optional[str] = None,
    environments: Optional[Sequence[str]] = None,
    app_apple_id: Optional[int] = None,
    roots: Optional[Sequence[Data]] = None,
    at: Optional[Time] = None,
    report_only: bool = False,
) -> Dict[str, Any]:
    """Verifies App Store signed data (a JWS: transaction, renewal info, notification, app
    transaction, realtime request; `kind` "auto" tells it by its members) or, with `kind`
    "receipt", an app receipt.

    Without `bundle_id` (or with `report_only`) the bundle id is reported, not enforced: the answer's
    "notEnforced" says so. `environments` defaults to Production and Sandbox (["Xcode"] is trust
    configuration: Xcode's certificate, the one root given or the one the data carries); `roots`
    (trust configuration) to Apple Root CA - G3 (built in) for signed data, Apple Inc. Root
    Certificate from the roots directory for receipts; `at` (seconds, or an aware datetime) to the
    payload's signedDate. Returns {"valid": True, "kind", "environment", "trust", "payload" |
    "receipt", "notEnforced"}: check "trust" ("apple" unless `roots` that are not Apple's or Xcode
    were given, then "appleRoot" is in "notEnforced"); raises VerificationError or InvalidRequest.
    """
    if kind not in KINDS:
        raise InvalidRequest("request.invalidMember", "kind %r is not one of %s" % (kind, ", ".join(KINDS)))
    return _answer(
        _document(
            {
                "kind": kind,
                "data": _text(data),
                "bundleId": bundle_id,
                "environments": list(environments) if environments is not None else None,
                "appAppleId": app_apple_id,
                "roots": _roots(roots),
                "at": _seconds(at),
                "reportOnly": report_only,
            }
        )
    )


def verify_mdoc(
    response: bytes,
    session_transcript: bytes,
    *,
    iaca_roots: Sequence[Data],
    ephemeral_reader_key: Optional[bytes] = None,
    at: Optional[Time] = None,
    accept_unverified_device_mac: bool = False,
    values: bool = False,
) -> Dict[str, Any]:
    """Verifies an ISO/IEC 18013-5 DeviceResponse (ProximityReader's responseData, or an opened
    18013-7 Annex C answer) for its session: `session_transcript` as the session gives it,
    `ephemeral_reader_key` the reader's ephemeral key in any form (a private key checks a
    deviceMac; without one a deviceMac is refused unless `accept_unverified_device_mac`, which the
    answer lists as "deviceAuthentication" in "notEnforced"), under `iaca_roots` (PEM text or DER
    bytes: the issuers' roots you trust; this package has none of its own), at `at` (default now).
    Returns {"valid": True, "kind": "mdoc", "trust": "request-roots", "response": {...},
    "notEnforced": ["iacaRoots", ...]}; each element is listed by namespace, identifier and kind, and its value only
    with `values` (personal data). Raises VerificationError ("mdoc.…") or InvalidRequest."""
    if not iaca_roots:
        raise InvalidRequest("request.missingMember", "iaca_roots: at least one IACA root to trust")
    for name, value in (("response", response), ("session_transcript", session_transcript), ("ephemeral_reader_key", ephemeral_reader_key)):
        if value is not None and not isinstance(value, (bytes, bytearray)):
            raise TypeError("%s is bytes (CBOR or a key as the session gave it), not %s" % (name, type(value).__name__))
    return _answer(
        _document(
            {
                "kind": "mdoc",
                "data": _bytes(response),
                "sessionTranscript": _bytes(session_transcript),
                "ephemeralReaderKey": _bytes(ephemeral_reader_key),
                "roots": _roots(iaca_roots),
                "at": _seconds(at),
                "acceptUnverifiedDeviceMAC": accept_unverified_device_mac,
                "values": values,
            }
        )
    )


def verify_receipt(
    data: Data,
    *,
    roots: Optional[Sequence[Data]] = None,
    bundle_id: Optional[str] = None,
    environments: Optional[Sequence[str]] = None,
    at: Optional[Time] = None,
    report_only: bool = False,
) -> Dict[str, Any]:
    """Verifies an app receipt (DER bytes, or the base64 text apps send) under Apple Inc. Root
    Certificate (from the roots directory; `roots`, trust configuration, replaces it), at its
    creation date unless `at` is given. Returns {"valid": True, "kind": "receipt", "environment",
    "trust", "receipt": {...}, "notEnforced"}; raises VerificationError or InvalidRequest."""
    return verify(data, "receipt", bundle_id=bundle_id, environments=environments, roots=roots, at=at, report_only=report_only)


def verify_attestation(
    data: Data,
    *,
    team_id: str,
    bundle_id: str,
    roots: Optional[Sequence[Data]] = None,
    client_data: Optional[Data] = None,
    client_data_hash: Optional[bytes] = None,
    key_id: Optional[bytes] = None,
    environment: str = "production",
    at: Optional[Time] = None,
    unpinned_test_root: bool = False,
) -> Dict[str, Any]:
    """Verifies an App Attest attestation (CBOR bytes or base64) for the App ID team_id.bundle_id,
    under the Apple App Attestation Root CA, pinned by fingerprint (from the roots directory, or
    the one root in `roots`); `unpinned_test_root` (trust configuration, test PKIs only) trusts
    roots[0] without the pin and answers "trust": "unpinned-test-root". Over `client_data` (hashed)
    or `client_data_hash`. Returns {"valid": True, "kind": "attestation", "environment", "trust",
    "attestation": {"keyId", "publicKey", "counter", "receipt", ...}, "notEnforced"}; store
    publicKey and counter for assertions."""
    return _answer(
        _document(
            {
                "kind": "attestation",
                "data": _text(data),
                "teamId": team_id,
                "bundleId": bundle_id,
                "roots": _roots(roots),
                "clientData": _bytes(client_data),
                "clientDataHash": _bytes(client_data_hash),
                "keyId": _bytes(key_id),
                "environments": [environment],
                "at": _seconds(at),
                "unpinnedTestRoot": unpinned_test_root,
            }
        )
    )


def verify_assertion(
    data: Data,
    *,
    team_id: str,
    bundle_id: str,
    public_key: Data,
    counter: int,
    client_data: Optional[Data] = None,
    client_data_hash: Optional[bytes] = None,
) -> Dict[str, Any]:
    """Verifies an App Attest assertion (CBOR bytes or base64) with the attested `public_key`
    (X9.62 bytes, or the base64 the attestation's answer gave) whose stored counter is `counter`.
    Returns {"valid": True, "kind": "assertion", "trust": "attested-key", "assertion": {"counter",
    ...}, "notEnforced"}: store the new
    counter (compare-and-set); raises VerificationError for a replay or a bad signature."""
    return _answer(
        _document(
            {
                "kind": "assertion",
                "data": _text(data),
                "teamId": team_id,
                "bundleId": bundle_id,
                "publicKey": _text(public_key),
                "counter": counter,
                "clientData": _bytes(client_data),
                "clientDataHash": _bytes(client_data_hash),
            }
        )
    )


def mint_token(
    token: str,
    *,
    key: str,
    key_id: str,
    issuer_id: Optional[str] = None,
    bundle_id: Optional[str] = None,
    team_id: Optional[str] = None,
    client_id: Optional[str] = None,
    issued_at: Optional[Time] = None,
    lifetime: Optional[int] = None,
) -> str:
    """Mints one of Apple's ES256 tokens ("app-store-server-api", "external-purchase-server-api",
    "device-check", "sign-in-with-apple") with the App Store Connect key `key` (.p8 PEM text) and
    its `key_id`. Returns the compact JWT; raises VerificationError ("tokens.…") or InvalidRequest."""
    answer = _answer(
        {
            name: value
            for name, value in {
                "token": token,
                "key": key,
                "keyId": key_id,
                "issuerId": issuer_id,
                "bundleId": bundle_id,
                "teamId": team_id,
                "clientId": client_id,
                "issuedAt": _seconds(issued_at),
                "lifetime": lifetime,
            }.items()
            if value is not None
        },
        mint=True,
    )
    return answer["token"]
