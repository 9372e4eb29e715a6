import { describe, expect, test } from "bun:test";
import {
  encodeAttribute,
  encodeModel,
  encodeNode,
  encodeOpsetImport,
  encodeTensor,
  encodeValueInfo,
  OnnxDataType,
} from "~/search/model/onnx-writer.ts";
import { encodeVarint, MessageWriter } from "~/search/model/protobuf-writer.ts";

const bytes = (...values: (number | string)[]): number[] =>
  values.flatMap((v) => (typeof v === "string" ? [...new TextEncoder().encode(v)] : [v]));

describe("protobuf writer", () => {
  test("varints encode 7 bits per byte, low bits first", () => {
    expect([...encodeVarint(0)]).toEqual([0x00]);
    expect([...encodeVarint(1)]).toEqual([0x01]);
    expect([...encodeVarint(127)]).toEqual([0x7f]);
    expect([...encodeVarint(128)]).toEqual([0x80, 0x01]);
    expect([...encodeVarint(300)]).toEqual([0xac, 0x02]);
    expect([...encodeVarint(150005)]).toEqual([0xf5, 0x93, 0x09]);
  });

  test("a negative varint takes ten bytes like a two's-complement int64", () => {
    expect([...encodeVarint(-1)]).toEqual([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01]);
    expect([...encodeVarint(-1n)]).toEqual([...encodeVarint(-1)]);
  });

  test("an unsafe integer is refused rather than silently rounded", () => {
    expect(() => encodeVarint(2 ** 53)).toThrow(RangeError);
  });

  test("fields are tagged with field number and wire type", () => {
    const encoded = new MessageWriter().int(1, 150).string(2, "hi").float(3, 1.5).ints(4, [1, 2]).finish();
    expect([...encoded]).toEqual([
      0x08,
      0x96,
      0x01,
      0x12,
      0x02,
      ...bytes("hi"),
      0x1d,
      0x00,
      0x00,
      0xc0,
      0x3f,
      0x20,
      0x01,
      0x20,
      0x02,
    ]);
  });

  test("an empty optional string is left out", () => {
    expect([...new MessageWriter().optionalString(1, "").optionalString(2, undefined).finish()]).toEqual([]);
  });
});

describe("ONNX writer", () => {
  test("an opset import without a domain is just its version", () => {
    expect([...encodeOpsetImport({ version: 13 })]).toEqual([0x10, 0x0d]);
    expect([...encodeOpsetImport({ domain: "ai.onnx", version: 1 })]).toEqual([
      0x0a,
      0x07,
      ...bytes("ai.onnx"),
      0x10,
      0x01,
    ]);
  });

  test("an INT attribute carries its value in field 3 and type 2 in field 20", () => {
    expect([...encodeAttribute({ name: "axis", int: 0 })]).toEqual([
      0x0a,
      0x04,
      ...bytes("axis"),
      0x18,
      0x00,
      0xa0,
      0x01,
      0x02,
    ]);
  });

  test("FLOAT, INTS and STRING attributes use fields 2, 8 and 4", () => {
    expect([...encodeAttribute({ name: "alpha", float: 1 })]).toEqual([
      0x0a,
      0x05,
      ...bytes("alpha"),
      0x15,
      0x00,
      0x00,
      0x80,
      0x3f,
      0xa0,
      0x01,
      0x01,
    ]);
    expect([...encodeAttribute({ name: "axes", ints: [-1] })]).toEqual([
      0x0a,
      0x04,
      ...bytes("axes"),
      0x40,
      ...encodeVarint(-1),
      0xa0,
      0x01,
      0x07,
    ]);
    expect([...encodeAttribute({ name: "mode", string: "x" })]).toEqual([
      0x0a,
      0x04,
      ...bytes("mode"),
      0x22,
      0x01,
      ...bytes("x"),
      0xa0,
      0x01,
      0x03,
    ]);
  });

  test("a node lists inputs, outputs, name, op type and attributes in field order", () => {
    expect([...encodeNode({ opType: "Mul", inputs: ["a", "b"], outputs: ["c"] })]).toEqual([
      0x0a,
      0x01,
      ...bytes("a"),
      0x0a,
      0x01,
      ...bytes("b"),
      0x12,
      0x01,
      ...bytes("c"),
      0x22,
      0x03,
      ...bytes("Mul"),
    ]);
    expect([
      ...encodeNode({ opType: "Cast", name: "n", inputs: ["x"], outputs: ["y"], attributes: [{ name: "to", int: 1 }] }),
    ]).toEqual([
      0x0a,
      0x01,
      ...bytes("x"),
      0x12,
      0x01,
      ...bytes("y"),
      0x1a,
      0x01,
      ...bytes("n"),
      0x22,
      0x04,
      ...bytes("Cast"),
      0x2a,
      0x09,
      0x0a,
      0x02,
      ...bytes("to"),
      0x18,
      0x01,
      0xa0,
      0x01,
      0x02,
    ]);
  });

  test("a tensor has unpacked dims, its data type, name and raw little-endian data", () => {
    const tensor = { name: "t", dataType: OnnxDataType.INT8, dims: [2, 1], rawData: Uint8Array.of(1, 255) };
    expect([...encodeTensor(tensor)]).toEqual([
      0x08,
      0x02,
      0x08,
      0x01,
      0x10,
      0x03,
      0x42,
      0x01,
      ...bytes("t"),
      0x4a,
      0x02,
      0x01,
      0xff,
    ]);
  });

  test("a value info nests type, tensor type, shape and symbolic or fixed dimensions", () => {
    const info = { name: "x", elemType: OnnxDataType.INT64, shape: ["n", 3] };
    const shape = [0x0a, 0x03, 0x12, 0x01, ...bytes("n"), 0x0a, 0x02, 0x08, 0x03];
    const tensorType = [0x08, 0x07, 0x12, shape.length, ...shape];
    const type = [0x0a, tensorType.length, ...tensorType];
    expect([...encodeValueInfo(info)]).toEqual([0x0a, 0x01, ...bytes("x"), 0x12, type.length, ...type]);
  });

  test("a model starts with its IR version and ends with its opset imports", () => {
    const model = encodeModel({
      irVersion: 8,
      opsetImports: [{ version: 13 }],
      producerName: "p",
      graph: { name: "g", nodes: [], initializers: [], inputs: [], outputs: [] },
    });
    expect([...model]).toEqual([
      0x08,
      0x08,
      0x12,
      0x01,
      ...bytes("p"),
      0x3a,
      0x03,
      0x12,
      0x01,
      ...bytes("g"),
      0x42,
      0x02,
      0x10,
      0x0d,
    ]);
  });
});
