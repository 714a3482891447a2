// Conformance/cases.json through sigil.wasm and sigil.mjs, in Node: every case's answer holds what
// the case expects of an Embedded build (Conformance/conformance.py check --embedded) and, but for
// the cases whose kind Embedded builds do not hold (an "embedded" expectation: mdoc), is the same
// document the C ABI gave for the same request (SIGIL_C_ANSWERS, which Scripts/test-wasm writes with
// Tests/CABI/sigil_c_test.c).
//
//   SIGIL_WASM_DIR=.build-wasm/sigil SIGIL_C_ANSWERS=… node --test wasm/test/
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { appleRoots, loadSigil, repository } from "./support.mjs";

const { Sigil } = await loadSigil();
const work = mkdtempSync(join(tmpdir(), "sigil-wasm-"));
execFileSync("python3", [join(repository, "Conformance/conformance.py"), "requests", join(work, "requests.jsonl")]);
const requests = readFileSync(join(work, "requests.jsonl"), "utf8").split("\n").filter((line) => line.length > 0);
const cases = JSON.parse(readFileSync(join(repository, "Conformance/cases.json"), "utf8")).cases;
const embeddedOnly = new Set(cases.flatMap((entry, index) => ("embedded" in entry ? [index] : [])));

test("every case of Conformance/cases.json holds through sigil.wasm", async () => {
  const sigil = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
  const answers = requests.map((request) => JSON.stringify(sigil.verify(request)));
  writeFileSync(join(work, "answers.jsonl"), answers.join("\n") + "\n");
  if (process.env.SIGIL_WASM_ANSWERS) writeFileSync(process.env.SIGIL_WASM_ANSWERS, answers.join("\n") + "\n");
  execFileSync("python3", [join(repository, "Conformance/conformance.py"), "check", join(work, "answers.jsonl"), "--embedded"], {
    stdio: "inherit",
  });
  assert.equal(answers.length, 38);
  assert.equal(embeddedOnly.size, 3);
});

test("each answer is the document the C ABI gave for the same request", async (t) => {
  const path = process.env.SIGIL_C_ANSWERS;
  assert.ok(path, "SIGIL_C_ANSWERS names the C ABI's answers (Scripts/test-wasm writes them)");
  const expected = readFileSync(path, "utf8").split("\n").filter((line) => line.length > 0);
  assert.equal(expected.length, requests.length);
  const sigil = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
  for (const [index, request] of requests.entries()) {
    if (embeddedOnly.has(index)) {
      // A kind the module does not hold (its "embedded" expectation): the module answers
      // notConfigured whatever the C ABI answered.
      await t.test(`case ${index + 1} (not in Embedded builds)`, () => {
        const answer = sigil.verify(request);
        assert.equal(answer.error.code, "service.notConfigured");
        assert.match(answer.error.message, /not part of this build/);
      });
      continue;
    }
    await t.test(`case ${index + 1}`, () => assert.deepEqual(sigil.verify(request), JSON.parse(expected[index])));
  }
});

test("requests as a value, as text and as bytes get the same answer", async () => {
  const sigil = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
  const text = requests[0];
  const answer = sigil.verify(text);
  assert.equal(answer.valid, true);
  assert.deepEqual(sigil.verify(JSON.parse(text)), answer);
  assert.deepEqual(sigil.verify(new TextEncoder().encode(text)), answer);
  assert.deepEqual(sigil.verify(new TextEncoder().encode(text).buffer), answer);
});

test("the module imports nothing and its version is the C ABI's", async () => {
  const bytes = readFileSync(join(process.env.SIGIL_WASM_DIR ?? join(repository, ".build-wasm/sigil"), "sigil.wasm"));
  const module = await WebAssembly.compile(bytes);
  assert.deepEqual(WebAssembly.Module.imports(module), []);
  const sigil = new Sigil(module);
  assert.match(sigil.version, /^\d+\.\d+\.\d+/);
  assert.ok(process.env.SIGIL_C_VERSION, "SIGIL_C_VERSION is the C ABI's sigil_version() (Scripts/test-wasm reads it)");
  assert.equal(sigil.version, process.env.SIGIL_C_VERSION);
});
