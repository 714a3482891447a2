// Types for sigil.mjs: Sigil's verifiers over sigil.wasm. The documents are those of Sigil's C ABI,
// Python package and HTTP service (Conformance/verification-request.schema.json); members this file
// does not list may appear in later versions and must be ignored.

/** What `verify` takes: the request document as a value, its JSON text, or its UTF-8 bytes. */
export type RequestDocument = VerificationRequest | string | Uint8Array | ArrayBuffer | ArrayBufferView;

export type Kind =
  | "auto"
  | "transaction"
  | "renewal-info"
  | "notification"
  | "app-transaction"
  | "realtime-request"
  | "receipt"
  | "attestation"
  | "assertion"
  /** Always refused by sigil.wasm with service.notConfigured: it holds no merchant keys. */
  | "applepay";

export interface VerificationRequest {
  kind?: Kind;
  /** The JWS, or base64 of the receipt or CBOR object. */
  data: string;
  bundleId?: string;
  /** App Store data and receipts: "Production", "Sandbox" or "Xcode"; attestations: "production" or "development". */
  environments?: string[];
  appAppleId?: number;
  /** Trust configuration: base64 DER roots the data must chain to (reported as trust "request-roots"). */
  roots?: string[];
  /** The validation time, seconds since 1970 (default: the payload's signedDate, the receipt's
   * creation date, the clock's now for an attestation). */
  at?: number;
  reportOnly?: boolean;
  teamId?: string;
  clientData?: string;
  clientDataHash?: string;
  keyId?: string;
  publicKey?: string;
  counter?: number;
  unpinnedTestRoot?: boolean;
  [member: string]: unknown;
}

export interface TokenRequest {
  token: "app-store-server-api" | "external-purchase-server-api" | "device-check" | "sign-in-with-apple";
  /** The App Store Connect private key, .p8 PEM text. */
  key: string;
  keyId: string;
  issuerId?: string;
  bundleId?: string;
  teamId?: string;
  clientId?: string;
  issuedAt?: number;
  lifetime?: number;
  [member: string]: unknown;
}

export interface Failure {
  reason: string;
  rule: string;
}

/** A refusal: `code` is stable ("request.…" for a malformed request, else the verifier's
 * "appstore.VERIFICATION_FAILURE", "pkcs7.…", "appattest.…", "tokens.…"). */
export interface FailureAnswer {
  valid: false;
  error: { code: string; message: string; failures: Failure[] };
}

export interface VerifiedAnswer {
  valid: true;
  kind: string;
  environment?: string;
  /** The anchor the data chained to: "apple", "request-roots", "xcode", "unpinned-test-root", "attested-key". */
  trust?: string;
  payload?: Record<string, unknown>;
  receipt?: Record<string, unknown>;
  attestation?: Record<string, unknown>;
  assertion?: Record<string, unknown>;
  /** Each check the request relaxed ("appleRoot", "at", …). */
  notEnforced?: string[];
  [member: string]: unknown;
}

export interface TokenAnswer {
  valid: true;
  kind: string;
  token: string;
}

export type Answer = VerifiedAnswer | FailureAnswer;

export interface SigilOptions {
  /** Apple's roots that are not built in (Apple Inc. Root Certificate, Apple App Attestation Root
   * CA), DER bytes or base64 of DER; each used only when its fingerprint is the one Sigil pins. */
  appleRoots?: Array<Uint8Array | ArrayBuffer | string>;
  /** How long a validated App Store chain is kept, 0…86400 seconds (default 900, 0: no cache). */
  chainCacheSeconds?: number;
  /** Now, in seconds since 1970 (default: the host's clock). */
  clock?: () => number;
  /** The Web Crypto object for random bytes (default: globalThis.crypto). */
  crypto?: { getRandomValues<T extends ArrayBufferView | null>(array: T): T };
}

/** The module trapped during a call: no answer was given, and the next call runs on a fresh instance. */
export class SigilTrapError extends Error {
  readonly name: "SigilTrapError";
}

export class Sigil {
  /** Compiles sigil.wasm (default: the file beside sigil.mjs) and starts it. */
  static instantiate(
    source?: WebAssembly.Module | BufferSource | Response | URL | string,
    options?: SigilOptions,
  ): Promise<Sigil>;
  constructor(module: WebAssembly.Module, options?: SigilOptions);
  /** The answer document for a verification request; refusals are answers, not exceptions. */
  verify(request: RequestDocument): Answer;
  /** The answer document for a token request. */
  mintToken(request: TokenRequest | string | Uint8Array): TokenAnswer | FailureAnswer;
  /** Sigil's version, as sigil_version() of the C ABI gives it. */
  readonly version: string;
  /** The module's memory in bytes. */
  readonly memoryBytes: number;
}

/** `verify` on one shared instance (sigil.wasm beside sigil.mjs, built-in roots only). */
export function verify(request: RequestDocument): Promise<Answer>;
/** `mintToken` on the shared instance. */
export function mintToken(request: TokenRequest | string | Uint8Array): Promise<TokenAnswer | FailureAnswer>;
