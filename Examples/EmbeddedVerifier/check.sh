#!/usr/bin/env bash
# Builds the embedding example as a user would (its own package, a path dependency on the
# repository), verifies real App Store signed data (the Apple third-party data, from Scripts/vectors-dir) with it, refuses a tampered
# copy and a wrong bundle id, and checks that the binary links none of Foundation's full
# (internationalization, ICU, networking) libraries nor OpenSSL or libcurl.
#
#   Examples/EmbeddedVerifier/check.sh            dynamic debug build (what the test command runs)
#   Examples/EmbeddedVerifier/check.sh --static   also a clean release --static-swift-stdlib build:
#                                                 its stripped size (fails over 11 MiB), Sigil's share
#                                                 of its symbols, build time
#                                                 and ICU symbols
#   Examples/EmbeddedVerifier/check.sh --embedded-binary PATH
#                                                 the same checks on the Embedded Swift build of the
#                                                 same main.swift (Scripts/check-embedded links it
#                                                 statically against musl): the real data, the
#                                                 refusals, no test PKI, no decryption code, static
#                                                 (no dynamic libraries), stripped ≤ 2 MiB
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cd "$here"

vectors="$("$repo/Scripts/vectors-dir" apple)/real"
root="$vectors/apple-pki/AppleRootCA-G3.cer"
jws_dir="$vectors/jws/Doy-lee-session-pro-backend"
transaction="$jws_dir/transaction-2000001024998954-20251001T070838.jws"
renewal="$jws_dir/renewalinfo-2000001024993299-20251001T070838.jws"
bundle=com.loki-project.loki-messenger

mode=${1:-}
if [ "$mode" = --embedded-binary ]; then
    for tool in readelf nm strip; do
        command -v "$tool" >/dev/null || { echo "embedded: $tool is missing (binutils: the README's set-up line)" >&2; exit 1; }
    done
    bin=$2
    test -x "$bin" || { echo "embedded: no Embedded build at $bin" >&2; exit 1; }
    echo "embedded: the Embedded Swift build $bin"
else
    echo "embedded: building (debug, dynamic)"
    swift build --product embedded-verifier 2>&1 | grep -Ev '^\[[0-9]+/[0-9]+\]' || true
    bin=$(swift build --product embedded-verifier --show-bin-path)/embedded-verifier
    test -x "$bin" || { echo "embedded: the example did not build" >&2; exit 1; }
fi

failures=0
expect() { # expect STATUS DESCRIPTION -- COMMAND...
    local want=$1 what=$2; shift 3
    local out status=0
    out=$("$@") || status=$?
    if [ "$status" -eq "$want" ]; then echo "embedded: ok   $what: $out"
    else echo "embedded: FAIL $what: exit $status (wanted $want): $out" >&2; failures=$((failures + 1)); fi
}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
expect 0 "real transaction" -- "$bin" "$root" "$transaction" "$bundle"
expect 0 "real renewal info" -- "$bin" "$root" "$renewal" "$bundle" --type renewal-info
expect 1 "wrong bundle id" -- "$bin" "$root" "$transaction" com.example.other
# One character of the signature changed (r no longer matches), and the payload of the renewal
# info under the transaction's header and signature.
python3 - "$transaction" "$renewal" "$tmp" <<'PY'
import sys
h, p, s = open(sys.argv[1]).read().strip().split(".")
i = len(s) // 4
open(sys.argv[3] + "/bad-signature.jws", "w").write(".".join([h, p, s[:i] + ("A" if s[i] != "A" else "B") + s[i + 1:]]))
open(sys.argv[3] + "/swapped-payload.jws", "w").write(".".join([h, open(sys.argv[2]).read().strip().split(".")[1], s]))
PY
expect 1 "tampered signature" -- "$bin" "$root" "$tmp/bad-signature.jws" "$bundle"
expect 1 "another payload under the signature" -- "$bin" "$root" "$tmp/swapped-payload.jws" "$bundle" --type renewal-info
expect 1 "wrong root (Apple Root CA - G2)" -- "$bin" "$vectors/apple-pki/AppleRootCA-G2.cer" "$transaction" "$bundle"

if [ "$mode" = --embedded-binary ]; then
    # Static: no dynamic library at all (ldd: "not a dynamic executable"), no Swift runtime.
    if readelf -l "$bin" | grep -q INTERP || readelf -d "$bin" | grep -q NEEDED; then
        echo "embedded: FAIL the Embedded build is dynamically linked: $(readelf -d "$bin" | grep NEEDED | tr -s ' ' | tr '\n' ' ')" >&2
        failures=$((failures + 1))
    else
        echo "embedded: ok   static: no dynamic library (no libc.so, no Swift runtime, no Foundation, ICU, curl or OpenSSL)"
    fi
    symbols=$(nm "$bin")
    runtime=$(grep -cE ' [TtWw] (swift_retain|swift_allocObject)$' <<<"$symbols" || true)
    swiftcore=$(grep -cE 'swift_getTypeByMangledName|swift_conformsToProtocol|swift_getGenericMetadata|swift_getWitnessTable' <<<"$symbols" || true)
    [ "$runtime" -gt 0 ] || { echo "embedded: FAIL no swift_retain or swift_allocObject in the Embedded build: is it one?" >&2; failures=$((failures + 1)); }
    if [ "$swiftcore" -ne 0 ]; then
        echo "embedded: FAIL the Embedded build carries the Swift runtime ($swiftcore runtime symbols)" >&2
        failures=$((failures + 1))
    else
        echo "embedded: ok   no Swift runtime (no metadata lookup, conformance or dynamic-cast entry point; $runtime Embedded refcounting functions compiled in)"
    fi
else
    # What the dynamic binary links: none of these may appear.
    forbidden='libFoundation\.so|libFoundationInternationalization\.so|lib_FoundationICU\.so|libFoundationNetworking\.so|libcurl|libssl|libcrypto'
    echo "embedded: ldd $bin"
    ldd "$bin" | sed 's/^/embedded:   /'
    if ldd "$bin" | grep -Eq "$forbidden"; then
        echo "embedded: FAIL the example links $(ldd "$bin" | grep -Eo "$forbidden" | sort -u | tr '\n' ' ')" >&2
        failures=$((failures + 1))
    else
        echo "embedded: ok   links none of Foundation, FoundationInternationalization, _FoundationICU, FoundationNetworking, libcurl, libssl, libcrypto"
    fi
fi

# No test fixture is linked: the builders live in the SigilTestPKI product, which no verifier
# depends on ("module size is link size").
fixtures=$(nm "$bin" 2>/dev/null | grep -cE 'SigilTestPKI|CertificateBuilder|AppleShapedTestPKI|AppReceiptBuilder' || true)
if [ "$fixtures" -ne 0 ]; then
    echo "embedded: FAIL the example links $fixtures test-PKI symbols (SigilTestPKI, CertificateBuilder, AppleShapedTestPKI, AppReceiptBuilder)" >&2
    failures=$((failures + 1))
else
    echo "embedded: ok   links no test-PKI code (nm: no SigilTestPKI, CertificateBuilder, AppleShapedTestPKI or AppReceiptBuilder symbol)"
fi

# No decryption code (issue 38): no global symbol of SigilCipher or SigilApplePay (Swift mangles a
# module as its length and name), and none of Apple Pay's identifiers or policy (SigilApplePKI emits
# those into SigilApplePay; only their 4-byte property descriptors, "…vpZMV", stay with the module,
# and a debug build keeps unused local copies, which nm -g does not list). ECDH's entry point,
# ECDSAPrivateKey.sharedSecret(with:), is the one exception, counted and shown: it lives in
# SigilCore (it needs the internal point arithmetic) and every public symbol of a linked module is
# exported, so the linker keeps it (1.5 KB of text).
no_decryption() { # no_decryption BINARY LABEL
    local pattern='11SigilCipher|13SigilApplePay|applePay|applicationIntegrationG3' found
    found=$(nm -g "$1" 2>/dev/null | grep -E "$pattern" | grep -cv 'vpZMV$' || true)
    if [ "$found" -ne 0 ]; then
        echo "embedded: FAIL $2 links $found SigilCipher/SigilApplePay/Apple Pay symbol(s):" >&2
        nm -g "$1" | grep -E "$pattern" | grep -v 'vpZMV$' | head -5 >&2
        failures=$((failures + 1))
    else
        echo "embedded: ok   $2 links no SigilCipher or SigilApplePay code, no Apple Pay identifier; ECDH entry points: $(nm -g "$1" | grep -c 'sharedSecret4with' || true) (ECDSAPrivateKey.sharedSecret, SigilCore)"
    fi
}
no_decryption "$bin" "the example"

# No mobile-document code (issue 49): no global symbol of SigilMdoc or SigilCOSE (mdoc verification
# and COSE are their own modules; the App Store path imports neither).
no_mdoc() { # no_mdoc BINARY LABEL
    local found
    found=$(nm -g "$1" 2>/dev/null | grep -cE '9SigilMdoc|9SigilCOSE' || true)
    if [ "$found" -ne 0 ]; then
        echo "embedded: FAIL $2 links $found SigilMdoc/SigilCOSE symbol(s):" >&2
        nm -g "$1" | grep -E '9SigilMdoc|9SigilCOSE' | head -5 >&2
        failures=$((failures + 1))
    else
        echo "embedded: ok   $2 links no SigilMdoc or SigilCOSE code"
    fi
}
no_mdoc "$bin" "the example"

if [ "$mode" = --embedded-binary ]; then
    strip -o "$tmp/stripped" "$bin"
    size=$(stat -c %s "$tmp/stripped")
    sigil=$(nm -S --defined-only "$bin" | python3 -c 'import re, sys; print(sum(int(f[1], 16) for f in (l.split() for l in sys.stdin) if len(f) == 4 and re.match(r"\$e", f[3])))')
    echo "embedded: the Embedded build: static stripped size $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.0f", s / 1024 }') KiB), of which Swift code (Sigil and the specialized standard library) is $sigil bytes of symbols before stripping"
    if [ "$size" -gt $((2 * 1048576)) ]; then
        echo "embedded: FAIL the Embedded build's static stripped binary is over 2 MiB" >&2
        failures=$((failures + 1))
    fi
fi

if [ "$mode" = "--static" ]; then
    echo "embedded: building (release, --static-swift-stdlib, clean)"
    rm -rf .build-static
    start=$(date +%s)
    cpu_before=$(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat)
    swift build -c release --static-swift-stdlib --scratch-path .build-static --product embedded-verifier 2>&1 \
        | grep -Ev '^\[[0-9]+/[0-9]+\]' || true
    seconds=$(( $(date +%s) - start ))
    # User + system CPU of the build (this shell's waited-for children), less sensitive to load.
    cpu=$(( ($(awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat) - cpu_before) / $(getconf CLK_TCK) ))
    static=.build-static/release/embedded-verifier
    strip -o "$tmp/stripped" "$static"
    size=$(stat -c %s "$tmp/stripped")
    echo "embedded: static stripped size $size bytes ($(awk -v s="$size" 'BEGIN { printf "%.2f", s / 1048576 }') MiB), clean build ${seconds} s wall, ${cpu} s CPU, load $(cut -d' ' -f1-3 /proc/loadavg)"
    echo "embedded: ICU data symbols: $(nm "$static" 2>/dev/null | grep -c 'icudt' || true)"
    # Sigil's own code in it: the symbols of Sigil's modules (nm sizes, before stripping); the
    # rest is the Swift runtime and standard library, FoundationEssentials' date code and libgmp.
    sigil=$(nm -S --defined-only "$static" | python3 -c 'import re, sys; print(sum(int(f[1], 16) for f in (l.split() for l in sys.stdin) if len(f) == 4 and re.match(r"\$s[0-9]+Sigil", f[3])))')
    echo "embedded: Sigil's modules: $sigil bytes of symbols"
    # The bound was 16 MiB while the program read its files through Foundation's Data and URL
    # (6.6 MB of Foundation); it reads them with the C library since issue 47.
    if [ "$size" -gt $((11 * 1048576)) ]; then
        echo "embedded: FAIL the static stripped binary is over 11 MiB" >&2
        failures=$((failures + 1))
    fi
    echo "embedded: dynamic libraries of the static build:"; ldd "$static" | sed 's/^/embedded:   /'
    expect 0 "static build, real transaction" -- "$static" "$root" "$transaction" "$bundle"
    no_decryption "$static" "the static build"
    fixtures=$(nm "$static" 2>/dev/null | grep -cE 'SigilTestPKI|CertificateBuilder|AppleShapedTestPKI|AppReceiptBuilder' || true)
    if [ "$fixtures" -ne 0 ]; then
        echo "embedded: FAIL the static build links $fixtures test-PKI symbols" >&2
        failures=$((failures + 1))
    fi
fi

if [ "$failures" -ne 0 ]; then echo "embedded: $failures check(s) failed" >&2; exit 1; fi
echo "embedded: all checks passed"
