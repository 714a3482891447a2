// Every real object of the module's jobs in the shared vectors (real_requests.py: the real App
// Store JWS, receipts, real-device attestations) through sigil.wasm: each verifies, and each answer
// is the C ABI's for the same request (SIGIL_REAL_REQUESTS, SIGIL_REAL_NAMES, SIGIL_REAL_C_ANSWERS:
// Scripts/test-wasm writes them).
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { appleRoots, loadSigil } from "./support.mjs";

const { Sigil } = await loadSigil();
const lines = (path) => readFileSync(path, "utf8").split("\n").filter((line) => line.length > 0);

test("every real object verifies through sigil.wasm, with the C ABI's answer", async (t) => {
  for (const name of ["SIGIL_REAL_REQUESTS", "SIGIL_REAL_NAMES", "SIGIL_REAL_C_ANSWERS"]) assert.ok(process.env[name], `${name} (Scripts/test-wasm)`);
  const requests = lines(process.env.SIGIL_REAL_REQUESTS);
  const names = lines(process.env.SIGIL_REAL_NAMES);
  const expected = lines(process.env.SIGIL_REAL_C_ANSWERS).map((line) => JSON.parse(line));
  assert.ok(requests.length >= 20, `${requests.length} real objects`);
  assert.equal(expected.length, requests.length);
  const sigil = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
  for (const [index, request] of requests.entries()) {
    await t.test(names[index], () => {
      const answer = sigil.verify(request);
      assert.equal(answer.valid, true, JSON.stringify(answer).slice(0, 300));
      assert.deepEqual(answer, expected[index]);
    });
  }
});
