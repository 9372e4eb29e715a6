// Our own tokenizer for BERT WordPiece tokenizer.json files (BertNormalizer + BertPreTokenizer + WordPiece +
// a [CLS] x [SEP] post-processor): the ids, masks and type ids transformers.js's tokenizer gives, at a
// fraction of its cost per text. `wordPieceTokenizer` says why any other tokenizer.json keeps transformers.js's.

/** What the transformers.js tokenizer was built from and decided at load (its own fields, not re-derived). */
export interface TokenizerFacts {
  /** tokenizer.json and tokenizer_config.json, as transformers.js parsed them. */
  json: Record<string, unknown>;
  config: Record<string, unknown>;
  /** Whether transformers.js's tokenizer class only sets fields (no methods of its own that change encoding). */
  plainClass: boolean;
  returnTokenTypeIds: boolean;
  padTokenId: number | null | undefined;
  modelMaxLength: number;
  paddingSide: string;
}

/** A batch padded to one width: row-major int64 tensors' data, `tokenTypeIds` only when the model's tokenizer returns them. */
export interface Encoding {
  rows: number;
  width: number;
  inputIds: BigInt64Array;
  attentionMask: BigInt64Array;
  tokenTypeIds?: BigInt64Array;
}

type Json = Record<string, any>;

/** BertPreTokenizer: runs of neither whitespace nor punctuation, or one punctuation character. */
const PUNCT = "\\p{P}\\u0021-\\u002F\\u003A-\\u0040\\u005B-\\u0060\\u007B-\\u007E";
const WORDS = new RegExp(`[^\\s${PUNCT}]+|[${PUNCT}]`, "gu");
/** Text that needs none of the Unicode steps: printable ASCII (controls, CJK, accents all lie outside it). */
const NOT_PLAIN = /[^\x20-\x7E]/;
const NUL_CONTROL = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}\p{Co}\p{Cs}]/gu;
/** Code units, not code points, as transformers.js checks them: CJK outside the BMP is not spaced. */
const CJK = /[\u3400-\u4DBF\u4E00-\u9FFF\uF900-\uFAFF]/g;

const refuse = (reason: string) => ({ reason });

/** The tokenizer, or why transformers.js's stays: decided once at load from the parsed config. */
export function wordPieceTokenizer(facts: TokenizerFacts): WordPieceTokenizer | { reason: string } {
  const { json, config } = facts;
  if (typeof json !== "object" || !json || typeof config !== "object" || !config) {
    return refuse("transformers.js kept no parsed tokenizer.json and tokenizer_config.json");
  }
  const normalizer = json.normalizer as Json | null;
  const model = json.model as Json | null;
  if (!facts.plainClass) return refuse(`tokenizer class ${String(config.tokenizer_class)} has its own encoding`);
  if (normalizer?.type !== "BertNormalizer") return refuse(`normalizer ${normalizer?.type ?? "none"}`);
  if ((json.pre_tokenizer as Json | null)?.type !== "BertPreTokenizer")
    return refuse("pre-tokenizer is not BertPreTokenizer");
  if (model?.type !== "WordPiece" || typeof model.vocab !== "object") return refuse("model is not WordPiece");
  if (model.fuse_unk) return refuse("WordPiece fuse_unk");
  if (config.remove_space === true || config.do_lowercase_and_remove_accent) return refuse("config rewrites text");
  if (facts.padTokenId == null) return refuse("no pad token");
  const added = (json.added_tokens ?? []) as Json[];
  if (added.some((t) => (t.normalized ?? !t.special) || t.lstrip || t.rstrip)) {
    return refuse("an added token is normalized or strips space");
  }
  const ids = new Map<string, number>(Object.entries(model.vocab as Record<string, number>));
  for (const t of added) ids.set(t.content, t.id);
  const unk = ids.get(model.unk_token);
  if (unk === undefined) return refuse("unknown token missing from the vocabulary");
  const template = postProcess(json.post_processor as Json | null, ids, unk);
  if (typeof template === "string") return refuse(template);
  return new WordPieceTokenizer(facts, ids, new Map(added.map((t) => [t.content, t.id])), unk, template);
}

interface Template {
  before: number[];
  beforeTypes: number[];
  after: number[];
  afterTypes: number[];
  sequenceType: number;
}

/** The single-sequence post-processor as ids around the text's: TemplateProcessing with one A, or BertProcessing. */
function postProcess(p: Json | null, ids: Map<string, number>, unk: number): Template | string {
  const id = (token: string) => ids.get(token) ?? unk;
  if (p?.type === "BertProcessing") {
    return { before: [id(p.cls[0])], beforeTypes: [0], after: [id(p.sep[0])], afterTypes: [0], sequenceType: 0 };
  }
  if (p?.type !== "TemplateProcessing" || !Array.isArray(p.single)) return `post-processor ${p?.type ?? "none"}`;
  const items = p.single as Json[];
  const at = items.findIndex((item) => item.Sequence);
  const sequence = items[at]?.Sequence as { id: string; type_id: number } | undefined;
  if (sequence?.id !== "A" || items.filter((item) => item.Sequence).length > 1) {
    return "post-processor template is not one sequence A";
  }
  const part = (list: Json[]) => list.map((item) => item.SpecialToken as { id: string; type_id: number });
  const [head, tail] = [part(items.slice(0, at)), part(items.slice(at + 1))];
  return {
    before: head.map((s) => id(s.id)),
    beforeTypes: head.map((s) => s.type_id),
    after: tail.map((s) => id(s.id)),
    afterTypes: tail.map((s) => s.type_id),
    sequenceType: sequence.type_id,
  };
}

export class WordPieceTokenizer {
  private readonly lowercase: boolean;
  private readonly stripAccents: boolean;
  private readonly cleanText: boolean;
  private readonly chineseChars: boolean;
  private readonly prefix: string;
  private readonly maxWordChars: number;
  /** First characters of the added tokens: text without any of them needs no added-token split. */
  private readonly addedStarts: string[];

  constructor(
    private readonly facts: TokenizerFacts,
    private readonly ids: Map<string, number>,
    private readonly added: Map<string, number>,
    private readonly unk: number,
    private readonly template: Template,
  ) {
    const n = facts.json.normalizer as Json;
    const model = facts.json.model as Json;
    this.lowercase = !!n.lowercase;
    this.stripAccents = n.lowercase ? n.strip_accents !== false : !!n.strip_accents;
    this.cleanText = !!n.clean_text;
    this.chineseChars = !!n.handle_chinese_chars;
    this.prefix = model.continuing_subword_prefix;
    this.maxWordChars = model.max_input_chars_per_word ?? 100;
    this.addedStarts = [...new Set([...added.keys()].map((c) => c[0]!))];
  }

  /** Every text's ids, truncated to the model's max length and padded to the longest, as one batch. */
  encode(texts: string[]): Encoding {
    const rows = texts.map((text) => this.encodeOne(text));
    let longest = 0;
    for (const row of rows) longest = Math.max(longest, row.length);
    const width = Math.min(longest, this.facts.modelMaxLength);
    const size = rows.length * width;
    const inputIds = new BigInt64Array(size).fill(BigInt(this.facts.padTokenId!));
    const attentionMask = new BigInt64Array(size);
    const tokenTypeIds = this.facts.returnTokenTypeIds ? new BigInt64Array(size) : undefined;
    rows.forEach((row, r) => {
      const used = Math.min(row.length, width);
      const start = r * width + (this.facts.paddingSide === "left" ? width - used : 0);
      for (let t = 0; t < used; t++) inputIds[start + t] = BigInt(row[t]!);
      attentionMask.fill(1n, start, start + used);
      if (tokenTypeIds) this.writeTypes(tokenTypeIds, start, used, row.length);
    });
    return { rows: rows.length, width, inputIds, attentionMask, ...(tokenTypeIds ? { tokenTypeIds } : {}) };
  }

  /** A row's type ids: the template's for its special tokens, the sequence's between, cut at `used`. */
  private writeTypes(out: BigInt64Array, start: number, used: number, length: number): void {
    const { before, beforeTypes, after, afterTypes, sequenceType } = this.template;
    out.fill(BigInt(sequenceType), start, start + used);
    for (let t = 0; t < before.length && t < used; t++) out[start + t] = BigInt(beforeTypes[t]!);
    for (let k = 0, t = length - after.length; t < used; k++, t++) out[start + t] = BigInt(afterTypes[k]!);
  }

  /** One text's ids with the special tokens, before truncation. */
  encodeOne(text: string): number[] {
    const out = [...this.template.before];
    for (const section of this.splitAdded(text)) {
      const addedId = this.added.get(section);
      if (addedId !== undefined) {
        out.push(addedId);
        continue;
      }
      const plain = !NOT_PLAIN.test(section);
      const normalized = plain ? (this.lowercase ? section.toLowerCase() : section) : this.normalize(section);
      if (!normalized) continue;
      const normalizedAdded = this.added.get(normalized);
      if (normalizedAdded !== undefined) out.push(normalizedAdded);
      else if (plain) this.plainWords(normalized, out);
      else for (const word of normalized.trim().match(WORDS) ?? []) this.wordPiece(word, out);
    }
    for (const id of this.template.after) out.push(id);
    return out;
  }

  /** Splits out added tokens written in the raw text: leftmost, longest match first. */
  private splitAdded(text: string): string[] {
    if (!text || !this.addedStarts.some((c) => text.includes(c))) return text ? [text] : [];
    const sections: string[] = [];
    let start = 0;
    for (let i = 0; i < text.length; ) {
      let match = "";
      for (const content of this.added.keys()) {
        if (content.length > match.length && text.startsWith(content, i)) match = content;
      }
      if (!match) {
        i++;
        continue;
      }
      if (i > start) sections.push(text.slice(start, i));
      sections.push(match);
      i += match.length;
      start = i;
    }
    if (start < text.length) sections.push(text.slice(start));
    return sections;
  }

  /**
   * BertPreTokenizer on printable ASCII, where the only whitespace is a space and punctuation is
   * !-/ :-@ [-` {-~ (the regex's classes restricted to ASCII): the same words as WORDS, without a regex.
   */
  private plainWords(text: string, out: number[]): void {
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 32;
      const punct = (c >= 33 && c <= 47) || (c >= 58 && c <= 64) || (c >= 91 && c <= 96) || c >= 123;
      if (c !== 32 && !punct) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0) this.wordPiece(text.slice(start, i), out);
      if (punct) this.wordPiece(text[i]!, out);
      start = -1;
    }
  }

  /**
   * BertNormalizer, in its order: clean (drop NUL, U+FFFD and control/format/private/surrogate characters
   * but tab and line breaks, whitespace to a space), space out CJK, lowercase, strip accents (NFD, drop Mn).
   */
  private normalize(text: string): string {
    if (this.cleanText) text = text.replace(NUL_CONTROL, "").replace(/\s/g, " ");
    if (this.chineseChars) text = text.replace(CJK, " $& ");
    if (this.lowercase) text = text.toLowerCase();
    if (this.stripAccents) text = text.normalize("NFD").replace(/\p{Mn}/gu, "");
    return text;
  }

  /** Greedy longest-match-first over code points; a word with any unmatched rest, or too long, is one [UNK]. */
  private wordPiece(word: string, out: number[]): void {
    const whole = this.ids.get(word);
    if (whole !== undefined && word.length <= this.maxWordChars) {
      out.push(whole);
      return;
    }
    const bounds = [0];
    for (const ch of word) bounds.push(bounds[bounds.length - 1]! + ch.length);
    const chars = bounds.length - 1;
    if (chars > this.maxWordChars) {
      out.push(this.unk);
      return;
    }
    const pieces: number[] = [];
    for (let start = 0; start < chars; ) {
      let end = chars;
      let id: number | undefined;
      for (; end > start; end--) {
        const piece = word.slice(bounds[start], bounds[end]);
        id = this.ids.get(start > 0 ? this.prefix + piece : piece);
        if (id !== undefined) break;
      }
      if (id === undefined) {
        out.push(this.unk);
        return;
      }
      pieces.push(id);
      start = end;
    }
    for (const id of pieces) out.push(id);
  }
}
