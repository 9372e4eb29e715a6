// The portable vector index's storage unit and arithmetic: a chunk holds one user's vectors of one
// session in fixed-size slots (blobs of float32 vectors and float64 rowids and expiries, a JSON list of
// agents), so a search reads a few large blobs instead of a row per vector; and the cosine distance in
// sqlite-vec's exact float32 steps, so both indexes give identical scores.

/** Slots per chunk: about 32 KB of vectors (81 at 100 dimensions, 21 at 384), at least 16, at most 256. */
export const slotsFor = (dims: number): number => Math.max(16, Math.min(256, Math.floor(32768 / (dims * 4))));

export interface ChunkRow {
  chunk_id: number;
  used: number;
  rowids: Uint8Array;
  expires: Uint8Array;
  agents: string;
  /** Each slot's sumOfSquares, computed once when written. */
  mags: Uint8Array;
  vectors: Uint8Array;
}

/** A decoded chunk; a free slot has rowid 0, no agent and a zero vector. */
export interface Chunk {
  id: number;
  used: number;
  rowids: Float64Array;
  expires: Float64Array;
  agents: string[];
  mags: Float32Array;
  vectors: Float32Array;
}

/** SQLite hands each blob over in a buffer of its own; copied when one is not aligned for its type. */
function view<T extends Float32Array | Float64Array>(
  b: Uint8Array,
  make: (buf: ArrayBuffer, at: number, n: number) => T,
  size: number,
): T {
  const n = b.byteLength / size;
  return b.byteOffset % size === 0 ? make(b.buffer as ArrayBuffer, b.byteOffset, n) : make(b.slice().buffer, 0, n);
}

export const decode = (r: ChunkRow, withAgents = true): Chunk => ({
  id: r.chunk_id,
  used: r.used,
  rowids: view(r.rowids, (b, at, n) => new Float64Array(b, at, n), 8),
  expires: view(r.expires, (b, at, n) => new Float64Array(b, at, n), 8),
  agents: withAgents ? (JSON.parse(r.agents) as string[]) : [],
  mags: view(r.mags, (b, at, n) => new Float32Array(b, at, n), 4),
  vectors: view(r.vectors, (b, at, n) => new Float32Array(b, at, n), 4),
});

export const emptyChunk = (slots: number, dims: number): Omit<Chunk, "id"> => ({
  used: 0,
  rowids: new Float64Array(slots),
  expires: new Float64Array(slots),
  agents: new Array<string>(slots).fill(""),
  mags: new Float32Array(slots),
  vectors: new Float32Array(slots * dims),
});

const f32 = Math.fround;

/** The float32 sum of squares sqlite-vec accumulates for a vector. */
export function sumOfSquares(q: Float32Array): number {
  let mag = 0;
  for (let i = 0; i < q.length; i++) mag = f32(mag + f32(q[i]! * q[i]!));
  return mag;
}

/**
 * sqlite-vec's distance_cosine_float: float32 sums of products, then `1 - dot / (sqrt(aMag) * sqrt(bMag))`
 * in double, rounded to float32. The vector is `v[at .. at + q.length)`, its sum of squares `vMag` (kept
 * in the chunk: it halves the work of a search); `qMag` = sumOfSquares(q).
 */
export function cosineDistance(v: Float32Array, at: number, vMag: number, q: Float32Array, qMag: number): number {
  let dot = 0;
  for (let i = 0; i < q.length; i++) dot = f32(dot + f32(v[at + i]! * q[i]!));
  return f32(1 - dot / (Math.sqrt(vMag) * Math.sqrt(qMag)));
}

/** Positions of the `n` smallest distances, nearest first (ties: lower rowid first). */
export function nearest(d: number[], rowids: number[], n: number): number[] {
  const before = (a: number, b: number) => d[a]! < d[b]! || (d[a] === d[b] && rowids[a]! < rowids[b]!);
  if (n >= d.length) return Array.from(d.keys()).sort((a, b) => (before(a, b) ? -1 : 1));
  const top: number[] = [];
  for (let i = 0; i < d.length; i++) {
    if (top.length === n && !before(i, top[n - 1]!)) continue;
    let at = top.length === n ? n - 1 : top.length;
    for (; at > 0 && before(i, top[at - 1]!); at--) top[at] = top[at - 1]!;
    top[at] = i;
  }
  return top;
}
