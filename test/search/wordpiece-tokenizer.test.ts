import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { PreTrainedTokenizer } from "@huggingface/transformers";
import { loadVocabulary, makeText, mulberry32 } from "../../scripts/bench-data.ts";
import { loadLocomo } from "../../scripts/locomo-data.ts";
import { builtinModelDir } from "../support/preload.ts";
import { builtinEmbedder } from "../support/embedders.ts";
import { tokenizerConfigJson, tokenizerJson, wordpieceVocab } from "~/search/model/wordpiece-tokenizer-json.ts";
import { tokenizerFacts, type TransformersEmbedder } from "~/search/transformers-embedder.ts";
import { wordPieceTokenizer, type WordPieceTokenizer } from "~/search/wordpiece-tokenizer.ts";

type Transformers = typeof import("@huggingface/transformers");
type Json = Record<string, any>;

const LOCOMO = resolve(import.meta.dir, "..", "..", "..", "shared", "data", "locomo", "locomo10.json");

const UNICODE_TEXTS = [
  ...["", " ", "\t\n\r ", "  leading and trailing  ", "tab\tseparated\nlines\r\nend"],
  ...["Café naïve résumé", "CAFÉ NAÏVE", "combining e\u0301 vs é", "Å vs Å", "İstanbul ß straße Ǆ ŉ ﬁ"],
  ...[
    "東京は日本の首都です",
    "mixed中文English混合",
    "𠀀𠀁 astral CJK",
    "한국어 텍스트",
    "ｆｕｌｌｗｉｄｔｈ　ｓｐａｃｅ",
  ],
  ...["emoji 😀👍🏽 family 👨‍👩‍👧 flag 🇫🇷", "zero\u200bwidth\u200djoiner\u200cnon", "\ufeffbyte order mark"],
  ...["control\u0000\u0001\u0007\u001f\u007f\u0085chars", "\u000bvertical\ftab", "\u00a0nbsp\u2003em\u3000ideographic"],
  ...["\u2028line\u2029paragraph", "lone \ud800 surrogate \udc00 here", "\ufffd replacement", "private \ue000 use"],
  ...["soft\u00adhyphen", "مرحبا بالعالم", "नमस्ते दुनिया", "สวัสดีชาวโลก", "Ωμέγα Привет мир"],
  "punctuation !\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ ¿¡ «» — – … · 、。「」",
  ...["math ∑∫ ± ² ³ ¹ ¼ ½ Ⅻ", "currency $€£¥", "don't can't won't", "e-mail foo@bar.com http://x.y/z?q=1"],
  ...["3.14 1,000,000", "a".repeat(100), "a".repeat(101), "é".repeat(100), "😀".repeat(101), `long${"x".repeat(400)}`],
  ...[
    "[CLS] literal [SEP] [MASK] [UNK] [PAD]",
    "[cls] lower",
    "x[SEP]y",
    "[SEP",
    "[[CLS]]",
    "[CLS\u200b]",
    "[MAS[MASK]",
  ],
  ...["the playing players unplayable", "UNAFFABLE Replaying", "word ".repeat(9000), "中".repeat(40)],
];

let embedder: TransformersEmbedder;
let transformers: Transformers;

beforeAll(async () => {
  // The embedder's load sets transformers.js up (without sharp) before this test imports it.
  embedder = builtinEmbedder();
  await embedder.ready();
  transformers = await import("@huggingface/transformers");
});

afterAll(() => embedder.close());

const builtinJson = (): Json => JSON.parse(readFileSync(join(builtinModelDir, "tokenizer.json"), "utf8"));
const builtinConfig = (): Json => JSON.parse(readFileSync(join(builtinModelDir, "tokenizer_config.json"), "utf8"));

/** transformers.js's tokenizer for a config, the way AutoTokenizer builds it, and ours from it. */
function pair(json: Json, config: Json): { theirs: PreTrainedTokenizer; ours: WordPieceTokenizer } {
  const cls =
    config.tokenizer_class === "BertTokenizer" ? transformers.BertTokenizer : transformers.PreTrainedTokenizer;
  const theirs = new cls(json, config);
  const ours = wordPieceTokenizer(tokenizerFacts(theirs, transformers));
  if ("reason" in ours) throw new Error(`expected our tokenizer, got: ${ours.reason}`);
  return { theirs, ours };
}

/** Texts in batches of `batch`: the same keys, shapes and int64 values (ids, masks, type ids) as transformers.js. */
function expectSameTensors(tokenizers: ReturnType<typeof pair>, texts: string[], batch: number): void {
  for (let i = 0; i < texts.length; i += batch) {
    const slice = texts.slice(i, i + batch);
    const theirs = tokenizers.theirs(slice, { padding: true, truncation: true }) as Record<string, any>;
    const e = tokenizers.ours.encode(slice);
    const ours: Record<string, BigInt64Array> = { input_ids: e.inputIds, attention_mask: e.attentionMask };
    if (e.tokenTypeIds) ours.token_type_ids = e.tokenTypeIds;
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    for (const key of Object.keys(theirs)) {
      expect([e.rows, e.width]).toEqual(theirs[key].dims);
      const same = Buffer.from(ours[key]!.buffer).equals(Buffer.from((theirs[key].data as BigInt64Array).buffer));
      // Only on a difference: the row-by-row values, so the failure shows which text and where.
      if (!same) expect({ slice, [key]: [...ours[key]!] }).toEqual({ slice, [key]: [...theirs[key].data] });
    }
  }
}

/** The built-in vocabulary plus `##` continuations, so words split into several pieces. */
function subwordJson(normalizer: Json): Json {
  const words = Object.keys(builtinJson().model.vocab).slice(5);
  const pieces = [..."abcdefghijklmnopqrstuvwxyzéñ中😀", "ing", "able", "aff", "s", "ed", "er"].map((p) => `##${p}`);
  const json = tokenizerJson(wordpieceVocab([...new Set([...words, ...pieces])]));
  return { ...json, normalizer: { ...(json.normalizer as Json), ...normalizer } };
}

describe("our WordPiece tokenizer gives transformers.js's tensors", () => {
  test("with the built-in model, on a few thousand bench corpus texts and queries", async () => {
    const vocab = await loadVocabulary();
    const rnd = mulberry32(7);
    const texts = Array.from({ length: 3000 }, (_, i) => makeText(vocab, rnd, i % 3 ? 5 : 2, i % 3 ? 40 : 6));
    const builtin = pair(builtinJson(), builtinConfig());
    expectSameTensors(builtin, texts, 1);
    expectSameTensors(builtin, texts, 64);
  });

  test.skipIf(!existsSync(LOCOMO))(
    `with the built-in model, on every LoCoMo turn and question (${LOCOMO})`,
    async () => {
      const conversations = await loadLocomo(LOCOMO);
      const texts = conversations.flatMap((c) => [
        ...c.turns.map((t) => t.text),
        ...c.questions.map((q) => q.question),
      ]);
      expect(texts.length).toBeGreaterThan(5000);
      expectSameTensors(pair(builtinJson(), builtinConfig()), texts, 32);
    },
  );

  test("with the built-in model, on accents, CJK, emoji, zero-width and control characters, long words and texts", () => {
    const builtin = pair(builtinJson(), builtinConfig());
    expectSameTensors(builtin, UNICODE_TEXTS, 1);
    expectSameTensors(builtin, UNICODE_TEXTS, 7);
  });

  const variants: [string, Json][] = [
    ["cased, accents kept", { lowercase: false, strip_accents: null }],
    ["cased, accents stripped", { lowercase: false, strip_accents: true }],
    ["lower-cased, accents kept", { lowercase: true, strip_accents: false }],
    ["no text cleaning, no CJK spacing", { clean_text: false, handle_chinese_chars: false }],
  ];
  for (const [name, normalizer] of variants) {
    test(`with subword pieces and a ${name} normalizer, token type ids, left padding and a 24-token maximum`, () => {
      const config = { ...tokenizerConfigJson(), tokenizer_class: "BertTokenizer", model_max_length: 24 };
      const tokenizers = pair(subwordJson(normalizer), { ...config, padding_side: "left" });
      expectSameTensors(tokenizers, UNICODE_TEXTS, 1);
      expectSameTensors(tokenizers, UNICODE_TEXTS, 5);
    });
  }

  test("with BertProcessing as the post-processor", () => {
    const json = subwordJson({});
    json.post_processor = { type: "BertProcessing", sep: ["[SEP]", 3], cls: ["[CLS]", 2] };
    const tokenizers = pair(json, { ...tokenizerConfigJson(), tokenizer_class: "BertTokenizer" });
    expectSameTensors(tokenizers, UNICODE_TEXTS, 3);
  });
});

describe("choosing the tokenizer at load", () => {
  test("the built-in model runs on ours", () => {
    expect(embedder.tokenizerFallback).toBeUndefined();
  });

  const refusals: [string, (json: Json) => void, string][] = [
    ["a normalizer sequence", (j) => (j.normalizer = { type: "Sequence", normalizers: [] }), "normalizer Sequence"],
    [
      "a whitespace pre-tokenizer",
      (j) => (j.pre_tokenizer = { type: "Whitespace" }),
      "pre-tokenizer is not BertPreTokenizer",
    ],
    [
      "RobertaProcessing",
      (j) => (j.post_processor = { type: "RobertaProcessing", sep: ["[SEP]", 3], cls: ["[CLS]", 2] }),
      "post-processor RobertaProcessing",
    ],
    [
      "a pair-only template",
      (j) => (j.post_processor.single = j.post_processor.pair),
      "post-processor template is not one sequence A",
    ],
    [
      "a normalized added token",
      (j) => (j.added_tokens[0].normalized = true),
      "an added token is normalized or strips space",
    ],
    ["fused unknown tokens", (j) => (j.model.fuse_unk = true), "WordPiece fuse_unk"],
  ];
  for (const [name, change, reason] of refusals) {
    test(`a tokenizer.json with ${name} keeps transformers.js's tokenizer: "${reason}"`, () => {
      const json = builtinJson();
      change(json);
      const theirs = new transformers.PreTrainedTokenizer(json, builtinConfig());
      expect(wordPieceTokenizer(tokenizerFacts(theirs, transformers))).toEqual({ reason });
    });
  }

  test("a tokenizer whose parsed tokenizer.json transformers.js no longer keeps is refused, not a failed load", () => {
    const theirs = new transformers.BertTokenizer(builtinJson(), builtinConfig());
    expect(wordPieceTokenizer({ ...tokenizerFacts(theirs, transformers), json: undefined as never })).toEqual({
      reason: "transformers.js kept no parsed tokenizer.json and tokenizer_config.json",
    });
  });

  test("a tokenizer class with encoding of its own keeps transformers.js's tokenizer", () => {
    const theirs = new transformers.XLMTokenizer(builtinJson(), {
      ...builtinConfig(),
      tokenizer_class: "XLMTokenizer",
    });
    expect(wordPieceTokenizer(tokenizerFacts(theirs, transformers))).toEqual({
      reason: "tokenizer class XLMTokenizer has its own encoding",
    });
  });
});
