#!/usr/bin/env python3
"""Fetch the third-party test data from its pinned public sources (Scripts/get-vectors calls this).

The data is not in the repository. CI and developer machines have a shared copy beside the repository
(Scripts/get-vectors copies that); on any other machine this script downloads it, file by file, as Vectors/third-party-manifest/manifest.tsv lists it, and
checks every file's sha256 before writing it.

Usage:
  Scripts/third_party_vectors.py download --manifest M --dest D [--base-url URL] [--only PREFIX]
  Scripts/third_party_vectors.py verify   --manifest M --dest D

  download  For each manifest row (only paths starting with PREFIX, if given), fetch the row's `url`, take
            the file's bytes out of it as `extract` says, check the sha256 and write D/<path>.
            With --base-url URL (or, without the flag, the environment variable SIGIL_VECTORS_BASE_URL),
            fetch URL/<path> from a mirror laid out like the vectors folder instead; its files are used as
            they are (no extraction). Each distinct URL is fetched once per run; nothing is cached.
  verify    Check that every manifest row's file is under D with the right sha256.

  Example:  Scripts/third_party_vectors.py download \\
                --manifest Vectors/third-party-manifest/manifest.tsv --dest Vectors/third-party

Every error is one line on stderr starting with "get-vectors: "; every row is processed, then the exit status
is 1 if any failed (0 otherwise, after a one-line summary on stdout). A file is written only after its
sha256 matched (temporary name, then rename); a file left at a failed row's path whose sha256 does not match
is removed.

Manifest: tab-separated, header `path sha256 bytes url extract licence source`, one row per file.
Extraction kinds (column `extract`): a selector, then zero or more steps applied in order.
  Selectors:
  file                 the downloaded bytes, unchanged
  lines A-B            on each of lines A..B (1-based, inclusive) of the downloaded text, the content of the
                       last quoted string literal ('...', "..." or `...`), concatenated; a literal holding a
                       backslash is refused (escapes are not interpreted)
  literal A-B          the content of one quoted literal that opens at the first quote character (' " or `)
                       of line A and closes at the last occurrence of that character on line B, byte for byte:
                       line breaks and backslashes are kept, nothing is interpreted (e.g. a PHP '...' literal
                       holding JSON with \\/ escapes, or a PEM key spread over several lines)
  text A-B             lines A..B of the downloaded text as they are, joined with newlines, without a final
                       newline, their common leading whitespace removed (Python's textwrap.dedent), e.g. a bare
                       base64 text or the body of a Swift or Kotlin triple-quoted literal
  shared-only          a file derived by the data's curators (computed expectations, decrypted plaintexts): it
                       is in no public source, so the `url` column is `-` and only a copy of the shared folder
                       or a mirror (--base-url) provides it; a download from the pinned sources reports it
  Steps:
  base64               base64-decode (standard alphabet, padding required; ASCII whitespace is ignored)
  base64url            base64url-decode (URL-safe alphabet, padding optional)
  newline              append one newline
  cbor KEY             the bytes must be one CBOR map; take the byte string stored under the text key KEY
  Examples: `lines 13-13 base64`, `lines 33-33 base64url`, `text 37-131 base64 cbor blob`, `literal 21-26`.
Standard library only (python3).
"""

import argparse
import base64
import binascii
import hashlib
import os
import re
import sys
import tempfile
import textwrap
import urllib.error
import urllib.parse
import urllib.request

HEADER = ["path", "sha256", "bytes", "url", "extract", "licence", "source"]
TIMEOUT_SECONDS = 30
PREFIX = "get-vectors: "


class ExtractError(Exception):
    pass


class Row:
    def __init__(self, fields, line_number):
        (self.path, self.sha256, size, self.url, self.extract, self.licence, self.source) = fields
        self.line_number = line_number
        if not re.fullmatch(r"[0-9a-f]{64}", self.sha256):
            raise ValueError("sha256 is not 64 lowercase hex digits")
        if not size.isdigit():
            raise ValueError("bytes is not a number")
        self.size = int(size)
        parts = self.path.split("/")
        if self.path.startswith("/") or "\\" in self.path or any(p in ("", ".", "..") for p in parts):
            raise ValueError("path must be relative, without '.', '..' or empty parts: %r" % self.path)
        self.shared_only = parse_extract(self.extract)[0] == "shared-only"  # refuses a malformed row up front
        if self.shared_only != (self.url == "-"):
            raise ValueError("url is `-` exactly when extract is shared-only")


def read_manifest(path):
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines or lines[0].split("\t") != HEADER:
        raise ValueError("%s: first line must be the header %s" % (path, "\\t".join(HEADER)))
    rows, seen = [], set()
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        fields = line.split("\t")
        if len(fields) != len(HEADER):
            raise ValueError("%s:%d: %d fields, expected %d" % (path, number, len(fields), len(HEADER)))
        try:
            row = Row(fields, number)
        except ValueError as e:
            raise ValueError("%s:%d: %s" % (path, number, e))
        if row.path in seen:
            raise ValueError("%s:%d: duplicate path %s" % (path, number, row.path))
        seen.add(row.path)
        rows.append(row)
    return rows


# --- extraction -------------------------------------------------------------------------------------------

SELECTORS_WITH_LINES = ("lines", "literal", "text")
STEPS = ("base64", "base64url", "newline", "cbor")
KINDS_HELP = "file | lines A-B | literal A-B | text A-B | shared-only, then steps: base64 | base64url | newline | cbor KEY"


def parse_extract(spec):
    """Return (selector, first_line, last_line, steps) for an `extract` field; steps are (name, argument)."""
    words = spec.split()
    if words == ["shared-only"]:
        return ("shared-only", None, None, [])
    if words[:1] == ["file"]:
        selector, first, last, rest = "file", None, None, words[1:]
    elif len(words) >= 2 and words[0] in SELECTORS_WITH_LINES:
        m = re.fullmatch(r"([1-9][0-9]*)-([1-9][0-9]*)", words[1])
        if not m or int(m.group(1)) > int(m.group(2)):
            raise ValueError("bad line range in extract %r (kinds: %s)" % (spec, KINDS_HELP))
        selector, first, last, rest = words[0], int(m.group(1)), int(m.group(2)), words[2:]
    else:
        raise ValueError("unknown extract %r (kinds: %s)" % (spec, KINDS_HELP))
    steps = []
    while rest:
        name = rest.pop(0)
        if name not in STEPS:
            raise ValueError("unknown step %r in extract %r (kinds: %s)" % (name, spec, KINDS_HELP))
        argument = None
        if name == "cbor":
            if not rest:
                raise ValueError("step cbor needs a KEY in extract %r" % spec)
            argument = rest.pop(0)
        steps.append((name, argument))
    return (selector, first, last, steps)


def last_literal(line):
    """The content of the last '...', "..." or `...` literal on a line (literals do not nest)."""
    found, i = None, 0
    while i < len(line):
        quote = line[i]
        if quote in "'\"`":
            end = line.find(quote, i + 1)
            if end < 0:
                raise ExtractError("unterminated %s literal" % quote)
            found = line[i + 1:end]
            i = end + 1
        else:
            i += 1
    if found is None:
        raise ExtractError("no string literal")
    if "\\" in found:
        raise ExtractError("literal holds a backslash escape")
    return found


def cbor_head(data, i):
    """Read a CBOR item head at i: (major type, argument, index after the head); definite lengths only."""
    if i >= len(data):
        raise ExtractError("CBOR ends early")
    major, info = data[i] >> 5, data[i] & 0x1F
    if info < 24:
        return major, info, i + 1
    if info > 27:
        raise ExtractError("CBOR item at %d: indefinite length or reserved value is not supported" % i)
    size = 1 << (info - 24)
    if i + 1 + size > len(data):
        raise ExtractError("CBOR ends early")
    return major, int.from_bytes(data[i + 1:i + 1 + size], "big"), i + 1 + size


def cbor_skip(data, i):
    """The index just after the CBOR item at i."""
    major, argument, i = cbor_head(data, i)
    if major in (2, 3):
        if i + argument > len(data):
            raise ExtractError("CBOR string longer than the data")
        return i + argument
    if major in (4, 5):
        for _ in range(argument * (2 if major == 5 else 1)):
            i = cbor_skip(data, i)
        return i
    if major == 6:
        return cbor_skip(data, i)
    return i  # integers, simple values and floats: the head is the whole item


def cbor_map_bytes(data, key):
    """The byte string stored under text key `key` in the CBOR map that is the whole of `data`."""
    major, count, i = cbor_head(data, 0)
    if major != 5:
        raise ExtractError("CBOR item is not a map")
    found = None
    for _ in range(count):
        key_major, _, key_start = cbor_head(data, i)
        key_end = cbor_skip(data, i)
        value_end = cbor_skip(data, key_end)
        if key_major == 3 and data[key_start:key_end] == key.encode("utf-8"):
            value_major, _, value_start = cbor_head(data, key_end)
            if value_major != 2:
                raise ExtractError("CBOR map value of %r is not a byte string" % key)
            found = data[value_start:value_end]
        i = value_end
    if i != len(data):
        raise ExtractError("bytes after the CBOR map")
    if found is None:
        raise ExtractError("CBOR map has no key %r" % key)
    return found


def select_lines(document, first, last):
    """Lines first..last (1-based) of the UTF-8 document, each without a final carriage return."""
    try:
        text = document.decode("utf-8")
    except UnicodeDecodeError:
        raise ExtractError("document is not UTF-8")
    lines = text.split("\n")
    if last > len(lines):
        raise ExtractError("document has %d lines, extract wants line %d" % (len(lines), last))
    return [line.rstrip("\r") for line in lines[first - 1:last]]


def one_literal(lines, first):
    """The content of the literal that opens at the first quote of lines[0] and closes at the last one of lines[-1]."""
    quotes = [i for i, c in enumerate(lines[0]) if c in "'\"`"]
    if not quotes:
        raise ExtractError("line %d: no quote character" % first)
    start = quotes[0]
    quote = lines[0][start]
    joined = "\n".join(lines)
    end = joined.rfind(quote)
    if end <= start or end < len(joined) - len(lines[-1]):
        raise ExtractError("line %d: no closing %s" % (first + len(lines) - 1, quote))
    return joined[start + 1:end]


def extract(spec, document):
    """Apply an `extract` field to the downloaded bytes."""
    selector, first, last, steps = parse_extract(spec)
    if selector == "shared-only":
        raise ExtractError("available only from the shared folder or a mirror (a curated file, in no public source)")
    if selector == "file":
        value = document
    elif selector == "text":
        value = textwrap.dedent("\n".join(select_lines(document, first, last))).encode("utf-8")
    elif selector == "literal":
        value = one_literal(select_lines(document, first, last), first).encode("utf-8")
    else:
        pieces = []
        for number, line in enumerate(select_lines(document, first, last), start=first):
            try:
                pieces.append(last_literal(line))
            except ExtractError as e:
                raise ExtractError("line %d: %s" % (number, e))
        value = "".join(pieces).encode("utf-8")
    for name, argument in steps:
        if name == "base64":
            try:
                value = base64.b64decode(re.sub(rb"\s", b"", value), validate=True)
            except (binascii.Error, ValueError) as e:
                raise ExtractError("not base64: %s" % e)
        elif name == "base64url":
            if not re.fullmatch(rb"[A-Za-z0-9_-]*={0,2}", value):
                raise ExtractError("not base64url")
            stripped = value.rstrip(b"=")
            try:
                value = base64.urlsafe_b64decode(stripped + b"=" * (-len(stripped) % 4))
            except (binascii.Error, ValueError) as e:
                raise ExtractError("not base64url: %s" % e)
        elif name == "newline":
            value += b"\n"
        elif name == "cbor":
            value = cbor_map_bytes(value, argument)
    return value


# --- download and verify ----------------------------------------------------------------------------------

def sha256_hex(data):
    return hashlib.sha256(data).hexdigest()


def fetch(url):
    request = urllib.request.Request(url, headers={"User-Agent": "sigil-get-vectors"})
    with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as response:
        return response.read()


def write_checked(dest, row, data):
    """Write data (whose sha256 was already checked) to dest/<path>: temporary name, then rename."""
    target = os.path.join(dest, *row.path.split("/"))
    directory = os.path.dirname(target)
    os.makedirs(directory, exist_ok=True)
    fd, temporary = tempfile.mkstemp(prefix="." + os.path.basename(target) + ".", suffix=".part", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, target)
    except BaseException:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise


def remove_unchecked(dest, row):
    """After a failed row: a file at its path that does not have the expected sha256 is removed."""
    target = os.path.join(dest, *row.path.split("/"))
    try:
        with open(target, "rb") as f:
            if sha256_hex(f.read()) == row.sha256:
                return
        os.unlink(target)
        error("removed %s (its sha256 was not the manifest's)" % row.path)
    except FileNotFoundError:
        pass
    except OSError as e:
        error("cannot remove unchecked %s: %s" % (row.path, e))


def error(message):
    print(PREFIX + message, file=sys.stderr)


def download(rows, dest, base_url):
    """Fetch, extract, check and write every row; return the rows that failed."""
    documents = {}  # url -> bytes, or the reason it could not be fetched; each distinct URL is fetched once
    failed = []

    def fail(row, message):
        failed.append(row)
        error(message)

    for row in rows:
        if base_url:
            url = base_url.rstrip("/") + "/" + urllib.parse.quote(row.path, safe="/")
        elif row.shared_only:
            fail(row, "available only from the shared folder or a mirror: %s (curated, in no public source;"
                 " use Scripts/get-vectors --from DIR or --base-url URL)" % row.path)
            continue
        else:
            url = row.url
        if url not in documents:
            try:
                documents[url] = fetch(url)
            except urllib.error.HTTPError as e:
                documents[url] = "HTTP %d %s" % (e.code, e.reason)
            except urllib.error.URLError as e:
                documents[url] = str(e.reason)
            except (OSError, ValueError) as e:  # timeout, reset, malformed URL
                documents[url] = str(e) or type(e).__name__
        document = documents[url]
        if isinstance(document, str):
            fail(row, "download failed: %s from %s: %s" % (row.path, url, document))
            continue
        try:
            data = document if base_url else extract(row.extract, document)
        except ExtractError as e:
            fail(row, "extract failed: %s from %s (%s): %s" % (row.path, url, row.extract, e))
            continue
        actual = sha256_hex(data)
        if actual != row.sha256:
            fail(row, "sha256 mismatch: %s (expected %s, got %s) from %s" % (row.path, row.sha256, actual, url))
            continue
        try:
            write_checked(dest, row, data)
        except OSError as e:
            fail(row, "cannot write %s: %s" % (row.path, e))
    return failed


def verify(rows, dest):
    failures = 0
    for row in rows:
        target = os.path.join(dest, *row.path.split("/"))
        try:
            with open(target, "rb") as f:
                actual = sha256_hex(f.read())
        except FileNotFoundError:
            failures += 1
            error("missing: %s" % row.path)
            continue
        except OSError as e:
            failures += 1
            error("cannot read %s: %s" % (row.path, e))
            continue
        if actual != row.sha256:
            failures += 1
            error("sha256 mismatch: %s (expected %s, got %s)" % (row.path, row.sha256, actual))
    return failures


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Download or verify the third-party test data listed in a manifest.",
        epilog="See the module docstring (head of this file) for the manifest format and extraction kinds.")
    commands = parser.add_subparsers(dest="command", required=True)
    get = commands.add_parser("download", help="fetch, check sha256, write D/<path>")
    get.add_argument("--manifest", required=True)
    get.add_argument("--dest", required=True)
    get.add_argument("--base-url", help="mirror laid out like the vectors folder (default: $SIGIL_VECTORS_BASE_URL)")
    get.add_argument("--only", default="", metavar="PREFIX", help="only rows whose path starts with PREFIX")
    check = commands.add_parser("verify", help="check every row's file under D")
    check.add_argument("--manifest", required=True)
    check.add_argument("--dest", required=True)
    args = parser.parse_args(argv)

    try:
        rows = read_manifest(args.manifest)
    except (OSError, ValueError) as e:
        error("bad manifest: %s" % e)
        return 1

    if args.command == "verify":
        failures = verify(rows, args.dest)
        if failures:
            error("%d of %d files missing or wrong" % (failures, len(rows)))
            return 1
        print(PREFIX + "%d files present and checked" % len(rows))
        return 0

    selected = [row for row in rows if row.path.startswith(args.only)]
    if not selected:
        error("no manifest row's path starts with %r" % args.only)
        return 1
    base_url = args.base_url if args.base_url is not None else os.environ.get("SIGIL_VECTORS_BASE_URL", "")
    failed = download(selected, args.dest, base_url)
    if failed:
        for row in failed:
            remove_unchecked(args.dest, row)
        error("%d of %d files failed" % (len(failed), len(selected)))
        return 1
    print(PREFIX + "%d files downloaded and checked" % len(selected))
    return 0


if __name__ == "__main__":
    sys.exit(main())
