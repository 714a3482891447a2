"""The Python door from the attacker's side (issue 46): each case names the attack and the answer it
must get, a typed refusal or a valid answer that says whose trust it rests on. The forged data is
Conformance/forged.py's (a root the attacker made, python3-cryptography), never Apple's; nothing
reaches the network."""
import json

import forged
import pytest

import sigil

FORGED = forged.forge()
VICTIM = forged.VICTIM_BUNDLE_ID


def answer(document):
    return json.loads(sigil.request(document))


def test_self_made_root_for_any_bundle_id_is_valid_only_as_request_roots():
    """Attack: a transaction for the victim's bundle id signed under the attacker's own CA, passed in
    roots. Valid only with trust request-roots and appleRoot not enforced, never a plain valid."""
    got = sigil.verify(
        FORGED["jws"], bundle_id=VICTIM, app_apple_id=forged.VICTIM_APP_APPLE_ID, environments=["Production"],
        roots=[FORGED["root"]])
    assert got["valid"] is True and got["payload"]["bundleId"] == VICTIM
    assert got["trust"] == "request-roots"
    assert got["notEnforced"] == ["appleRoot"]
    # The member order is fixed: trust right after environment.
    raw = sigil.request({"data": FORGED["jws"], "roots": [FORGED["root"]]})
    assert raw.startswith('{"valid":true,"kind":"transaction","environment":"Production","trust":"request-roots",')


def test_the_same_forgery_without_roots_is_refused_by_apples_root():
    with pytest.raises(sigil.VerificationError) as raised:
        sigil.verify(FORGED["jws"], bundle_id=VICTIM, app_apple_id=forged.VICTIM_APP_APPLE_ID, environments=["Production"])
    assert raised.value.code == "appstore.VERIFICATION_FAILURE"


def test_xcode_trust_of_a_carried_certificate_is_named():
    """Attack: Xcode's trust, a certificate the data carries, for data the attacker signed."""
    got = sigil.verify(FORGED["xcodejws"], "transaction", environments=["Xcode"])
    assert got["trust"] == "xcode"
    assert got["notEnforced"] == ["bundleId", "appAppleId", "appleRoot"]


@pytest.mark.parametrize(
    "attack,document,code",
    [
        ("Xcode with extra roots: refused, never cut to the first",
         {"kind": "transaction", "data": FORGED["xcodejws"], "environments": ["Xcode"], "roots": [FORGED["root"], FORGED["root"]]},
         "request.invalidMember"),
        ("Xcode receipt with extra roots",
         {"kind": "receipt", "data": "AAAA", "environments": ["Xcode"], "roots": [FORGED["root"], FORGED["root"]]},
         "request.invalidMember"),
        ("unpinnedTestRoot on an assertion",
         {"kind": "assertion", "data": "AAAA", "teamId": "ABCDE12345", "bundleId": VICTIM, "clientData": "AA==",
          "publicKey": "BAAA", "unpinnedTestRoot": True},
         "request.invalidMember"),
        ("roots on an assertion (its key was attested)",
         {"kind": "assertion", "data": "AAAA", "teamId": "ABCDE12345", "bundleId": VICTIM, "clientData": "AA==",
          "publicKey": "BAAA", "roots": [FORGED["root"]]},
         "request.invalidMember"),
        ("unpinnedTestRoot without a root to trust",
         {"kind": "attestation", "data": "AAAA", "teamId": "ABCDE12345", "bundleId": VICTIM, "clientData": "AA==",
          "unpinnedTestRoot": True},
         "request.missingMember"),
        ("unpinnedTestRoot on App Store data", {"data": "x.y.z", "unpinnedTestRoot": True}, "request.invalidMember"),
        ("a trust verdict sent as a request member", {"data": "x.y.z", "trust": "apple"}, "request.unknownMember"),
        ("notEnforced sent as a request member", {"data": "x.y.z", "notEnforced": []}, "request.unknownMember"),
        ("applepay with roots smuggled", {"kind": "applepay", "data": "{}", "roots": [FORGED["root"]]}, "request.invalidMember"),
    ],
    ids=lambda value: value if isinstance(value, str) and len(value) < 80 and not value.startswith("request.") else None,
)
def test_smuggled_trust_members_are_refused(attack, document, code):
    got = answer(document)
    assert got["valid"] is False and got["error"]["code"] == code, attack


def test_unpinned_test_root_through_the_typed_api():
    with pytest.raises(sigil.InvalidRequest) as raised:
        sigil.verify_attestation(b"\x00", team_id="ABCDE12345", bundle_id=VICTIM, client_data=b"c", unpinned_test_root=True)
    assert raised.value.code == "request.missingMember"


def test_applepay_through_the_package_is_never_decrypted():
    """Attack: a payment token sent through a door without merchant keys: service.notConfigured."""
    token = json.dumps({"version": "EC_v1", "data": "AAAA", "signature": "AAAA", "header": {}})
    with pytest.raises(sigil.VerificationError) as raised:
        sigil.verify(token, "applepay")
    assert raised.value.code == "service.notConfigured"
    assert "payment" not in sigil.request({"kind": "applepay", "data": token})


@pytest.mark.parametrize(
    "attack,raw,code",
    [
        ("oversized request (4 MiB + 64 bytes)", b'{"data":"' + b"A" * ((4 << 20) + 53) + b'"}', "request.tooLarge"),
        ("deep nesting (30,000 objects)", b'{"data":' * 30_000 + b"1" + b"}" * 30_000, "request.invalidJSON"),
        ("duplicate member name (a second data)", b'{"data":"x","data":"y"}', "request.invalidJSON"),
        ("duplicate trust member (roots null, then roots)", b'{"data":"x","roots":null,"roots":["AAAA"]}', "request.invalidJSON"),
        ("invalid UTF-8 (overlong slash)", b'{"data":"\xc0\xaf"}', "request.invalidJSON"),
        ("invalid UTF-8 (encoded surrogate half)", b'{"data":"\xed\xa0\x80"}', "request.invalidJSON"),
        ("invalid UTF-8 in a member name", b'{"\xff":1}', "request.invalidJSON"),
        ("non-object document: array", b'[{"data":"x"}]', "request.notAnObject"),
        ("non-object document: string", b'"data"', "request.notAnObject"),
        ("non-object document: null", b"null", "request.notAnObject"),
        ("truncated document", b'{"data":"x","roots":[', "request.invalidJSON"),
        ("truncated string", b'{"data":"eyJhbGciOiJFUzI1', "request.invalidJSON"),
        ("trailing second document", b'{"data":"x"}{"roots":[]}', "request.invalidJSON"),
        ("NUL byte smuggling a second document", b'{"data":"x"}\x00{"roots":["AAAA"]}', "request.invalidJSON"),
        ("unknown member (a misspelt trust option)", b'{"data":"x","trustedRoots":[]}', "request.unknownMember"),
        ("wrong type: roots a string", b'{"data":"x","roots":"AAAA"}', "request.invalidMember"),
        ("wrong type: environments a string", b'{"data":"x","environments":"Xcode"}', "request.invalidMember"),
        ("wrong type: at a string", b'{"data":"x","at":"now"}', "request.invalidMember"),
        ("wrong type: at a fraction", b'{"data":"x","at":1.5}', "request.invalidMember"),
        ("wrong type: reportOnly a string", b'{"data":"x","reportOnly":"true"}', "request.invalidMember"),
        ("wrong type: unpinnedTestRoot a string", b'{"kind":"attestation","data":"x","unpinnedTestRoot":"true"}', "request.invalidMember"),
        ("wrong type: data a number", b'{"data":5}', "request.invalidMember"),
        ("roots not a certificate", b'{"data":"x","roots":["AAAA"]}', "request.invalidMember"),
    ],
    ids=lambda value: value if isinstance(value, str) and not value.startswith("request.") else None,
)
def test_malformed_documents_get_typed_errors(attack, raw, code):
    text = sigil.request(raw)
    got = json.loads(text)
    assert got["valid"] is False and got["error"]["code"] == code, "%s: %s" % (attack, text[:300])
    assert len(text) < 4096, "%s: the refusal echoes the request" % attack
