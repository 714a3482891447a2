// The README's JavaScript lines (the block after <!-- javascript-commands -->), run as written in a
// folder laid out as the README says: my-app/ holding a copy of the built module folder (sigil/)
// and a real JWS in transaction.jws. The README's bundle id is not the JWS's, so the answer is the
// bundle id's refusal; with the JWS's own bundle id put in, the transaction id is printed.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { realTransaction, repository, wasmDirectory } from "./support.mjs";

const readme = readFileSync(join(repository, "README.md"), "utf8");
const block = readme.split("<!-- javascript-commands -->\n```sh\n")[1]?.split("\n```")[0];

function run(commands) {
  const work = mkdtempSync(join(tmpdir(), "sigil-readme-"));
  mkdirSync(join(work, "my-app"));
  cpSync(wasmDirectory, join(work, "my-app", "sigil"), { recursive: true });
  writeFileSync(join(work, "my-app", "transaction.jws"), realTransaction() + "\n");
  return execFileSync("bash", ["-euo", "pipefail", "-c", commands], { cwd: work }).toString().trim();
}

test("the README's JavaScript lines run as written", () => {
  assert.ok(block, "README.md has a javascript-commands block");
  assert.equal(run(block), "appstore.INVALID_APP_IDENTIFIER");
});

test("with the JWS's own bundle id, they print its transaction id", () => {
  const { cases } = JSON.parse(readFileSync(join(repository, "Conformance/cases.json"), "utf8"));
  const { bundleId, transactionId } = cases[0].expect.answer.payload;
  assert.equal(run(block.replace("com.example.app", bundleId)), transactionId);
});
