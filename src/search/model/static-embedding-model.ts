// Writes a static-embedding model as a transformers.js model folder: a BERT-typed config with
// no layers, a WordPiece tokenizer and an ONNX graph that looks each token up in an int8 table.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeModel, OnnxDataType, rawBytes, type OnnxModel } from "~/search/model/onnx-writer.ts";
import { MODEL_MAX_LENGTH, tokenizerConfigJson, tokenizerJson } from "~/search/model/wordpiece-tokenizer-json.ts";

export interface StaticEmbeddingTable {
  /** Every token in id order, special tokens included (see `wordpieceVocab`). */
  vocab: readonly string[];
  dimensions: number;
  /** vocab.length × dimensions, row-major. */
  rows: Int8Array;
  /** One float per row: the row's value is rows[i] × scales[i]. */
  scales: Float32Array;
}

export interface StaticModelFiles {
  "config.json": string;
  "tokenizer.json": string;
  "tokenizer_config.json": string;
  "onnx/model.onnx": Uint8Array;
}

/**
 * The graph: last_hidden_state = Cast<float>(Gather(rows, input_ids)) × Gather(scales, input_ids).
 * Scales are stored as [V, 1] so their gather broadcasts without an Unsqueeze. The only input is
 * input_ids: transformers.js picks the feeds by the session's input names, so the
 * attention_mask / token_type_ids its tokenizer also produces are simply not passed.
 */
export function staticEmbeddingOnnx(table: StaticEmbeddingTable, producerVersion: string): OnnxModel {
  const { vocab, dimensions } = table;
  if (table.rows.length !== vocab.length * dimensions) throw new Error("rows do not match vocab × dimensions");
  if (table.scales.length !== vocab.length) throw new Error("scales do not match the vocabulary size");
  return {
    irVersion: 8,
    opsetImports: [{ version: 13 }],
    producerName: "engram",
    producerVersion,
    graph: {
      name: "static_embedding",
      docString: "int8 token embedding table with per-row scale",
      nodes: [
        {
          opType: "Gather",
          name: "gather_rows",
          inputs: ["embeddings", "input_ids"],
          outputs: ["rows_int8"],
          attributes: [{ name: "axis", int: 0 }],
        },
        {
          opType: "Cast",
          name: "cast_rows",
          inputs: ["rows_int8"],
          outputs: ["rows_float"],
          attributes: [{ name: "to", int: OnnxDataType.FLOAT }],
        },
        {
          opType: "Gather",
          name: "gather_scales",
          inputs: ["scales", "input_ids"],
          outputs: ["row_scales"],
          attributes: [{ name: "axis", int: 0 }],
        },
        { opType: "Mul", name: "scale_rows", inputs: ["rows_float", "row_scales"], outputs: ["last_hidden_state"] },
      ],
      initializers: [
        {
          name: "embeddings",
          dataType: OnnxDataType.INT8,
          dims: [vocab.length, dimensions],
          rawData: rawBytes(table.rows),
        },
        { name: "scales", dataType: OnnxDataType.FLOAT, dims: [vocab.length, 1], rawData: rawBytes(table.scales) },
      ],
      inputs: [{ name: "input_ids", elemType: OnnxDataType.INT64, shape: ["batch_size", "sequence_length"] }],
      outputs: [
        {
          name: "last_hidden_state",
          elemType: OnnxDataType.FLOAT,
          shape: ["batch_size", "sequence_length", dimensions],
        },
      ],
    },
  };
}

export function staticModelConfig(table: StaticEmbeddingTable): Record<string, unknown> {
  return {
    architectures: ["BertModel"],
    model_type: "bert",
    hidden_size: table.dimensions,
    num_hidden_layers: 0,
    num_attention_heads: 1,
    intermediate_size: table.dimensions,
    max_position_embeddings: MODEL_MAX_LENGTH,
    type_vocab_size: 1,
    vocab_size: table.vocab.length,
    pad_token_id: 0,
    "transformers.js_config": { dtype: "fp32" },
  };
}

export function staticModelFiles(table: StaticEmbeddingTable, producerVersion: string): StaticModelFiles {
  const json = (value: unknown) => JSON.stringify(value, null, 2) + "\n";
  return {
    "config.json": json(staticModelConfig(table)),
    // tokenizer.json is compact: its 75k-entry vocabulary would double in size when indented.
    "tokenizer.json": JSON.stringify(tokenizerJson(table.vocab)),
    "tokenizer_config.json": json(tokenizerConfigJson()),
    "onnx/model.onnx": encodeModel(staticEmbeddingOnnx(table, producerVersion)),
  };
}

export function writeStaticModel(dir: string, files: StaticModelFiles): void {
  mkdirSync(join(dir, "onnx"), { recursive: true });
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content);
}
