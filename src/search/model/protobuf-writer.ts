// Protocol Buffers wire-format encoding (write side only): varints, tags, length-delimited
// fields and fixed32 floats — just what the ONNX writer needs, no schema compiler.

const WireType = { Varint: 0, LengthDelimited: 2, Fixed32: 5 } as const;
type WireType = (typeof WireType)[keyof typeof WireType];

const utf8 = new TextEncoder();

/** Encodes an unsigned or signed integer as a protobuf varint (negatives take 10 bytes, as int64). */
export function encodeVarint(value: number | bigint): Uint8Array {
  let v = typeof value === "bigint" ? value : BigInt(value);
  if (typeof value === "number" && !Number.isSafeInteger(value)) {
    throw new RangeError(`varint value ${value} is not a safe integer`);
  }
  if (v < 0n) v = BigInt.asUintN(64, v);
  const out: number[] = [];
  while (v > 0x7fn) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Uint8Array.from(out);
}

/** Collects the fields of one message, in the order written; `finish()` returns its bytes. */
export class MessageWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  private push(bytes: Uint8Array): this {
    this.chunks.push(bytes);
    this.length += bytes.length;
    return this;
  }

  private tag(field: number, wire: WireType): this {
    return this.push(encodeVarint((field << 3) | wire));
  }

  int(field: number, value: number | bigint): this {
    return this.tag(field, WireType.Varint).push(encodeVarint(value));
  }

  /** Repeated integers written one tag per element (proto2 unpacked, as ONNX's own writer does). */
  ints(field: number, values: readonly (number | bigint)[]): this {
    for (const v of values) this.int(field, v);
    return this;
  }

  float(field: number, value: number): this {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value, true);
    return this.tag(field, WireType.Fixed32).push(bytes);
  }

  bytes(field: number, value: Uint8Array): this {
    return this.tag(field, WireType.LengthDelimited).push(encodeVarint(value.length)).push(value);
  }

  string(field: number, value: string): this {
    return this.bytes(field, utf8.encode(value));
  }

  /** Writes the string only when it is non-empty (an absent optional field). */
  optionalString(field: number, value: string | undefined): this {
    return value ? this.string(field, value) : this;
  }

  message(field: number, encoded: Uint8Array): this {
    return this.bytes(field, encoded);
  }

  messages<T>(field: number, items: readonly T[], encode: (item: T) => Uint8Array): this {
    for (const item of items) this.message(field, encode(item));
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }
}
