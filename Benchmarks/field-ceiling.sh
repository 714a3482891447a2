#!/usr/bin/env bash
# The P-256/P-384 field ceiling (README.md, "The P-256/P-384 field ceiling"): the generated Swift
# Montgomery multiplication and squaring against the same statements in C (Sources/CFieldCeiling*,
# written by Sources/SigilCore/Field/generate_fields.py), compiled for baseline x86-64 and with
# -mbmi2 -madx. First ns per operation, all variants in one run (dependent chains of 1,000; the C
# chains must end on the Swift chain's value); then instructions per operation under callgrind:
# chains of 1,000 and 11,000 operations, the difference divided by 10,000.
#
#   Benchmarks/field-ceiling.sh            SECONDS=N per measurement (default 1)
set -euo pipefail
cd "$(dirname "$0")"
swift build -c release --product sigil-bench >/dev/null
bench=.build/release/sigil-bench
"$bench" --ceiling --seconds "${SECONDS_PER_MEASUREMENT:-1}"
# valgrind 3.19 cannot read the toolchain's DWARF 5: callgrind runs a copy without debug info.
stripped=$(mktemp)
trap 'rm -f "$stripped"' EXIT
strip --strip-debug -o "$stripped" "$bench"
instructions() { # instructions VARIANT OPERATION CURVE COUNT
    valgrind --tool=callgrind --callgrind-out-file=/dev/null "$stripped" --ceiling-chain "$@" 2>&1 |
        awk '/refs:/ { gsub(",", "", $NF); print $NF }'
}
echo
echo "| operation | Swift (generated) instructions | C baseline x86-64 | C -mbmi2 -madx |"
echo "|---|---:|---:|---:|"
for curve in P-256 P-384; do
    for operation in multiply square; do
        row="| $curve field $operation |"
        for variant in swift baseline bmi2adx; do
            short=$(instructions "$variant" "$operation" "$curve" 1000)
            long=$(instructions "$variant" "$operation" "$curve" 11000)
            row="$row $(awk -v a="$short" -v b="$long" 'BEGIN { printf "%.1f", (b - a) / 10000 }') |"
        done
        echo "$row"
    done
done
