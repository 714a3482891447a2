// Node's own timing of sigil.wasm through sigil.mjs (the ES module its JavaScript users load) on
// the first real App Store JWS of Conformance/cases.json: the chain validated on every call
// (chainCacheSeconds: 0) and kept (chainCacheSeconds: 900, the default). Run by
// Benchmarks/wasm/run, which puts these rows into bench.py's table; never by the tests.
//
//   node Benchmarks/wasm/bench.mjs           a markdown table
//   node Benchmarks/wasm/bench.mjs --json    the figures as JSON (what bench.py --node reads)
//
// SIGIL_WASM_DIR names the directory of sigil.mjs and sigil.wasm (default .build-wasm/sigil);
// BENCH_SECONDS, BENCH_ROUNDS and BENCH_WARMUP as for bench.py (defaults 2, 5, 1).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const sigilDir = resolve(process.env.SIGIL_WASM_DIR || join(repo, ".build-wasm", "sigil"));
const seconds = Number(process.env.BENCH_SECONDS || 2);
const rounds = Number(process.env.BENCH_ROUNDS || 5);
const warmup = Number(process.env.BENCH_WARMUP || 1);
const asJSON = process.argv.includes("--json");

/** The JWS text and expected identity of Conformance/cases.json's first case. */
function firstCase() {
  const document = JSON.parse(readFileSync(join(repo, "Conformance", "cases.json"), "utf8"));
  const theCase = (Array.isArray(document) ? document : document.cases)[0];
  const path = theCase.files.data.path;
  const slash = path.indexOf("/");
  const directory = execFileSync(join(repo, "Scripts", "vectors-dir"), [path.slice(0, slash)]).toString().trim();
  const answer = theCase.expect.answer;
  return {
    jws: readFileSync(join(directory, path.slice(slash + 1)), "utf8").trim(),
    bundleId: answer.payload.bundleId,
    environment: answer.environment,
    transactionId: answer.payload.transactionId,
  };
}

/** [calls per second of wall time, process CPU ms per call] over at least `duration` seconds. */
function timed(call, duration) {
  let count = 0;
  const cpu = process.cpuUsage();
  const start = process.hrtime.bigint();
  let elapsed;
  for (;;) {
    for (let i = 0; i < 5; i++) call();
    count += 5;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
    if (elapsed >= duration) break;
  }
  const used = process.cpuUsage(cpu);
  return [count / elapsed, (used.user + used.system) / 1000 / count];
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const { Sigil } = await import(pathToFileURL(join(sigilDir, "sigil.mjs")).href);
const theCase = firstCase();
const request = { kind: "transaction", data: theCase.jws, bundleId: theCase.bundleId, environments: [theCase.environment] };
const wasm = pathToFileURL(join(sigilDir, "sigil.wasm"));
const modes = [
  ["uncached", await Sigil.instantiate(wasm, { chainCacheSeconds: 0 })],
  ["cached", await Sigil.instantiate(wasm, { chainCacheSeconds: 900 })],
];
const verify = (sigil) => {
  const answer = sigil.verify(request);
  if (answer.valid !== true) throw new Error(`sigil.wasm refused the JWS: ${JSON.stringify(answer.error)}`);
  return answer;
};
for (const [mode, sigil] of modes) {
  const answer = verify(sigil);
  if (String(answer.payload.transactionId) !== theCase.transactionId || answer.environment !== theCase.environment) {
    throw new Error(`${mode}: transactionId ${answer.payload.transactionId}, environment ${answer.environment}`);
  }
}
for (const [, sigil] of modes) {
  const deadline = performance.now() + warmup * 1000;
  do verify(sigil);
  while (performance.now() < deadline);
}
const measured = new Map(modes.map(([mode]) => [mode, []]));
for (let round = 0; round < rounds; round++) {
  for (const [mode, sigil] of modes) measured.get(mode).push(timed(() => verify(sigil), seconds));
}
const rows = modes.map(([mode]) => {
  const rates = measured.get(mode).map(([rate]) => rate);
  return {
    mode,
    rate: median(rates),
    cpu_ms: median(measured.get(mode).map(([, cpu]) => cpu)),
    min: Math.min(...rates),
    max: Math.max(...rates),
  };
});
const result = { node: process.versions.node, load: loadavg(), seconds, rounds, warmup, sigil: join(sigilDir, "sigil.wasm"), rows };
if (asJSON) {
  console.log(JSON.stringify(result));
} else {
  console.log(`Node ${result.node}, ${result.sigil}; load ${result.load.map((v) => v.toFixed(2)).join(" ")}; median of ${rounds} rounds of ${seconds} s`);
  console.log("| chain | verifications/s | ms each | CPU ms each (process) | slowest–fastest round (/s) |");
  console.log("|---|---:|---:|---:|---:|");
  for (const row of rows) {
    console.log(`| ${row.mode} | ${row.rate.toFixed(0)} | ${(1000 / row.rate).toFixed(3)} | ${row.cpu_ms.toFixed(3)} | ${row.min.toFixed(0)}–${row.max.toFixed(0)} |`);
  }
}
