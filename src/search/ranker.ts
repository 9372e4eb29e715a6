// Ranking, the read-only heart of a search: vector candidates with their cosines, keyword candidates
// with their share of the query's term weight, one calibrated score for each (relevance.ts), then
// replies joining their ranked questions. Reads through one store, so it runs either on the server's
// thread or in a search worker (rank-pool.ts) over the worker's own store; both run this same code.
import type { HitRow, MemoryFilter, Repos, Store, VectorSpace } from "~/store/store";
import { keywordEvidence, type RankTerm } from "./keyword-evidence";
import { VocabularyCache } from "./vocabulary-cache";
import { relevance, withReply } from "./relevance";
import { withoutClitics } from "./query-terms";
import { isQuestion, REPLY_ANCHORS, replies } from "./reply-context";

/** Keyword candidates: the best shares, up to this many visible ones (LoCoMo R@10 was flat from 2 to 5 × limit). */
const KEYWORD_CANDIDATES = (limit: number) => Math.max(20, limit * 2);
/**
 * Vector candidates. sqlite-vec's KNN costs grow with k (358 → 220 µs for k 50 → 10 at 100k memories):
 * LoCoMo R@10 with k = 50 / 30 / 20 / 15 was dev 70.1 / 69.9 / 70.2 / 70.8 — flat within noise.
 */
const VECTOR_CANDIDATES = (limit: number) => Math.max(20, limit * 2);
/**
 * A query of stopwords alone ("who is it") matches by its words in order (SearchRepo.keyword): such a hit
 * counts as half the keyword evidence of a memory that holds every meaningful word of a query.
 */
const STOPWORD_MATCH_SHARE = 0.5;

export interface RankRequest {
  filter: MemoryFilter;
  query: string;
  /** The query's meaningful words (query-terms.ts); none = a query of stopwords alone. */
  terms: RankTerm[];
  /** The query's embedding; null = keyword ranking only. */
  vector: Float32Array | null;
  /** The current model's vector space; null without a model. */
  vectors: VectorSpace | null;
  limit: number;
  /** Eval hook: rank by vectors alone ("semantic only"). */
  vectorOnly: boolean;
  /** Probability that a ranked question's reply answers it; 0 = off. */
  replyShare: number;
}

/** A ranked memory with what a search result shows: read by the ranker, so a worker answers in one message. */
export interface SearchHit extends HitRow {
  score: number;
  /** Cosine with the query; null when the memory was not among the vector candidates (or no vector ranked). */
  semantic: number | null;
  /** Share of the query's term weight the memory matches. */
  keyword: number;
}

interface Evidence {
  cosines: Map<number, number>;
  /** The cosine assumed for a memory not among the vector candidates (below the last one's); null: no vectors. */
  floor: number | null;
  shares: Map<number, number>;
}

export class Ranker {
  /**
   * The users' typo vocabularies, where the store has a per-user change counter to check them against
   * (PostgreSQL, where reading one scans the user's tsvectors); SQLite reads its term index directly.
   */
  readonly vocabularies: VocabularyCache | null;

  constructor(private readonly store: Store) {
    const counter = store.userChangeVersion?.bind(store);
    this.vocabularies = counter ? new VocabularyCache(counter) : null;
  }

  /** The best `limit` visible memories, best first. */
  rank(req: RankRequest): Promise<SearchHit[]> {
    // The user's transaction: on PostgreSQL row-level security hides every other user's rows from it.
    return this.store.read((r) => this.rankIn(r, req), { org: req.filter.org, user: req.filter.userId });
  }

  private async rankIn(r: Repos, req: RankRequest): Promise<SearchHit[]> {
    const { evidence, candidates } = await this.gather(r, req);
    const own = (rowid: number) =>
      relevance(
        evidence.floor === null ? null : (evidence.cosines.get(rowid) ?? evidence.floor),
        evidence.shares.get(rowid) ?? 0,
      );
    const scores = new Map(candidates.map((rowid) => [rowid, own(rowid)]));
    const best = () => [...scores].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
    const anchors = best().slice(0, req.replyShare > 0 ? REPLY_ANCHORS(req.limit) : req.limit);
    const rows = await this.rows(
      r,
      req.filter,
      anchors.map(([rowid]) => rowid),
    );
    const questions = req.replyShare > 0 ? anchors.filter(([id]) => isQuestion(rows.get(id)?.memory ?? "")) : [];
    if (questions.length) {
      const pairs = await replies(
        r.search,
        req.filter,
        questions.map(([id]) => id),
      );
      // Gains read the questions' scores before any reply changes: a chain of questions does not compound.
      const gains = [...pairs].map(([question, reply]) => [reply, scores.get(question)!] as const);
      for (const [reply, q] of gains) scores.set(reply, withReply(scores.get(reply) ?? own(reply), q, req.replyShare));
    }
    const top = best().slice(0, req.limit);
    const missing = top.map(([id]) => id).filter((id) => !rows.has(id));
    for (const [rowid, row] of await this.rows(r, req.filter, missing)) rows.set(rowid, row);
    return top.flatMap(([rowid, score]) => {
      const row = rows.get(rowid);
      if (!row) return [];
      return [
        { ...row, score, semantic: evidence.cosines.get(rowid) ?? null, keyword: evidence.shares.get(rowid) ?? 0 },
      ];
    });
  }

  /**
   * Vector and keyword candidates (visible ones only) and the evidence that scores them. Candidates include
   * superseded memories, each standing for the current memory that replaced it (SPEC §11): "where do I
   * live" matches "I live in Berlin", whose newer value "I moved to Lisbon" shares no word with it.
   */
  private async gather(r: Repos, req: RankRequest): Promise<{ evidence: Evidence; candidates: number[] }> {
    const { limit } = req;
    const filter = { ...req.filter, includeSuperseded: true };
    const k = VECTOR_CANDIDATES(limit);
    const near = req.vectors && req.vector ? await r.vectors.rank(req.vectors, filter, req.vector, k) : null;
    const cosines = new Map((near ?? []).map((h) => [h.rowid, h.score]));
    // A list shorter than k holds every visible memory that has a vector: the others have none (cosine 0).
    const floor = near ? (near.length < k ? 0 : Math.max(0, near.at(-1)!.score)) : null;
    let shares = new Map<number, number>();
    let keyword: number[] = [];
    if (req.vectorOnly) {
      // Semantic only: no keyword evidence.
    } else if (req.terms.length) {
      const found = await keywordEvidence(r, filter, req.terms, this.vocabularies);
      shares = found.shares;
      keyword = await r.search.visible(filter, found.ranked, KEYWORD_CANDIDATES(limit));
    } else {
      keyword = (await r.search.keyword(filter, withoutClitics(req.query), KEYWORD_CANDIDATES(limit))).map(
        (h) => h.rowid,
      );
      shares = new Map(keyword.map((rowid) => [rowid, STOPWORD_MATCH_SHARE]));
    }
    const evidence = { cosines, floor, shares };
    const candidates = [...new Set([...cosines.keys(), ...keyword])];
    const next = await r.search.successors(req.filter, candidates);
    if (!next.size) return { evidence, candidates };
    return { evidence, candidates: standIn(candidates, next, evidence, req.filter.includeSuperseded === true) };
  }

  /**
   * Rows by rowid, through the same visibility filter: on a worker's connection the server thread
   * commits between statements, and a memory deleted or expired meanwhile must not show.
   */
  private async rows(r: Repos, filter: MemoryFilter, rowids: number[]): Promise<Map<number, HitRow>> {
    if (!rowids.length) return new Map();
    return new Map((await r.search.rows(filter, rowids)).map((row) => [row.rowid, row]));
  }
}

/**
 * Candidates with each superseded memory replaced by its successor (none when 0), which takes the better of
 * both memories' evidence; with `keep` (include_superseded) the superseded one stays too, and its successor,
 * as good as it and newer, comes right after it.
 */
function standIn(candidates: number[], next: ReadonlyMap<number, number>, e: Evidence, keep: boolean): number[] {
  const out = new Set<number>();
  for (const rowid of candidates) {
    const successor = next.get(rowid);
    if (successor === undefined) {
      out.add(rowid);
      continue;
    }
    if (keep) out.add(rowid);
    if (!successor) continue;
    out.add(successor);
    for (const map of [e.cosines, e.shares]) {
      const own = map.get(rowid);
      if (own !== undefined && own > (map.get(successor) ?? -Infinity)) map.set(successor, own);
    }
  }
  return [...out];
}
