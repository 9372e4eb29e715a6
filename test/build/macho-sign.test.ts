// The ad-hoc signer of the macOS binaries (scripts/macho-sign.ts), checked against Bun's own signer
// on real compiled binaries: macOS cannot run here, so the signature's bytes are the evidence.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { adhocSign, signatureProblem } from "../../scripts/macho-sign";

const dir = mkdtempSync(join(tmpdir(), "engram-macho-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A two-line program compiled for a macOS target (Bun fetches that runtime from npm once). */
async function compiled(target: "bun-darwin-arm64" | "bun-darwin-x64"): Promise<Buffer> {
  const entry = join(dir, "hello.ts");
  writeFileSync(entry, 'console.log("hello");\n');
  const outfile = join(dir, target);
  const r = await Bun.build({ entrypoints: [entry], compile: { outfile, target } });
  if (!r.success) throw new Error(`compiling for ${target} failed: ${r.logs.join("\n")}`);
  return readFileSync(outfile);
}

describe("macOS ad-hoc signatures", () => {
  test("signing a darwin-arm64 binary writes the very bytes Bun's own signer wrote", async () => {
    const bun = await compiled("bun-darwin-arm64");
    expect(signatureProblem(bun)).toBeNull();
    expect(adhocSign(bun, "a.out").equals(bun)).toBe(true);
  }, 60_000);

  test("a darwin-x64 binary's stale signature is found, and after signing every page matches its hash", async () => {
    const bun = await compiled("bun-darwin-x64");
    // Bun keeps its runtime's signature: page 0 (the load commands it changed) no longer matches, and with a
    // larger program the hashes stop short of the program's bytes.
    expect(signatureProblem(bun)).toMatch(
      /^(page 0 does not match its hash|the hashes cover \d+ of the \d+ bytes before the signature)$/,
    );
    const signed = adhocSign(bun, "engram");
    expect(signatureProblem(signed)).toBeNull();
    // Only the load commands (page 0) and the signature change: the program's bytes stay as they were.
    expect(signed.subarray(4096, 1 << 20).equals(bun.subarray(4096, 1 << 20))).toBe(true);
    const tampered = Buffer.from(signed);
    tampered[5000]! ^= 1;
    expect(signatureProblem(tampered)).toBe("page 1 does not match its hash");
  }, 60_000);

  test("a file that is not a 64-bit Mach-O is refused", () => {
    expect(() => signatureProblem(Buffer.from("\x7fELF...."))).toThrow("not a 64-bit Mach-O file");
  });
});
