// The Hugging Face `tokenizer.json` / `tokenizer_config.json` of a lower-casing BERT WordPiece
// tokenizer over a given word list (special tokens first, then the words in id order).

export const SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;

/**
 * Static embeddings have no position table, so long memories need not be cut at 512 tokens;
 * the embedder batches by length so a long text does not pad a whole batch.
 */
export const MODEL_MAX_LENGTH = 8192;

/** The full vocabulary in id order: the special tokens, then `words`. */
export function wordpieceVocab(words: readonly string[]): string[] {
  const vocab = [...SPECIAL_TOKENS, ...words];
  if (new Set(vocab).size !== vocab.length) throw new Error("tokenizer vocabulary has duplicate tokens");
  return vocab;
}

const idOf = (vocab: readonly string[], token: string): number => {
  const id = vocab.indexOf(token);
  if (id < 0) throw new Error(`special token ${token} missing from the vocabulary`);
  return id;
};

/** `tokenizer.json` for `vocab` (as returned by `wordpieceVocab`). Key order is fixed: the build is byte-deterministic. */
export function tokenizerJson(vocab: readonly string[]): Record<string, unknown> {
  const special = (token: string) => ({ id: token, type_id: 0 });
  const addedTokens = SPECIAL_TOKENS.map((content) => ({
    id: idOf(vocab, content),
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const vocabObject: Record<string, number> = {};
  vocab.forEach((token, id) => (vocabObject[token] = id));
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: addedTokens,
    normalizer: {
      type: "BertNormalizer",
      clean_text: true,
      handle_chinese_chars: true,
      strip_accents: null,
      lowercase: true,
    },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: special("[CLS]") },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: special("[SEP]") },
      ],
      pair: [
        { SpecialToken: special("[CLS]") },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: special("[SEP]") },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: Object.fromEntries(
        ["[CLS]", "[SEP]"].map((t) => [t, { id: t, ids: [idOf(vocab, t)], tokens: [t] }]),
      ),
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: vocabObject,
    },
  };
}

export function tokenizerConfigJson(): Record<string, unknown> {
  return {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    strip_accents: null,
    tokenize_chinese_chars: true,
    clean_up_tokenization_spaces: true,
    model_max_length: MODEL_MAX_LENGTH,
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    mask_token: "[MASK]",
  };
}
