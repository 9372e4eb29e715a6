// Fills a user's graph from one stored memory: extract, upsert what was found (without
// overwriting what the user set), and link the memory to the entities it mentions.
import { SELF_REF, type EntityExtractor, type Extraction } from "./extract";
import type { GraphStore } from "./graph-store";
import type { Owner } from "~/store/repos/memory-repo";

export interface IngestOptions {
  /** Drop the memory's previous links first (after an update of its text). */
  replace?: boolean;
}

export async function ingestMemory(
  graph: GraphStore,
  extractor: EntityExtractor,
  owner: Owner,
  memory: { id: string; text: string },
  opts: IngestOptions = {},
): Promise<Extraction> {
  const found = await extractor.extract(memory.text);
  if (opts.replace) await graph.unlinkMemories(owner, [memory.id]);
  if (found.entities.length === 0) return found;
  await graph.upsertEntities(owner, found.entities, "ifMissing");
  if (found.relationships.length) await graph.upsertRelationships(owner, found.relationships);
  const mentioned = found.entities.filter((e) => !(e.type === SELF_REF.type && e.id === SELF_REF.id));
  if (mentioned.length)
    await graph.linkMentions(
      owner,
      memory.id,
      mentioned.map((e) => ({ type: e.type, id: e.id })),
    );
  return found;
}
