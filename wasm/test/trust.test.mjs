// The attacker's trust tricks through sigil.wasm (the C ABI's adversarial suite, Tests/CABI/
// sigil_c_adversarial.c, from JavaScript): data under a root the attacker made
// (Conformance/forged.py, minted with python3-cryptography), trust members smuggled into requests,
// Apple Pay through a door without merchant keys. Each gets a typed refusal or a valid answer that
// names whose trust it rests on, never one that looks like Apple's.
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { appleRoots, loadSigil, repository } from "./support.mjs";

const { Sigil } = await loadSigil();
const sigil = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
const path = join(mkdtempSync(join(tmpdir(), "sigil-forged-")), "forged.txt");
execFileSync("python3", [join(repository, "Conformance/forged.py"), path]);
const forged = Object.fromEntries(
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.length > 0)
    .map((line) => line.split(" ")),
);

function refused(request, code) {
  const answer = sigil.verify(request);
  assert.equal(answer.valid, false, JSON.stringify(answer).slice(0, 300));
  assert.equal(answer.error.code, code, JSON.stringify(answer).slice(0, 300));
}

test("a self-made root in roots: valid only as trust request-roots, appleRoot not enforced", () => {
  const answer = sigil.verify({ data: forged.jws, roots: [forged.root], bundleId: "com.victim.bank", appAppleId: 42, environments: ["Production"] });
  assert.equal(answer.valid, true, JSON.stringify(answer).slice(0, 300));
  assert.equal(answer.trust, "request-roots");
  assert.deepEqual(answer.notEnforced, ["appleRoot"]);
});

test("the same forgery without roots: Apple's root refuses it", () => {
  refused({ data: forged.jws, bundleId: "com.victim.bank", appAppleId: 42, environments: ["Production"] }, "appstore.VERIFICATION_FAILURE");
});

test("Xcode trust of a certificate the data carries is named xcode, never apple", () => {
  const answer = sigil.verify({ kind: "transaction", data: forged.xcodejws, environments: ["Xcode"] });
  assert.equal(answer.valid, true, JSON.stringify(answer).slice(0, 300));
  assert.equal(answer.trust, "xcode");
  assert.deepEqual(answer.notEnforced, ["bundleId", "appAppleId", "appleRoot"]);
  refused({ kind: "transaction", data: forged.xcodejws, environments: ["Xcode"], roots: [forged.root, forged.root] }, "request.invalidMember");
});

test("trust members where they do not belong, and verdicts sent as requests, are refused", () => {
  const assertion = { kind: "assertion", data: "AAAA", teamId: "ABCDE12345", bundleId: "com.victim.bank", clientData: "AA==", publicKey: "BAAA" };
  refused({ ...assertion, unpinnedTestRoot: true }, "request.invalidMember");
  refused({ ...assertion, roots: [forged.root] }, "request.invalidMember");
  refused({ data: "x.y.z", unpinnedTestRoot: true }, "request.invalidMember");
  refused({ data: "x.y.z", trust: "apple" }, "request.unknownMember");
  refused({ data: "x.y.z", notEnforced: [] }, "request.unknownMember");
  refused('{"data":"x","roots":null,"roots":["AAAA"]}', "request.invalidJSON");
});

test("Apple Pay through the module: service.notConfigured, nothing decrypted", () => {
  const answer = sigil.verify({ kind: "applepay", data: JSON.stringify({ version: "EC_v1", data: "AAAA", signature: "AAAA", header: {} }) });
  assert.equal(answer.valid, false);
  assert.equal(answer.error.code, "service.notConfigured");
  refused({ kind: "applepay", data: "{}", roots: [forged.root] }, "request.invalidMember");
});

test("a root given at configuration that is not Apple's is never used as Apple's", async () => {
  // The module's appleRoots are pinned by fingerprint: the attacker's root passed there is ignored,
  // so the forgery is still refused without request roots.
  const configured = await Sigil.instantiate(undefined, { appleRoots: [forged.root] });
  const answer = configured.verify({ data: forged.jws, bundleId: "com.victim.bank", appAppleId: 42, environments: ["Production"] });
  assert.equal(answer.valid, false);
});
