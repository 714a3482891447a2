"""Conformance/cases.json through the Python door: the raw request door, and each case again
through the typed API (the answer returned, or the error raised with the expected code)."""
import json

import conformance
import pytest

import sigil

CASES = conformance.load_cases()


@pytest.mark.parametrize("name,request_bytes,status,expected", CASES, ids=[c[0] for c in CASES])
def test_case(name, request_bytes, status, expected):
    answer = json.loads(sigil.request(request_bytes))
    problem = conformance.holds(answer, expected)
    assert problem is None, "%s: %s" % (name, problem)
    assert answer["valid"] is (status == 200)


def test_the_typed_api_raises_what_the_answer_says():
    for name, request_bytes, status, expected in CASES:
        try:
            pairs = json.loads(request_bytes, object_pairs_hook=lambda p: p)
            document = json.loads(request_bytes)
        except ValueError:
            continue
        if not isinstance(document, dict) or len(pairs) != len(document):
            continue  # not an object, or one with a duplicate member: the API cannot send that
        if set(document) - {"kind", "data", "bundleId", "environments", "appAppleId", "roots", "at", "reportOnly"}:
            continue
        if document.get("kind") in ("attestation", "assertion") or not isinstance(document.get("data"), str):
            continue
        arguments = dict(
            bundle_id=document.get("bundleId"),
            environments=document.get("environments"),
            app_apple_id=document.get("appAppleId"),
            roots=document.get("roots"),
            at=document.get("at"),
            report_only=document.get("reportOnly", False),
        )
        if status == 200:
            assert conformance.holds(sigil.verify(document["data"], document.get("kind", "auto"), **arguments), expected) is None, name
        else:
            error = sigil.InvalidRequest if status in (400, 413) else sigil.VerificationError
            with pytest.raises(error) as raised:
                sigil.verify(document["data"], document.get("kind", "auto"), **arguments)
            assert raised.value.code == expected["error"].get("code", raised.value.code), name
