#!/usr/bin/env python3
"""Conformance/cases.json for the doors that are not Swift: places each case's files and checks answers.

    conformance.py requests OUT     one request per line of OUT (compact JSON; rawRequest verbatim)
    conformance.py check ANSWERS [--embedded]
                                    ANSWERS holds one answer per line, in the cases' order: each
                                    must hold what its case expects (exit 1 naming the first that does not);
                                    --embedded: an Embedded Swift build's answers (sigil.wasm, the native
                                    Embedded verifier), which a case's "embedded" expectation replaces
                                    where it has one (a kind those builds do not hold, such as mdoc)
    conformance.py roots DIR        copies the file's installedRoots into DIR (created), each under its
                                    own name: the roots directory (SIGIL_ROOTS) a door's service reads

Imported by python/tests (load_cases, holds). Third-party files are found through Scripts/vectors-dir,
the one path every reader uses. Nothing here verifies anything: it only moves bytes and compares JSON.
"""
import base64
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
_dirs = {}


def vectors_dir(data_set):
    if data_set not in _dirs:
        _dirs[data_set] = subprocess.run(
            [os.path.join(ROOT, "Scripts", "vectors-dir"), data_set], stdout=subprocess.PIPE, check=True
        ).stdout.decode().strip()
    return _dirs[data_set]


def placed(spec):
    data_set, _, rest = spec["path"].partition("/")
    with open(os.path.join(vectors_dir(data_set), rest), "rb") as f:
        data = f.read()
    if spec["as"] == "text":
        return data.decode("utf-8").strip()
    if spec["as"] == "raw":
        return data.decode("utf-8")
    if spec["as"] == "base64":
        return base64.b64encode(data).decode("ascii")
    raise ValueError("unknown encoding %r" % spec["as"])


def install_roots(directory):
    """Copies cases.json's installedRoots (Apple's roots that are not built in) into directory,
    each under its own file name, as `sigil roots install` names them; returns directory."""
    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as f:
        paths = json.load(f)["installedRoots"]
    os.makedirs(directory, exist_ok=True)
    for path in paths:
        data_set, _, rest = path.partition("/")
        with open(os.path.join(vectors_dir(data_set), rest), "rb") as source:
            data = source.read()
        with open(os.path.join(directory, os.path.basename(rest)), "wb") as target:
            target.write(data)
    return directory


def load_cases(embedded=False):
    """[(name, request bytes, expected status, expected answer)] in the file's order; with embedded,
    a case's "embedded" expectation where it has one (what Embedded Swift builds answer)."""
    with open(os.path.join(HERE, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    out = []
    for case in cases:
        if "rawRequest" in case:
            request = case["rawRequest"].encode("utf-8")
        else:
            members = dict(case["request"])
            for member, spec in case.get("files", {}).items():
                members[member] = [placed(s) for s in spec] if isinstance(spec, list) else placed(spec)
            request = json.dumps(members, separators=(",", ":"), sort_keys=True).encode("utf-8")
        expect = case["embedded"] if embedded and "embedded" in case else case["expect"]
        out.append((case["name"], request, expect["status"], expect["answer"]))
    return out


def holds(actual, expected, path=""):
    """None when actual holds expected (objects member by member, arrays element by element with
    the same length, everything else equal, booleans apart from numbers); else what differs."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return "%s: not an object" % path
        for name, value in expected.items():
            if name not in actual:
                return "%s.%s: absent" % (path, name)
            problem = holds(actual[name], value, "%s.%s" % (path, name))
            if problem:
                return problem
        return None
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return "%s: not an array of %d" % (path, len(expected))
        for index, (found, value) in enumerate(zip(actual, expected)):
            problem = holds(found, value, "%s[%d]" % (path, index))
            if problem:
                return problem
        return None
    if type(actual) is not type(expected) or actual != expected:
        return "%s: %r is not %r" % (path, actual, expected)
    return None


def main():
    command, path = sys.argv[1], sys.argv[2]
    if command == "roots":
        install_roots(path)
        return 0
    cases = load_cases(embedded="--embedded" in sys.argv[3:])
    if command == "requests":
        with open(path, "wb") as f:
            for _, request, _, _ in cases:
                assert b"\n" not in request, "a request holds a line break"
                f.write(request + b"\n")
        return 0
    if command == "check":
        with open(path, "rb") as f:
            answers = f.read().decode("utf-8").split("\n")
        if answers and answers[-1] == "":
            answers.pop()
        if len(answers) != len(cases):
            print("conformance: %d answers for %d cases" % (len(answers), len(cases)), file=sys.stderr)
            return 1
        for (name, _, _, expected), line in zip(cases, answers):
            problem = holds(json.loads(line), expected)
            if problem:
                print("conformance: %s: %s in %s" % (name, problem, line[:400]), file=sys.stderr)
                return 1
        print("conformance: %d cases hold" % len(cases))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
