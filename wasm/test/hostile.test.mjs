// sigil.wasm from a hostile caller's side: each bad request gets the typed error document the C
// ABI gives (Tests/CABI/sigil_c_test.c's bad inputs), no input traps the module or makes it grow
// without bound, and the module answers real data afterwards; a trap inside a module (the stand-in
// of trap-module.c, which Scripts/test-wasm compiles: nothing sent to sigil.wasm traps it) reaches
// the caller as SigilTrapError and the next call runs on a fresh instance.
import assert from "node:assert/strict";
import { generateKeyPairSync, verify as verifySignature } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { appleRoots, loadSigil, realTransaction } from "./support.mjs";

const { Sigil, SigilTrapError } = await loadSigil();
const sigil = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
const jws = realTransaction();
const real = { kind: "transaction", data: jws, environments: ["Sandbox"], reportOnly: true };

function refused(answer, code) {
  assert.equal(answer.valid, false, JSON.stringify(answer).slice(0, 300));
  assert.equal(answer.error.code, code, JSON.stringify(answer).slice(0, 300));
  assert.ok(JSON.stringify(answer).length < 4096, "a refusal never echoes the request");
}

function stillServes() {
  const answer = sigil.verify(real);
  assert.equal(answer.valid, true, JSON.stringify(answer).slice(0, 300));
  assert.equal(answer.kind, "transaction");
}

const bytes = (text) => new TextEncoder().encode(text);

test("malformed requests get the C ABI's typed errors, and the module still serves", () => {
  const cases = [
    ["empty request", "", "request.invalidJSON"],
    ["invalid UTF-8", Uint8Array.from([...bytes('{"data": "'), 0xc3, 0x28, ...bytes('"}')]), "request.invalidJSON"],
    ["lone continuation byte", Uint8Array.from([...bytes('{"data": "'), 0x80, ...bytes('"}')]), "request.invalidJSON"],
    ["a lone surrogate in the caller's string (not read as U+FFFD)", '{"data": "\uD800"}', "request.invalidJSON"],
    ["a lone surrogate in a value (JSON.stringify escapes it)", { data: "\uDC00x" }, "request.invalidJSON"],
    ["not JSON", "verify this please", "request.invalidJSON"],
    ["truncated JSON", '{"data": "eyJ', "request.invalidJSON"],
    ["truncated real request", JSON.stringify(real).slice(0, 500), "request.invalidJSON"],
    ["not an object: array", "[1, 2, 3]", "request.notAnObject"],
    ["not an object: number", "42", "request.notAnObject"],
    ["not an object: null", "null", "request.notAnObject"],
    ["not an object: string", JSON.stringify("a JWS"), "request.notAnObject"],
    ["unknown member", '{"data": "x", "bundle_id": "a"}', "request.unknownMember"],
    ["duplicate member", '{"data": "x", "data": "y"}', "request.invalidJSON"],
    ["NUL inside", '{"data": "x\u0000"}', "request.invalidJSON"],
    ["deeply nested", "[".repeat(100_000), "request.invalidJSON"],
    ["nested past the limit and closed", "[".repeat(65) + "]".repeat(65), "request.invalidJSON"],
    ["100,000 members", "{" + Array.from({ length: 100_000 }, (_, i) => `"m${i}":0`).join(",") + "}", "request.unknownMember"],
  ];
  for (const [name, request, code] of cases) {
    try {
      refused(sigil.verify(request), code);
    } catch (error) {
      error.message = `${name}: ${error.message}`;
      throw error;
    }
  }
  stillServes();
});

test("oversized requests are refused without being copied whole, and memory stays bounded", async () => {
  // A fresh instance: its memory before and after a 40 MiB request. Copied whole, the request
  // would need a 64 MiB block; at most limit + 1 bytes (4 MiB + 1) go in.
  const fresh = await Sigil.instantiate(undefined, { appleRoots: appleRoots() });
  const huge = '{"data":"' + "A".repeat(40 * 1024 * 1024) + '"}';
  refused(fresh.verify(huge), "request.tooLarge");
  const after = fresh.memoryBytes;
  assert.ok(after < 32 * 1024 * 1024, `memory ${after} bytes after a 40 MiB request`);
  for (let i = 0; i < 3; i++) refused(fresh.verify(huge), "request.tooLarge");
  refused(fresh.verify(bytes(huge)), "request.tooLarge");
  refused(fresh.verify(huge.slice(0, 100) + "\uD800" + huge.slice(100)), "request.tooLarge");
  assert.equal(fresh.memoryBytes, after, "repeated oversized requests do not grow memory");
  refused(fresh.mintToken('{"token":"' + "x".repeat(100_000) + '"}'), "request.tooLarge");
  const answer = fresh.verify(real);
  assert.equal(answer.valid, true, JSON.stringify(answer).slice(0, 300));
});

test("a member JSON would drop (undefined) is the caller's error, never a request without it", () => {
  assert.throws(() => sigil.verify({ ...real, bundleId: undefined }), TypeError);
  assert.throws(() => sigil.verify({ ...real, reportOnly: undefined }), TypeError);
  assert.throws(() => sigil.mintToken({ token: "app-store-server-api", key: undefined }), TypeError);
  stillServes();
});

test("refused data: a tampered signature, another bundle id, a foreign root", () => {
  const [header, payload, signature] = jws.split(".");
  const i = Math.floor(signature.length / 3);
  const flipped = signature.slice(0, i) + (signature[i] === "A" ? "B" : "A") + signature.slice(i + 1);
  refused(sigil.verify({ ...real, data: [header, payload, flipped].join(".") }), "appstore.VERIFICATION_FAILURE");
  const other = sigil.verify({ kind: "transaction", data: jws, environments: ["Sandbox"], bundleId: "com.example.other" });
  assert.equal(other.valid, false);
  stillServes();
});

test("values that are not JSON documents are the caller's error (TypeError), and the module still serves", () => {
  assert.throws(() => sigil.verify(undefined), TypeError);
  assert.throws(() => sigil.verify(() => 1), TypeError);
  assert.throws(() => sigil.verify({ at: 1n }), TypeError);
  stillServes();
});

test("tokens minted in the module verify with Node's own crypto (OpenSSL), and bad keys are typed refusals", () => {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const key = privateKey.export({ type: "pkcs8", format: "pem" });
  const issuedAt = Math.floor(Date.now() / 1000);
  const answer = sigil.mintToken({ token: "app-store-server-api", key, keyId: "ABCDEFGHIJ", issuerId: "57246542-96fe-1a63-e053-0824d011072a", bundleId: "com.example.app" });
  assert.equal(answer.valid, true, JSON.stringify(answer));
  const [header, payload, signature] = answer.token.split(".");
  const protectedHeader = JSON.parse(Buffer.from(header, "base64url"));
  assert.equal(protectedHeader.alg, "ES256");
  assert.equal(protectedHeader.kid, "ABCDEFGHIJ");
  const claims = JSON.parse(Buffer.from(payload, "base64url"));
  assert.equal(claims.aud, "appstoreconnect-v1");
  assert.ok(Math.abs(claims.iat - issuedAt) <= 5, "issued at the host's clock");
  const valid = verifySignature("sha256", Buffer.from(`${header}.${payload}`), { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  assert.ok(valid, "Node's crypto verifies the module's ES256 signature");
  const refusedKey = sigil.mintToken({ token: "app-store-server-api", key: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n", keyId: "ABCDEFGHIJ", issuerId: "x", bundleId: "com.example.app" });
  assert.equal(refusedKey.valid, false);
  assert.ok(!JSON.stringify(refusedKey).includes("BEGIN"), "the key never comes back in an error");
  refused(sigil.mintToken("{}"), "request.missingMember");
  stillServes();
});

test("a trap inside the module is a SigilTrapError, and the next call runs on a fresh instance", async () => {
  const path = process.env.SIGIL_TRAP_WASM;
  assert.ok(path, "SIGIL_TRAP_WASM names trap-module.wasm (Scripts/test-wasm builds it)");
  const module = await WebAssembly.compile(readFileSync(path));
  const stand = new Sigil(module);
  assert.deepEqual(stand.verify("{}"), { valid: true, calls: 1 });
  assert.deepEqual(stand.verify("{}"), { valid: true, calls: 2 });
  assert.throws(() => stand.verify("trap"), (error) => error instanceof SigilTrapError && error.cause instanceof WebAssembly.RuntimeError);
  assert.deepEqual(stand.verify("{}"), { valid: true, calls: 1 }, "a fresh instance: its call count starts again");
  assert.throws(() => stand.verify("recurse"), (error) => error instanceof SigilTrapError);
  assert.deepEqual(stand.verify("{}"), { valid: true, calls: 1 });
});
