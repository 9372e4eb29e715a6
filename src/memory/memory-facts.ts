// Memories that stay correct (SPEC §11), the part inside the memory service's writes: exact
// duplicates are found, each new memory's claims end the facts they replace, and an older memory
// whose facts have all ended is marked superseded. Claims are read before the write (the LLM is
// slow), decisions are taken inside it, so concurrent writes decide on what is committed.
import type { FactRow, FactScope, Repos, Store } from "~/store/store";
import { userScope } from "~/shared/store-scope";
import type { Claim } from "~/facts/fact-claims";
import type { FactRecogniser, KnownFact } from "~/facts/fact-recogniser";
import { KNOWN_FACTS_SHOWN } from "~/facts/llm-fact-recogniser";
import { decide, supersededMemories, type FactDecision } from "~/facts/supersede";
import { normaliseText, textKey } from "~/shared/text-key";

/** What a new memory's claims will do, decided inside the write before its row is stored. */
export interface FactPlan {
  decision: FactDecision;
  /** The live facts the decision read (the memories of those it ends may become superseded). */
  live: FactRow[];
}

const NO_PLAN: FactPlan = { decision: { ends: [], facts: [] }, live: [] };

export class MemoryFacts {
  constructor(
    private readonly recogniser: FactRecogniser,
    private readonly store: Store,
  ) {}

  /** Each text's claims, [] for texts that are not the user's own words (an assistant's turn). */
  async claims(scope: FactScope, texts: { text: string; own: boolean }[]): Promise<Claim[][]> {
    if (!texts.some((t) => t.own)) return texts.map(() => []);
    const known: KnownFact[] = this.recogniser.readsKnown
      ? (await this.store.read((r) => r.facts.recent(scope, KNOWN_FACTS_SHOWN), userScope(scope))).map((f) => ({
          subject: f.subject,
          attribute: f.attribute,
          value: f.value,
        }))
      : [];
    return Promise.all(texts.map((t) => (t.own ? this.recogniser.recognise(t.text, known) : [])));
  }

  /** The text key of a text, and a current memory of the scope with the same normalised text. */
  async duplicate(
    tx: Repos,
    scope: FactScope,
    text: string,
    now: number,
  ): Promise<{ key: number; id?: string; rowid?: number }> {
    const normalised = normaliseText(text);
    const key = textKey(normalised);
    const same = (await tx.memories.sameText({ ...scope, key, now })).find(
      (m) => normaliseText(m.memory) === normalised,
    );
    return same ? { key, id: same.id, rowid: same.rowid } : { key };
  }

  /** Decides before the row is stored (it tells whether the row states facts). */
  async plan(tx: Repos, scope: FactScope, claims: readonly Claim[]): Promise<FactPlan> {
    if (!claims.length) return NO_PLAN;
    const live = await tx.facts.live(scope, [...new Set(claims.map((c) => c.subject))]);
    return { decision: decide(claims, live), live };
  }

  /**
   * Stores the memory's facts and ends what they replace; `explicit` are memories it supersedes whatever
   * their facts (POST /memories/:id/supersede). Answers the ids of the memories it superseded.
   */
  async commit(
    tx: Repos,
    scope: FactScope,
    memoryId: string,
    p: FactPlan,
    explicit: readonly string[] = [],
  ): Promise<string[]> {
    const { decision } = p;
    if (!decision.facts.length && !decision.ends.length && !explicit.length) return [];
    await tx.facts.insert(memoryId, scope, decision.facts);
    const theirs = (await tx.facts.ofMemories(explicit)).filter((f) => !f.ended).map((f) => f.id);
    const ends = [...decision.ends, ...theirs];
    await tx.facts.end(ends, memoryId);
    const ended = new Set(ends);
    const touched = [...new Set(p.live.filter((f) => ended.has(f.id)).map((f) => f.memoryId))];
    const done = supersededMemories(decision.ends, await tx.facts.ofMemories(touched));
    return tx.memories.supersede(
      scope,
      [...new Set([...explicit, ...done])].filter((id) => id !== memoryId),
      memoryId,
    );
  }
}

/** The row states facts or ends some: its delete must hand them on (migration 15's trigger). */
export const statesFacts = (p: FactPlan, explicit = 0) =>
  p.decision.facts.length + p.decision.ends.length + explicit > 0 ? 1 : 0;
