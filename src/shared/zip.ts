// Reads the files of a zip archive held in memory: stored and deflated entries, as Python's zipfile
// writes them (OpenMemory's export). No zip64, encryption or multi-disk archives: those are refused
// with a message, and so is anything damaged (never a RangeError out of a DataView).
import { inflateRawSync } from "node:zlib";

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
/** An entry larger than this is refused rather than inflated (an export of memories is far smaller). */
export const MAX_ENTRY_BYTES = 512 * 1024 * 1024;

export class ZipError extends Error {}

export const isZip = (bytes: Uint8Array) =>
  bytes.length >= 4 && new DataView(bytes.buffer, bytes.byteOffset).getUint32(0, true) === LOCAL;

/** Every file of the archive by its path; directories are left out. */
export function readZip(bytes: Uint8Array): Map<string, Uint8Array> {
  try {
    return readEntries(bytes);
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError(`damaged zip archive (${(e as Error).message})`);
  }
}

function readEntries(bytes: Uint8Array): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = findEnd(view);
  const count = view.getUint16(eocd + 10, true);
  let p = view.getUint32(eocd + 16, true);
  if (p === 0xffffffff || count === 0xffff) throw new ZipError("zip64 archives are not supported");
  const files = new Map<string, Uint8Array>();
  for (let n = 0; n < count; n++) {
    if (view.getUint32(p, true) !== CENTRAL) throw new ZipError("damaged zip archive (central directory)");
    const flags = view.getUint16(p + 8, true);
    const method = view.getUint16(p + 10, true);
    const packed = view.getUint32(p + 20, true);
    const size = view.getUint32(p + 24, true);
    const nameLength = view.getUint16(p + 28, true);
    const local = view.getUint32(p + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(p + 46, p + 46 + nameLength));
    p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    if (name.endsWith("/")) continue;
    if (flags & 1) throw new ZipError(`${name}: encrypted zip entries are not supported`);
    if (size > MAX_ENTRY_BYTES || packed === 0xffffffff) throw new ZipError(`${name}: too large`);
    files.set(name, entryData(bytes, view, local, { name, method, packed, size }));
  }
  return files;
}

function findEnd(view: DataView): number {
  // The end record is the last 22 bytes, unless the archive has a comment (at most 65,535 bytes).
  for (let i = view.byteLength - 22; i >= Math.max(0, view.byteLength - 22 - 65_535); i--)
    if (view.getUint32(i, true) === EOCD) return i;
  throw new ZipError("not a zip archive (no end of central directory)");
}

function entryData(
  bytes: Uint8Array,
  view: DataView,
  local: number,
  e: { name: string; method: number; packed: number; size: number },
): Uint8Array {
  if (view.getUint32(local, true) !== LOCAL) throw new ZipError(`${e.name}: damaged local header`);
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + e.packed > bytes.length) throw new ZipError(`${e.name}: truncated`);
  const packed = bytes.subarray(start, start + e.packed);
  const data =
    e.method === 0
      ? packed
      : e.method === 8
        ? new Uint8Array(inflateRawSync(packed, { maxOutputLength: Math.max(e.size, 1) }))
        : null;
  if (!data) throw new ZipError(`${e.name}: compression method ${e.method} is not supported (only stored and deflate)`);
  if (data.length !== e.size) throw new ZipError(`${e.name}: size does not match the directory`);
  return data;
}
