// A minimal ONNX model writer: the ModelProto / GraphProto / NodeProto / AttributeProto /
// TensorProto / ValueInfoProto fields a small inference graph needs (field numbers from onnx.proto).
import { MessageWriter } from "~/search/model/protobuf-writer.ts";

/** TensorProto.DataType values used here. */
export const OnnxDataType = {
  FLOAT: 1,
  UINT8: 2,
  INT8: 3,
  INT32: 6,
  INT64: 7,
} as const;
export type OnnxDataType = (typeof OnnxDataType)[keyof typeof OnnxDataType];

/** AttributeProto.AttributeType values used here. */
const AttributeType = { FLOAT: 1, INT: 2, STRING: 3, FLOATS: 6, INTS: 7 } as const;

export type OnnxAttribute =
  | { name: string; int: number }
  | { name: string; ints: readonly number[] }
  | { name: string; float: number }
  | { name: string; string: string };

export interface OnnxNode {
  opType: string;
  inputs: readonly string[];
  outputs: readonly string[];
  name?: string;
  domain?: string;
  attributes?: readonly OnnxAttribute[];
}

export interface OnnxTensor {
  name: string;
  dataType: OnnxDataType;
  dims: readonly number[];
  /** Little-endian element bytes, as TensorProto.raw_data. */
  rawData: Uint8Array;
}

/** A tensor-typed graph input or output; a string dimension is symbolic (e.g. "batch"). */
export interface OnnxValueInfo {
  name: string;
  elemType: OnnxDataType;
  shape: readonly (number | string)[];
}

export interface OnnxGraph {
  name: string;
  nodes: readonly OnnxNode[];
  initializers: readonly OnnxTensor[];
  inputs: readonly OnnxValueInfo[];
  outputs: readonly OnnxValueInfo[];
  docString?: string;
}

export interface OnnxModel {
  irVersion: number;
  opsetImports: readonly { domain?: string; version: number }[];
  producerName?: string;
  producerVersion?: string;
  docString?: string;
  graph: OnnxGraph;
}

export function encodeAttribute(attr: OnnxAttribute): Uint8Array {
  const w = new MessageWriter().string(1, attr.name);
  if ("int" in attr) w.int(3, attr.int).int(20, AttributeType.INT);
  else if ("ints" in attr) w.ints(8, attr.ints).int(20, AttributeType.INTS);
  else if ("float" in attr) w.float(2, attr.float).int(20, AttributeType.FLOAT);
  else w.string(4, attr.string).int(20, AttributeType.STRING);
  return w.finish();
}

export function encodeNode(node: OnnxNode): Uint8Array {
  const w = new MessageWriter();
  for (const input of node.inputs) w.string(1, input);
  for (const output of node.outputs) w.string(2, output);
  w.optionalString(3, node.name).string(4, node.opType);
  w.messages(5, node.attributes ?? [], encodeAttribute);
  return w.optionalString(7, node.domain).finish();
}

export function encodeTensor(tensor: OnnxTensor): Uint8Array {
  return new MessageWriter()
    .ints(1, tensor.dims)
    .int(2, tensor.dataType)
    .string(8, tensor.name)
    .bytes(9, tensor.rawData)
    .finish();
}

function encodeDimension(dim: number | string): Uint8Array {
  const w = new MessageWriter();
  return (typeof dim === "number" ? w.int(1, dim) : w.string(2, dim)).finish();
}

export function encodeValueInfo(info: OnnxValueInfo): Uint8Array {
  const shape = new MessageWriter().messages(1, info.shape, encodeDimension).finish();
  const tensorType = new MessageWriter().int(1, info.elemType).message(2, shape).finish();
  const type = new MessageWriter().message(1, tensorType).finish();
  return new MessageWriter().string(1, info.name).message(2, type).finish();
}

export function encodeGraph(graph: OnnxGraph): Uint8Array {
  return new MessageWriter()
    .messages(1, graph.nodes, encodeNode)
    .string(2, graph.name)
    .messages(5, graph.initializers, encodeTensor)
    .optionalString(10, graph.docString)
    .messages(11, graph.inputs, encodeValueInfo)
    .messages(12, graph.outputs, encodeValueInfo)
    .finish();
}

export function encodeOpsetImport(opset: { domain?: string; version: number }): Uint8Array {
  return new MessageWriter().optionalString(1, opset.domain).int(2, opset.version).finish();
}

/** Serialises a whole model to the bytes of a `.onnx` file. */
export function encodeModel(model: OnnxModel): Uint8Array {
  return new MessageWriter()
    .int(1, model.irVersion)
    .optionalString(2, model.producerName)
    .optionalString(3, model.producerVersion)
    .optionalString(6, model.docString)
    .message(7, encodeGraph(model.graph))
    .messages(8, model.opsetImports, encodeOpsetImport)
    .finish();
}

/** Little-endian bytes of a typed array (the host is little-endian on every platform Bun runs on). */
export function rawBytes(data: Float32Array | Int8Array | Uint8Array | BigInt64Array | Int32Array): Uint8Array {
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
