// Sigil's verifiers wherever JavaScript runs (Node, Deno, Bun, Cloudflare Workers, browsers): an ES
// module over sigil.wasm, the verification core built as Embedded Swift for WebAssembly. The module
// imports nothing from its host; this file hands it the time and a hash seed, copies documents in
// and out, and starts it afresh when a call traps.
//
//   import { Sigil } from "./sigil.mjs";
//   const sigil = await Sigil.instantiate();            // sigil.wasm beside this file
//   const answer = sigil.verify({ kind: "transaction", data: jws, bundleId: "com.example.app" });
//   if (answer.valid) console.log(answer.payload.transactionId);
//
// verify(request) and mintToken(request) take and return the documents of Sigil's C ABI, Python
// package and HTTP service (Conformance/verification-request.schema.json): a refusal is an answer
// {"valid": false, "error": {"code", "message", "failures"}}, never an exception. An exception means
// the call could not be made: a request that is neither a string, bytes nor a JSON-serializable
// value (TypeError), or a trap inside the module (SigilTrapError; the module is started afresh).

/** The module trapped during a call (a bug in Sigil, or memory exhausted): no answer was given.
 * The instance that trapped is dropped and the next call runs on a fresh one. */
export class SigilTrapError extends Error {
  constructor(operation, cause) {
    super(`sigil.wasm trapped during ${operation}; the module was started afresh`, { cause });
    this.name = "SigilTrapError";
  }
}

const encoder = new TextEncoder();
const decoder = new TextDecoder("utf-8", { fatal: true });

/** The UTF-8 bytes of `text`; a lone surrogate is written as its generalized UTF-8 (WTF-8) bytes,
 * which are not UTF-8, so that the module refuses the request (request.invalidJSON) instead of
 * reading U+FFFD where the caller wrote something else. */
function utf8(text) {
  if (typeof text.isWellFormed !== "function" ? !/[\uD800-\uDFFF]/.test(text) : text.isWellFormed()) {
    return encoder.encode(text);
  }
  const bytes = [];
  for (let i = 0; i < text.length; i++) {
    let code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      }
    }
    if (code < 0x80) bytes.push(code);
    else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 0x3f));
    else if (code < 0x10000) bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
    else bytes.push(0xf0 | (code >> 18), 0x80 | ((code >> 12) & 0x3f), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f));
  }
  return Uint8Array.from(bytes);
}

/** The request's bytes and whether this file made them (and so wipes them): a string as its UTF-8,
 * bytes as they are, anything else as its JSON. A string longer than `limit` + 1 code units is cut
 * there before it is encoded (each unit is at least one byte: the module still answers
 * request.tooLarge, and a huge string costs no more than the limit). A member whose value JSON
 * would drop (undefined, a function, a symbol) is the caller's error: a `bundleId: undefined` must
 * not become a request without a bundle id. */
function requestBytes(request, limit) {
  if (typeof request === "string") return { bytes: utf8(request.length > limit + 1 ? request.slice(0, limit + 1) : request), ours: true };
  if (request instanceof Uint8Array) return { bytes: request, ours: false };
  if (request instanceof ArrayBuffer) return { bytes: new Uint8Array(request), ours: false };
  if (ArrayBuffer.isView(request)) return { bytes: new Uint8Array(request.buffer, request.byteOffset, request.byteLength), ours: false };
  if (request !== null && typeof request === "object" && !Array.isArray(request)) {
    for (const [name, value] of Object.entries(request)) {
      if (value === undefined || typeof value === "function" || typeof value === "symbol") {
        throw new TypeError(`request member ${JSON.stringify(name)} is ${typeof value}: give a value or leave the member out`);
      }
    }
  }
  const text = JSON.stringify(request);
  if (typeof text !== "string") throw new TypeError("a request is a JSON document: a string, bytes or a JSON-serializable value");
  return { bytes: utf8(text), ours: true };
}

function base64(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

/** A compiled WebAssembly.Module from whatever the host has: a Module (Cloudflare Workers'
 * `import wasm from "./sigil.wasm"`), bytes, a Response, or a URL (fetched; a file: URL is read
 * with node:fs where there is no fetch for it). */
async function compile(source) {
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (typeof Response !== "undefined" && source instanceof Response) {
    return WebAssembly.compileStreaming ? WebAssembly.compileStreaming(source) : WebAssembly.compile(await source.arrayBuffer());
  }
  const url = source instanceof URL ? source : new URL(String(source), import.meta.url);
  if (url.protocol === "file:") {
    const { readFile } = await import("node:fs/promises");
    return WebAssembly.compile(await readFile(url));
  }
  return compile(await fetch(url));
}

/** The host's Web Crypto: every runtime this module is for has it as a global (Node 18 as
 * node:crypto's webcrypto). The module's only random bytes come from it. */
async function webCrypto() {
  if (globalThis.crypto && typeof globalThis.crypto.getRandomValues === "function") return globalThis.crypto;
  try {
    const { webcrypto } = await import("node:crypto");
    if (webcrypto && typeof webcrypto.getRandomValues === "function") return webcrypto;
  } catch {
    // not Node: fall through
  }
  throw new Error("sigil.mjs needs crypto.getRandomValues (Web Crypto) for the module's hash seed and token nonces");
}

export class Sigil {
  #module;
  #exports;
  #configuration;
  #clock;
  #random;
  #limits;

  /**
   * Compiles sigil.wasm (by default the file beside this module) and starts it.
   * @param source a WebAssembly.Module, the module's bytes, a Response, or its URL
   * @param options.appleRoots Apple's roots that are not built in — Apple Inc. Root Certificate
   *   (receipts) and the Apple App Attestation Root CA — as DER bytes or base64 of DER; each is used
   *   only when its SHA-256 fingerprint is the one Sigil pins for its job. Apple Root CA - G3
   *   (App Store data) is built in.
   * @param options.chainCacheSeconds how long a validated App Store certificate chain is kept
   *   (0…86400, default 900, 0: no cache), as the C ABI's SIGIL_CHAIN_CACHE_SECONDS
   * @param options.clock now, in seconds since 1970 (default: the host's clock); the time a
   *   request without "at" is verified at, and what a request's "at" is compared with.
   */
  static async instantiate(source = new URL("./sigil.wasm", import.meta.url), options = {}) {
    const [module, crypto] = await Promise.all([compile(source), webCrypto()]);
    return new Sigil(module, { ...options, crypto });
  }

  /** A started module from a compiled one (Sigil.instantiate compiles and finds Web Crypto). */
  constructor(module, { appleRoots = [], chainCacheSeconds, clock = () => Math.floor(Date.now() / 1000), crypto = globalThis.crypto } = {}) {
    if (!(module instanceof WebAssembly.Module)) throw new TypeError("new Sigil(module): a compiled WebAssembly.Module (or use Sigil.instantiate)");
    if (!Array.isArray(appleRoots)) throw new TypeError("appleRoots: an array of DER certificates (bytes or base64)");
    this.#module = module;
    this.#clock = clock;
    if (!crypto || typeof crypto.getRandomValues !== "function") throw new TypeError("options.crypto: a Web Crypto object (crypto.getRandomValues)");
    this.#random = crypto;
    const configuration = { appleRoots: appleRoots.map((root) => (typeof root === "string" ? root.replace(/\s+/g, "") : base64(requestBytes(root)))) };
    if (chainCacheSeconds !== undefined) configuration.chainCacheSeconds = chainCacheSeconds;
    this.#configuration = encoder.encode(JSON.stringify(configuration));
    this.#limits = undefined;
    this.#start();
  }

  /** A fresh instance of the module, given the options (options it refuses are the caller's
   * error: TypeError). */
  #start() {
    const exports = new WebAssembly.Instance(this.#module, {}).exports;
    this.#exports = exports;
    let answer;
    try {
      this.#seed();
      answer = JSON.parse(this.#call("configure", this.#configuration, Infinity, (pointer, count) => exports.sigil_configure(pointer, count)));
    } finally {
      // Only a seeded and configured instance serves.
      if (!answer || !answer.valid) this.#exports = undefined;
    }
    if (!answer.valid) throw new TypeError(`Sigil options: ${answer.error.message}`);
    this.#limits = [exports.sigil_request_limit(0), exports.sigil_request_limit(1)];
  }

  /** 64 fresh random bytes for the module, which has no source of its own: given once at the
   * start (the hash seed is drawn from them at the first hash) and before each token (a nonce the
   * caller left to Sigil). The module traps rather than run out. */
  #seed() {
    const exports = this.#exports;
    const random = this.#random.getRandomValues(new Uint8Array(64));
    const seed = exports.sigil_alloc(random.length) >>> 0;
    if (seed === 0) throw new RangeError("sigil.wasm could not allocate 64 bytes");
    new Uint8Array(exports.memory.buffer, seed, random.length).set(random);
    exports.sigil_seed(seed, random.length);
    random.fill(0);
    new Uint8Array(exports.memory.buffer, seed, random.length).fill(0);
    exports.sigil_free(seed);
  }

  /** Copies `bytes` (at most `limit` + 1 of them: a longer request is answered request.tooLarge
   * without being copied whole) into the module, runs `body` on them, reads and frees the answer
   * (its text). The copies inside the
   * module are wiped before they are freed (a token request holds a private key, its answer a
   * credential). A trap (or a stack overflow) leaves the instance in an unknown state: it is
   * dropped, the next call starts a fresh one, and this call throws SigilTrapError. */
  #call(operation, bytes, limit, body) {
    const exports = this.#exports;
    const count = Math.min(bytes.length, limit + 1);
    try {
      const pointer = exports.sigil_alloc(count) >>> 0;
      if (pointer === 0) throw new RangeError(`sigil.wasm could not allocate ${count} bytes`);
      new Uint8Array(exports.memory.buffer, pointer, count).set(count === bytes.length ? bytes : bytes.subarray(0, count));
      const answer = body(pointer, count) >>> 0;
      if (answer === 0) throw new RangeError("sigil.wasm could not allocate its answer");
      new Uint8Array(exports.memory.buffer, pointer, count).fill(0);
      exports.sigil_free(pointer);
      const length = new DataView(exports.memory.buffer).getUint32(answer, true) >>> 0;
      const text = new Uint8Array(exports.memory.buffer, answer + 4, length);
      const document = decoder.decode(text);
      text.fill(0);
      exports.sigil_free(answer);
      return document;
    } catch (error) {
      this.#drop(exports);
      throw new SigilTrapError(operation, error);
    }
  }

  /** Drops an instance that trapped, its memory zeroed first (a request it held may be a .p8 key). */
  #drop(exports) {
    this.#exports = undefined;
    try {
      new Uint8Array(exports.memory.buffer).fill(0);
    } catch {
      // nothing more can be done with a memory that cannot be read
    }
  }

  /** The clock's now as the module takes it (an i64 of seconds). */
  #now() {
    const seconds = Number(this.#clock());
    if (!Number.isFinite(seconds)) throw new RangeError("options.clock must return seconds since 1970 (a finite number)");
    return BigInt(Math.floor(seconds));
  }

  #live() {
    if (!this.#exports) this.#start();
    return this.#exports;
  }

  /**
   * Verifies a request document — {"kind", "data", "bundleId", "environments", "appAppleId",
   * "roots", "at", …}, as a value, its JSON text or its UTF-8 bytes — and returns the answer
   * document: {"valid": true, "kind", "environment", "trust", "payload" | "receipt" |
   * "attestation" | "assertion", "notEnforced"} or {"valid": false, "error": {"code", "message",
   * "failures"}}. Without "at", the verifier's own default time (the payload's signedDate, the
   * receipt's creation date; the clock's now for an attestation); an "at" more than 60 s from the
   * clock's now is listed in notEnforced.
   */
  verify(request) {
    const now = this.#now();
    const exports = this.#live();
    const { bytes } = requestBytes(request, this.#limits[0]);
    return JSON.parse(this.#call("verify", bytes, this.#limits[0], (pointer, count) => exports.sigil_verify(pointer, count, now)));
  }

  /**
   * Mints one of Apple's ES256 tokens: {"token": "app-store-server-api" |
   * "external-purchase-server-api" | "device-check" | "sign-in-with-apple", "key": ".p8 PEM",
   * "keyId", "issuerId", "bundleId", "teamId", "clientId", "issuedAt", "lifetime"} answers
   * {"valid": true, "kind", "token"} or the failure document. The key's copy inside the module is
   * wiped after the call; the caller's string is the caller's.
   */
  mintToken(request) {
    const now = this.#now();
    const exports = this.#live();
    const { bytes, ours } = requestBytes(request, this.#limits[1]);
    try {
      try {
        this.#seed();
      } catch (error) {
        this.#drop(exports);
        throw new SigilTrapError("mintToken", error);
      }
      return JSON.parse(this.#call("mintToken", bytes, this.#limits[1], (pointer, count) => exports.sigil_mint_token(pointer, count, now)));
    } finally {
      if (ours) bytes.fill(0); // this file's copy of the key; the caller's string is the caller's
    }
  }

  /** Sigil's version (the C ABI's sigil_version). */
  get version() {
    const exports = this.#live();
    return this.#call("version", new Uint8Array(0), 0, () => exports.sigil_version());
  }

  /** The module's memory, in bytes (it grows with the largest request and never shrinks; a trap
   * starts a fresh instance with fresh memory). */
  get memoryBytes() {
    return this.#live().memory.buffer.byteLength;
  }
}

let shared;

function sharedInstance() {
  shared ??= Sigil.instantiate().catch((error) => {
    shared = undefined;
    throw error;
  });
  return shared;
}

/** Verifies `request` with one shared instance of sigil.wasm (beside this file), started at the
 * first call, with no Apple roots but the built-in ones. */
export async function verify(request) {
  return (await sharedInstance()).verify(request);
}

/** Mints a token with the shared instance (see `verify`). */
export async function mintToken(request) {
  return (await sharedInstance()).mintToken(request);
}
