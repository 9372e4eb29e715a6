// Ad-hoc code signatures of the macOS binaries, checked and written without a Mac. Bun 1.4.5 re-signs
// a darwin-arm64 binary after appending the program, but a darwin-x64 one keeps the signature of Bun's
// own runtime, which no longer matches the file; macOS kills a binary whose pages fail their hashes.
// The layout is Apple's (the one Go's linker and Bun write): a SuperBlob holding one CodeDirectory
// (version 0x20400, flags adhoc | linker-signed) with a SHA-256 hash of each 4 KiB page of the file
// up to the signature. Not a Developer ID signature: Gatekeeper still asks about a downloaded binary.

const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
const LC_CODE_SIGNATURE = 0x1d;
const SUPERBLOB = 0xfade0cc0;
const CODEDIRECTORY = 0xfade0c02;
const PAGE = 4096;
const HASH = 32;
/** CodeDirectory v0x20400 header: up to and including the executable-segment fields. */
const CD_HEADER = 88;

interface Layout {
  /** Offsets of the load commands we change. */
  sigCmd: number;
  linkedit: number;
  text: number;
  dataoff: number;
  datasize: number;
  executable: boolean;
}

function layout(f: Buffer): Layout {
  if (f.readUInt32LE(0) !== MH_MAGIC_64) throw new Error("not a 64-bit Mach-O file");
  let at = 32;
  const found: Partial<Layout> = { executable: f.readUInt32LE(12) === 2 };
  for (let i = 0, n = f.readUInt32LE(16); i < n; i++) {
    const cmd = f.readUInt32LE(at);
    if (cmd === LC_CODE_SIGNATURE)
      Object.assign(found, { sigCmd: at, dataoff: f.readUInt32LE(at + 8), datasize: f.readUInt32LE(at + 12) });
    if (cmd === LC_SEGMENT_64) {
      const name = f.toString("latin1", at + 8, at + 24).replace(/\0+$/, "");
      if (name === "__LINKEDIT") found.linkedit = at;
      if (name === "__TEXT") found.text = at;
    }
    at += f.readUInt32LE(at + 4);
  }
  if (found.sigCmd === undefined || found.linkedit === undefined || found.text === undefined)
    throw new Error("no LC_CODE_SIGNATURE, __LINKEDIT or __TEXT");
  return found as Layout;
}

const pageHash = (f: Buffer, slot: number, limit: number) =>
  Buffer.from(
    new Bun.CryptoHasher("sha256").update(f.subarray(slot * PAGE, Math.min((slot + 1) * PAGE, limit))).digest(),
  );

/** Why the file's signature would not pass macOS' checks, or null when every page matches its hash. */
export function signatureProblem(f: Buffer): string | null {
  const l = layout(f);
  if (l.dataoff + l.datasize !== f.length) return `${f.length - l.dataoff - l.datasize} bytes after the signature`;
  if (f.readUInt32BE(l.dataoff) !== SUPERBLOB) return "no SuperBlob at the signature offset";
  for (let i = 0, n = f.readUInt32BE(l.dataoff + 8); i < n; i++) {
    const cd = l.dataoff + f.readUInt32BE(l.dataoff + 16 + i * 8);
    if (f.readUInt32BE(cd) !== CODEDIRECTORY) continue;
    const hashOffset = f.readUInt32BE(cd + 16);
    const slots = f.readUInt32BE(cd + 28);
    const limit = f.readUInt32BE(cd + 32);
    if (f[cd + 36] !== HASH || f[cd + 37] !== 2 || f[cd + 39] !== 12) return "not SHA-256 over 4 KiB pages";
    if (limit !== l.dataoff) return `the hashes cover ${limit} of the ${l.dataoff} bytes before the signature`;
    for (let s = 0; s < slots; s++)
      if (!pageHash(f, s, limit).equals(f.subarray(cd + hashOffset + s * HASH, cd + hashOffset + (s + 1) * HASH)))
        return `page ${s} does not match its hash`;
    return null;
  }
  return "no CodeDirectory";
}

/** The file with a fresh ad-hoc signature in place of its own; __LINKEDIT grows when the signature does. */
export function adhocSign(input: Buffer, identifier: string): Buffer {
  const l = layout(input);
  const ident = Buffer.from(`${identifier}\0`, "latin1");
  const slots = Math.ceil(l.dataoff / PAGE);
  const cdSize = CD_HEADER + ident.length + slots * HASH;
  const sigSize = 12 + 8 + cdSize;
  const out = Buffer.alloc(l.dataoff + sigSize);
  input.copy(out, 0, 0, l.dataoff);
  // The load commands are in page 0, which is hashed: they are updated first.
  out.writeUInt32LE(sigSize, l.sigCmd + 12);
  const linkeditOff = Number(out.readBigUInt64LE(l.linkedit + 40));
  const linkeditSize = BigInt(l.dataoff + sigSize - linkeditOff);
  out.writeBigUInt64LE(linkeditSize, l.linkedit + 48);
  const vmsize = ((linkeditSize + BigInt(PAGE) - 1n) / BigInt(PAGE)) * BigInt(PAGE);
  if (vmsize > out.readBigUInt64LE(l.linkedit + 32)) out.writeBigUInt64LE(vmsize, l.linkedit + 32);

  let at = l.dataoff;
  for (const v of [SUPERBLOB, sigSize, 1, 0 /* CSSLOT_CODEDIRECTORY */, 20]) at = out.writeUInt32BE(v, at);
  const cd = at;
  for (const v of [CODEDIRECTORY, cdSize, 0x20400, 0x20002, CD_HEADER + ident.length, CD_HEADER, 0, slots, l.dataoff])
    at = out.writeUInt32BE(v, at);
  at = out.writeUInt8(HASH, at);
  at = out.writeUInt8(2, at); // SHA-256
  at = out.writeUInt8(0, at); // platform
  at = out.writeUInt8(12, at); // log2 of the page size
  at += 4 + 4 + 4 + 4 + 8; // spare2, scatterOffset, teamOffset, spare3, codeLimit64: zero
  at = out.writeBigUInt64BE(out.readBigUInt64LE(l.text + 40), at); // execSegBase: __TEXT's file offset
  at = out.writeBigUInt64BE(out.readBigUInt64LE(l.text + 48), at); // execSegLimit: its size
  at = out.writeBigUInt64BE(l.executable ? 1n : 0n, at); // CS_EXECSEG_MAIN_BINARY
  if (at !== cd + CD_HEADER) throw new Error("CodeDirectory header size");
  at += ident.copy(out, at);
  for (let s = 0; s < slots; s++) at += pageHash(out, s, l.dataoff).copy(out, at);
  return out;
}
