#!/usr/bin/env python3
"""App Store JWS verifications per second of two WebAssembly verifiers on one wasmtime, in one process:
Sigil's sigil.wasm and aprv.wasm of apple-purchase-receipt-verifier (PyPI), both verifying the first
real App Store JWS of Conformance/cases.json, with the certificate chain validated on every call
(uncached) and kept by the verifier (cached). Run by Benchmarks/wasm/run (its own virtualenv); never
by the tests. README.md beside this file says what each row measures and what each verifier checks.

    bench.py [--node FILE]   FILE: bench.mjs --json output, whose rows join the table

Environment: SIGIL_WASM_DIR (default .build-wasm/sigil), BENCH_SECONDS (minimum length of one timed
loop, default 2), BENCH_ROUNDS (rounds, default 5; each row's median is reported), BENCH_WARMUP
(seconds of warm-up per row, default 1), APRV_WASM_CACHE_DIR (aprv's own compile cache)."""
import argparse
import gzip
import importlib.metadata
import json
import os
import platform
import statistics
import struct
import subprocess
import sys
import time

PINNED = {"wasmtime": "50.0.1", "apple-purchase-receipt-verifier": "0.12.0"}
for _name, _version in PINNED.items():
    if importlib.metadata.version(_name) != _version:
        sys.exit("bench.py: needs %s==%s, found %s (Benchmarks/wasm/run installs the pinned versions)"
                 % (_name, _version, importlib.metadata.version(_name)))

import wasmtime  # noqa: E402

import apple_purchase_receipt_verifier as aprv  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SIGIL_DIR = os.environ.get("SIGIL_WASM_DIR") or os.path.join(REPO, ".build-wasm", "sigil")
APRV_WASM = os.path.join(os.path.dirname(aprv.__file__), "aprv.wasm")
SECONDS = float(os.environ.get("BENCH_SECONDS", "2"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
WARMUP = float(os.environ.get("BENCH_WARMUP", "1"))
U32 = 0xFFFFFFFF


# --- the case -------------------------------------------------------------------------------------

def first_case():
    """The JWS text, bundle id, environment and transactionId of Conformance/cases.json's first case."""
    with open(os.path.join(REPO, "Conformance", "cases.json"), encoding="utf-8") as handle:
        document = json.load(handle)
    case = (document["cases"] if isinstance(document, dict) else document)[0]
    data_set, _, rest = case["files"]["data"]["path"].partition("/")
    directory = subprocess.run([os.path.join(REPO, "Scripts", "vectors-dir"), data_set],
                               stdout=subprocess.PIPE, check=True).stdout.decode().strip()
    with open(os.path.join(directory, rest), encoding="utf-8") as handle:
        jws = handle.read().strip()
    answer = case["expect"]["answer"]
    return {
        "name": case["name"], "path": case["files"]["data"]["path"], "jws": jws,
        "bundleId": answer["payload"]["bundleId"], "environment": answer["environment"],
        "transactionId": answer["payload"]["transactionId"], "signedDate": answer["payload"]["signedDate"],
    }


# --- Sigil: sigil.wasm, driven as wasm/sigil.mjs drives it ----------------------------------------

class SigilInstance:
    """One instance of sigil.wasm in its own store. Every call gets 64 fresh random bytes
    (sigil_seed) first, its request copied into a sigil_alloc buffer (at most the request limit + 1
    bytes), and its answer read from the returned pointer (4 bytes little-endian length, then the
    UTF-8 JSON); request copies and answers are wiped and freed, as sigil.mjs does."""

    def __init__(self, engine, module, chain_cache_seconds):
        self.store = wasmtime.Store(engine)
        exports = wasmtime.Instance(self.store, module, []).exports(self.store)
        self.memory = exports["memory"]
        self.alloc, self.free, self.seed = exports["sigil_alloc"], exports["sigil_free"], exports["sigil_seed"]
        self._verify, self._configure = exports["sigil_verify"], exports["sigil_configure"]
        self.limit = exports["sigil_request_limit"](self.store, 0)
        self._seed()
        configuration = json.dumps({"appleRoots": [], "chainCacheSeconds": chain_cache_seconds}).encode()
        answer = json.loads(self._call(configuration, len(configuration), self._configure))
        if answer.get("valid") is not True:
            raise RuntimeError("sigil_configure refused %r: %r" % (configuration, answer))

    def _seed(self):
        """64 random bytes for the module (sigil.mjs gives them once at the start, for the hash seed,
        and again before each token)."""
        store, memory = self.store, self.memory
        random = os.urandom(64)
        seed = self.alloc(store, len(random)) & U32
        if seed == 0:
            raise MemoryError("sigil_alloc(64) failed")
        memory.write(store, random, seed)
        self.seed(store, seed, len(random))
        memory.write(store, bytes(len(random)), seed)
        self.free(store, seed)

    def _call(self, data, limit, function, *after):
        store, memory = self.store, self.memory
        count = min(len(data), limit + 1)
        pointer = self.alloc(store, count) & U32
        if pointer == 0:
            raise MemoryError("sigil_alloc(%d) failed" % count)
        memory.write(store, data[:count], pointer)
        answer = function(store, pointer, count, *after) & U32
        if answer == 0:
            raise MemoryError("sigil.wasm could not allocate its answer")
        memory.write(store, bytes(count), pointer)
        self.free(store, pointer)
        (length,) = struct.unpack("<I", memory.read(store, answer, answer + 4))
        text = memory.read(store, answer + 4, answer + 4 + length)
        memory.write(store, bytes(length), answer + 4)
        self.free(store, answer)
        self.last_answer = bytes(text)
        return self.last_answer.decode("utf-8")

    def verify(self, request, stand_in=None):
        """The answer document to `request` (a dict), verified at the host's clock now. With
        `stand_in` (an answer's UTF-8) the host does all its work but sigil_verify is not called:
        one sigil_alloc call and a copy of `stand_in` take its place (the host's overhead)."""
        data = json.dumps(request, separators=(",", ":")).encode("utf-8")
        function = self._verify if stand_in is None else self._stand_in(stand_in)
        return json.loads(self._call(data, self.limit, function, int(time.time())))

    def _stand_in(self, answer):
        framed = struct.pack("<I", len(answer)) + answer

        def function(store, pointer, count, now):
            buffer = self.alloc(store, len(framed)) & U32
            self.memory.write(store, framed, buffer)
            return buffer
        return function


# --- aprv: aprv.wasm driven directly, with the protocol of its package's _host.py -----------------

APRV_ABI = "0.1.0"
APRV_EXPORT = "aprv:verifier/verify@%s#" % APRV_ABI
APRV_HOST_MODULE = "aprv:verifier/host@%s" % APRV_ABI


def aprv_linker(engine):
    """A linker giving aprv.wasm its one import, random-get(len) -> list<u8> (canonical ABI: the
    guest's cabi_realloc allocates the list; its address and length go to the return area)."""

    def random_get(caller, length, area):
        memory, realloc = caller["memory"], caller["cabi_realloc"]
        length &= U32
        pointer = realloc(caller, 0, 0, 1, length) & U32
        if length:
            memory.write(caller, os.urandom(length), pointer)
        memory.write(caller, struct.pack("<II", pointer, length), area & U32)

    linker = wasmtime.Linker(engine)
    i32 = wasmtime.ValType.i32()
    linker.define_func(APRV_HOST_MODULE, "random-get", wasmtime.FuncType([i32, i32], []), random_get, access_caller=True)
    return linker


class AprvInstance:
    """One instance of aprv.wasm in its own store, set up as the package's host sets one up (the
    same memory limit, _initialize, then init with "{}": the roots compiled into the module)."""

    def __init__(self, engine, linker, module):
        self.store = wasmtime.Store(engine)
        self.store.set_limits(memory_size=256 * 1024 * 1024, instances=1)
        exports = linker.instantiate(self.store, module).exports(self.store)
        exports["_initialize"](self.store)
        self.memory, self.realloc = exports["memory"], exports["cabi_realloc"]
        self.exports = exports
        answer = json.loads(self.call("init", (), b"{}"))
        if answer.get("ok") is not True:
            raise RuntimeError("aprv init refused: %r" % answer)
        self.max_input = answer["max_input_bytes"]
        self.stand_in_area = None

    def call(self, name, scalars, data, function=None):
        store, memory = self.store, self.memory
        if name != "init":
            data = data[:self.max_input]
        pointer = self.realloc(store, 0, 0, 1, len(data)) & U32
        if data:
            memory.write(store, data, pointer)
        function = function or self.exports[APRV_EXPORT + name]
        area = function(store, *scalars, pointer, len(data)) & U32
        address, count = struct.unpack("<II", memory.read(store, area, area + 8))
        text = bytes(memory.read(store, address, address + count))
        self.exports["cabi_post_" + APRV_EXPORT + name](store, area)
        self.last_answer = text
        return text.decode("utf-8")

    def verify_signed_data(self, jws, stand_in=None):
        """The module's answer to verify-signed-data, parsed: {"verified", "payload", "environment"}
        or {"verified": false, "reason", "message"}. With `stand_in` (an answer's UTF-8) the host
        does all its work but the export is not called: one cabi_realloc call and a copy of
        `stand_in` into a return area take its place (the host's overhead)."""
        function = None if stand_in is None else self._stand_in(stand_in)
        return json.loads(self.call("verify-signed-data", (int(time.time() * 1000),), jws.encode("utf-8"), function))

    def _stand_in(self, answer):
        store, memory = self.store, self.memory
        if self.stand_in_area is None:  # a return area of its own, made once (the module's is static)
            self.stand_in_area = self.realloc(store, 0, 0, 4, 8) & U32

        def function(store, now, pointer, count):
            # The request buffer, which the export would free, becomes the answer, which cabi_post frees.
            buffer = self.realloc(store, pointer, count, 1, len(answer)) & U32
            memory.write(store, answer, buffer)
            memory.write(store, struct.pack("<II", buffer, len(answer)), self.stand_in_area)
            return self.stand_in_area
        return function


# --- timing ---------------------------------------------------------------------------------------

def timed(call, seconds):
    """(calls per second of wall time, wall ms per call, thread CPU ms per call) over at least
    `seconds` of wall time, calls made in batches of 5."""
    count = 0
    cpu, start = time.thread_time(), time.perf_counter()
    while True:
        for _ in range(5):
            call()
        count += 5
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            break
    cpu = time.thread_time() - cpu
    return count / elapsed, elapsed * 1000 / count, cpu * 1000 / count


def gzip_size(path):
    with open(path, "rb") as handle:
        return len(gzip.compress(handle.read(), 9, mtime=0))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--node", help="bench.mjs --json output to include")
    arguments = parser.parse_args()

    sigil_wasm = os.path.join(SIGIL_DIR, "sigil.wasm")
    if not os.path.isfile(sigil_wasm):
        sys.exit("bench.py: %s is missing (Scripts/build-wasm builds it; SIGIL_WASM_DIR names another directory)" % sigil_wasm)
    case = first_case()
    jws, bundle, environment = case["jws"], case["bundleId"], case["environment"]
    request = {"kind": "transaction", "data": jws, "bundleId": bundle, "environments": [environment]}
    load_before = os.getloadavg()

    # One engine, wasmtime's default configuration (what aprv's package uses, plus its compile
    # cache, which changes no code), for both modules.
    config = wasmtime.Config()
    engine = wasmtime.Engine(config)
    started = time.perf_counter()
    sigil_module = wasmtime.Module.from_file(engine, sigil_wasm)
    sigil_compile = time.perf_counter() - started
    started = time.perf_counter()
    aprv_module = wasmtime.Module.from_file(engine, APRV_WASM)
    aprv_compile = time.perf_counter() - started
    linker = aprv_linker(engine)

    sigil_uncached = SigilInstance(engine, sigil_module, 0)
    sigil_cached = SigilInstance(engine, sigil_module, 900)
    aprv_direct = AprvInstance(engine, linker, aprv_module)
    started = time.perf_counter()
    aprv_api = aprv.Verifier(aprv.Config())  # its own engine and compile (or its compile cache)
    aprv_api_setup = time.perf_counter() - started
    aprv_environment = aprv.Environment(environment)

    # Both must accept the JWS, with the same transactionId, before anything is timed.
    def sigil_check(answer):
        if answer.get("valid") is not True:
            raise RuntimeError("sigil.wasm refused the JWS: %r" % answer.get("error"))
        return answer

    def aprv_check(answer):
        if answer.get("verified") is not True:
            raise RuntimeError("aprv.wasm refused the JWS: %r" % answer)
        return answer

    def aprv_api_verify():
        """aprv's published API as its README's checklist uses it: verify, then compare the bundle id
        and environment (the module checks neither)."""
        result = aprv_api.verify_signed_data(jws)
        if not result.verified:
            raise RuntimeError("aprv refused the JWS: %s %s" % (result.failure.reason, result.failure.message))
        payload = json.loads(result.payload.json)
        if payload.get("bundleId") != bundle or result.payload.environment != aprv_environment:
            raise RuntimeError("aprv: another bundle id or environment")
        return payload

    def sigil_new_instance():
        return sigil_check(SigilInstance(engine, sigil_module, 0).verify(request))

    def aprv_new_instance():
        return aprv_check(AprvInstance(engine, linker, aprv_module).verify_signed_data(jws))

    seen = {
        "sigil.wasm, uncached": sigil_check(sigil_uncached.verify(request))["payload"],
        "sigil.wasm, cached": sigil_check(sigil_cached.verify(request))["payload"],
        "sigil.wasm, new instance": sigil_new_instance()["payload"],
        "aprv.wasm direct": json.loads(aprv_check(aprv_direct.verify_signed_data(jws))["payload"]),
        "aprv API": aprv_api_verify(),
        "aprv.wasm, new instance": json.loads(aprv_new_instance()["payload"]),
    }
    for name, payload in seen.items():
        if str(payload.get("transactionId")) != case["transactionId"] or payload.get("bundleId") != bundle:
            raise RuntimeError("%s: transactionId %r, bundleId %r; expected %s, %s"
                               % (name, payload.get("transactionId"), payload.get("bundleId"), case["transactionId"], bundle))
    sigil_answer = sigil_uncached.verify(request)
    if sigil_answer.get("environment") != environment or aprv_direct.verify_signed_data(jws).get("environment") != environment:
        raise RuntimeError("the verifiers disagree on the environment")

    # The hosts alone: the same instances' protocol with the verification call replaced by a stand-in
    # that hands back the answer the module gave (wasmtime-py spends tens of microseconds on every
    # call into a module; Sigil's protocol makes 7 per verification, aprv's 3).
    sigil_host, aprv_host = SigilInstance(engine, sigil_module, 0), AprvInstance(engine, linker, aprv_module)
    sigil_text, aprv_text = sigil_uncached.last_answer, aprv_direct.last_answer
    sigil_check(sigil_host.verify(request, stand_in=sigil_text))
    aprv_check(aprv_host.verify_signed_data(jws, stand_in=aprv_text))

    rows = [
        ("sigil-host", "Sigil's host alone", "wasmtime-py, this harness; `sigil_verify` replaced by a stand-in", "—",
         lambda: sigil_check(sigil_host.verify(request, stand_in=sigil_text))),
        ("aprv-host", "aprv's host alone", "wasmtime-py, module driven directly; `verify-signed-data` replaced by a stand-in", "—",
         lambda: aprv_check(aprv_host.verify_signed_data(jws, stand_in=aprv_text))),
        ("sigil-uncached", "Sigil `sigil.wasm`", "wasmtime-py, this harness", "uncached (`chainCacheSeconds: 0`)",
         lambda: sigil_check(sigil_uncached.verify(request))),
        ("aprv-direct", "aprv `aprv.wasm`", "wasmtime-py, module driven directly", "every call (it has no chain cache)",
         lambda: aprv_check(aprv_direct.verify_signed_data(jws))),
        ("aprv-api", "aprv `aprv.wasm`", "its Python API (`Verifier.verify_signed_data` + bundle id/environment check)",
         "every call (it has no chain cache)", aprv_api_verify),
        ("sigil-cached", "Sigil `sigil.wasm`", "wasmtime-py, this harness", "cached (`chainCacheSeconds: 900`)",
         lambda: sigil_check(sigil_cached.verify(request))),
        ("sigil-new", "Sigil `sigil.wasm`", "wasmtime-py, new instance per verification", "nothing kept (instantiate + configure + verify)",
         sigil_new_instance),
        ("aprv-new", "aprv `aprv.wasm`", "wasmtime-py, new instance per verification", "nothing kept (instantiate + init + verify)",
         aprv_new_instance),
    ]
    for key, _, _, _, call in rows:
        deadline = time.perf_counter() + WARMUP
        call()
        while time.perf_counter() < deadline:
            call()
    measured = {key: [] for key, *_ in rows}
    for _ in range(ROUNDS):
        for key, _, _, _, call in rows:
            measured[key].append(timed(call, SECONDS))
    load_after = os.getloadavg()

    results = {}
    for key, verifier, host, chain, _ in rows:
        rates = [m[0] for m in measured[key]]
        results[key] = {
            "verifier": verifier, "host": host, "chain": chain, "rate": statistics.median(rates),
            "cpu_ms": statistics.median(m[2] for m in measured[key]), "min": min(rates), "max": max(rates),
        }
    node = None
    if arguments.node:
        with open(arguments.node, encoding="utf-8") as handle:
            node = json.load(handle)
        for row in node["rows"]:
            results["node-" + row["mode"]] = {
                "verifier": "Sigil `sigil.wasm`", "host": "Node %s (V8), `sigil.mjs`" % node["node"],
                "chain": {"uncached": "uncached (`chainCacheSeconds: 0`)", "cached": "cached (`chainCacheSeconds: 900`)"}[row["mode"]],
                "rate": row["rate"], "cpu_ms": row["cpu_ms"], "min": row["min"], "max": row["max"],
            }

    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), platform.machine())
    print("## sigil.wasm against aprv.wasm on one App Store JWS")
    print()
    print("- JWS: `%s` (first case of Conformance/cases.json: %s), bundle id %s, %s, transactionId %s; both verifiers"
          " accepted it with that transactionId before timing; chains judged at the payload's signedDate (%d)."
          % (case["path"], case["name"], bundle, environment, case["transactionId"], case["signedDate"]))
    print("- machine: %s, %d cores; Python %s, wasmtime-py %s (one engine, default configuration), apple-purchase-receipt-verifier %s%s"
          % (model, os.cpu_count(), platform.python_version(), PINNED["wasmtime"], aprv.VERSION,
             "; Node %s" % node["node"] if node else ""))
    print("- load average (1, 5, 15 min): %.2f %.2f %.2f before, %.2f %.2f %.2f after the Python rows%s"
          % (*load_before, *load_after, "; %.2f %.2f %.2f after the Node rows" % tuple(node["load"]) if node else ""))
    print("- each row: %g s warm-up, then %d rounds (rows interleaved) of timed loops of at least %g s; the median round"
          " is reported, with the slowest and fastest round" % (WARMUP, ROUNDS, SECONDS)
          + ("; Node: %g s warm-up, %d rounds of %g s" % (node["warmup"], node["rounds"], node["seconds"]) if node else ""))
    print("- compile on this engine: sigil.wasm %.2f s, aprv.wasm %.2f s; aprv's `Verifier(Config())` %.2f s (its own engine: a compile or its disk cache)"
          % (sigil_compile, aprv_compile, aprv_api_setup))
    print()
    print("| verifier | host | certificate chain | verifications/s | ms each | CPU ms each | slowest–fastest round (/s) |")
    print("|---|---|---|---:|---:|---:|---:|")
    order = ["sigil-uncached", "sigil-cached", "node-uncached", "node-cached", "sigil-new", "aprv-direct", "aprv-api", "aprv-new",
             "sigil-host", "aprv-host"]
    for key in order:
        if key not in results:
            continue
        row = results[key]
        print("| %s | %s | %s | %.0f | %.3f | %.3f | %.0f–%.0f |"
              % (row["verifier"], row["host"], row["chain"], row["rate"], 1000 / row["rate"], row["cpu_ms"], row["min"], row["max"]))
    print()
    print("Sigil / aprv (verifications per second; above 1: Sigil is faster). aprv has no chain cache, so both of")
    print("Sigil's modes are set against the same aprv rows.")
    print()
    print("| Sigil's chain | host | Sigil / aprv module direct | Sigil / aprv's Python API | inside the modules (each host's overhead subtracted) |")
    print("|---|---|---:|---:|---:|")
    direct, api = results["aprv-direct"]["rate"], results["aprv-api"]["rate"]
    ms = {key: 1000 / row["rate"] for key, row in results.items()}
    aprv_inside = ms["aprv-direct"] - ms["aprv-host"]
    for key, mode, host in (("sigil-uncached", "uncached", "wasmtime-py"), ("sigil-cached", "cached", "wasmtime-py"),
                            ("node-uncached", "uncached", "Node (V8)"), ("node-cached", "cached", "Node (V8)")):
        if key in results:
            inside = "%.2f×" % (aprv_inside / (ms[key] - ms["sigil-host"])) if key.startswith("sigil-") else ""
            print("| %s | %s | %.2f× | %.2f× | %s |" % (mode, host, results[key]["rate"] / direct, results[key]["rate"] / api, inside))
    print("| new instance per verification (both) | wasmtime-py | %.2f× | | |" % (results["sigil-new"]["rate"] / results["aprv-new"]["rate"]))
    print()
    print("Host overhead (the \"alone\" rows): %.3f ms of each Sigil verification and %.3f ms of each aprv one are the"
          " Python hosts' work around the module call (wasmtime-py calls, copies, JSON)." % (ms["sigil-host"], ms["aprv-host"]))
    print()
    mib = lambda instance: instance.memory.data_len(instance.store) / (1 << 20)
    print("Linear memory after the run: sigil.wasm %.2f MiB uncached, %.2f MiB cached; aprv.wasm %.2f MiB (module direct)."
          % (mib(sigil_uncached), mib(sigil_cached), mib(aprv_direct)))
    print()
    print("| module | bytes | gzip -9 bytes |")
    print("|---|---:|---:|")
    for name, path in (("sigil.wasm", sigil_wasm), ("aprv.wasm (apple-purchase-receipt-verifier %s)" % aprv.VERSION, APRV_WASM)):
        print("| %s | %d | %d |" % (name, os.path.getsize(path), gzip_size(path)))
    print()
    print("sigil.wasm: `%s`" % os.path.realpath(sigil_wasm))
    return 0


if __name__ == "__main__":
    sys.exit(main())
