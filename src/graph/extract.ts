// The entity/relation extractor interface (rule-based by default, an LLM when configured),
// the shared output rules (slug ids, the user's own entity) and the builder both use.
import type { EntityRef } from "./graph-store";

export interface ExtractedEntity {
  type: string;
  id: string;
  name: string;
  properties?: Record<string, unknown>;
}

export interface ExtractedRelationship {
  from: EntityRef;
  type: string;
  to: EntityRef;
  properties?: Record<string, unknown>;
}

export interface Extraction {
  entities: ExtractedEntity[];
  relationships: ExtractedRelationship[];
}

export interface EntityExtractor {
  /** Short id for logs, e.g. "rules" or "llm:gpt-4o-mini". */
  readonly name: string;
  extract(text: string): Promise<Extraction>;
}

export const ENTITY_TYPES = ["person", "place", "organization", "technology", "date", "pet"] as const;

/**
 * The speaker ("I", "my", "we") of a user's memories. Graphs are per user, so one fixed id
 * names them in every graph; it carries their relationships (WORKS_AT, LIVES_IN, HAS_PET…)
 * but is not linked as a mention, since nearly every first-person memory would mention it.
 */
export const SELF: ExtractedEntity = { type: "person", id: "user", name: "User" };
export const SELF_REF: EntityRef = { type: SELF.type, id: SELF.id };

const ENTITY_TYPE_RE = /^[a-z][a-z0-9_-]{0,63}$/;
const REL_TYPE_RE = /^[A-Z_][A-Z0-9_]{0,63}$/;

/** Entity id from a name: lower case, accents dropped, runs of other characters → "-". */
export function slug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/\p{M}+/gu, "")
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^\p{L}\p{N}]+/gu, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 128);
}

/** "works at" / "worksAt" / "WORKS-AT" → "WORKS_AT"; "" when nothing usable is left. */
export function relationshipName(raw: string): string {
  const name = raw
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toUpperCase();
  return /^[0-9]/.test(name) ? `_${name}` : name;
}

const refKey = (r: EntityRef) => `${r.type}\u0000${r.id}`;

/** Collects entities and relationships without duplicates, keeping first-seen order. */
export class ExtractionBuilder {
  private readonly entities = new Map<string, ExtractedEntity>();
  private readonly relationships = new Map<string, ExtractedRelationship>();

  /** Adds an entity named `name` (id = slug unless given); returns its ref, or null if unusable. */
  entity(
    type: string,
    name: string,
    opts: { id?: string; properties?: Record<string, unknown> } = {},
  ): EntityRef | null {
    const id = opts.id ?? slug(name);
    const cleanName = name.trim().slice(0, 512);
    if (!id || !cleanName || !ENTITY_TYPE_RE.test(type)) return null;
    const ref = { type, id };
    const existing = this.entities.get(refKey(ref));
    if (!existing)
      this.entities.set(refKey(ref), {
        type,
        id,
        name: cleanName,
        ...(opts.properties ? { properties: opts.properties } : {}),
      });
    else if (opts.properties) existing.properties = { ...existing.properties, ...opts.properties };
    return ref;
  }

  self(): EntityRef {
    this.entities.set(refKey(SELF_REF), { ...SELF });
    return SELF_REF;
  }

  has(ref: EntityRef): boolean {
    return this.entities.has(refKey(ref));
  }

  relate(from: EntityRef | null, type: string, to: EntityRef | null, properties?: Record<string, unknown>): void {
    if (!from || !to || !REL_TYPE_RE.test(type) || !this.has(from) || !this.has(to)) return;
    const key = `${refKey(from)}\u0001${type}\u0001${refKey(to)}`;
    if (!this.relationships.has(key))
      this.relationships.set(key, { from, type, to, ...(properties ? { properties } : {}) });
  }

  build(): Extraction {
    return { entities: [...this.entities.values()], relationships: [...this.relationships.values()] };
  }
}
