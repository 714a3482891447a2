// What the tests of sigil.wasm share: the built module (SIGIL_WASM_DIR, default .build-wasm/sigil)
// and Apple's roots that are not built in, read through Scripts/vectors-dir as every test does.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const repository = join(dirname(fileURLToPath(import.meta.url)), "../..");
export const wasmDirectory = process.env.SIGIL_WASM_DIR ?? join(repository, ".build-wasm/sigil");

export function loadSigil() {
  return import(pathToFileURL(join(wasmDirectory, "sigil.mjs")).href);
}

/** Conformance/cases.json's installedRoots (Apple Inc. Root Certificate, the App Attest root) as
 * base64 of DER. */
export function appleRoots() {
  const { installedRoots } = JSON.parse(readFileSync(join(repository, "Conformance/cases.json"), "utf8"));
  return installedRoots.map((path) => {
    const [dataSet, ...rest] = path.split("/");
    const directory = execFileSync(join(repository, "Scripts/vectors-dir"), [dataSet]).toString().trim();
    const data = readFileSync(join(directory, ...rest));
    const text = data.toString("latin1");
    if (text.startsWith("-----BEGIN")) return text.split("\n").filter((line) => !line.startsWith("-----")).join("");
    return data.toString("base64");
  });
}

/** A real App Store JWS and what it is (the conformance file's first case). */
export function realTransaction() {
  const { cases } = JSON.parse(readFileSync(join(repository, "Conformance/cases.json"), "utf8"));
  const spec = cases[0].files.data;
  const [dataSet, ...rest] = spec.path.split("/");
  const directory = execFileSync(join(repository, "Scripts/vectors-dir"), [dataSet]).toString().trim();
  return readFileSync(join(directory, ...rest), "utf8").trim();
}
