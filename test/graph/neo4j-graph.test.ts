// The GraphStore contract against a live Neo4j (only when NEO4J_URI points at one), the
// mirror over it, and the always-run check that a down server means UNAVAILABLE, not a hang.
import { describe, expect, test } from "bun:test";
import { Neo4jGraph } from "~/graph/neo4j-graph";
import { MirroredGraph } from "~/graph/mirrored-graph";
import { EmbeddedGraph } from "~/graph/embedded-graph";
import { AppError } from "~/shared/errors";
import { graphStoreContract } from "./graph-store.contract";
import { openTestStore } from "../support/store";
import { owner } from "../support/memory-rows";

const live = process.env.NEO4J_URI;
const connect = () =>
  new Neo4jGraph({
    uri: live!,
    user: process.env.NEO4J_USER ?? "neo4j",
    password: process.env.NEO4J_PASSWORD ?? "",
    database: process.env.NEO4J_DATABASE,
  });

describe.skipIf(!live)("neo4j (skipped: set NEO4J_URI, NEO4J_USER, NEO4J_PASSWORD to a live Neo4j)", () => {
  graphStoreContract("neo4j", async () => ({ store: connect() }));
  graphStoreContract("sqlite mirrored to neo4j", async () => {
    const store = await openTestStore();
    return { store: new MirroredGraph(new EmbeddedGraph(store), connect()), cleanup: async () => store.close() };
  });
});

/** A local port that nothing listens on: bind port 0, note it, close it. */
function closedPort(): number {
  const server = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = server.port;
  server.stop(true);
  return port;
}

describe("neo4j when the server is down", () => {
  test("graph calls throw UNAVAILABLE instead of waiting on the server", async () => {
    const graph = new Neo4jGraph({
      uri: `bolt://127.0.0.1:${closedPort()}`,
      user: "neo4j",
      password: "x",
      connectionTimeoutMs: 1000,
      retryTimeMs: 200,
    });
    // No clock here: a hang fails by the test timeout; how fast the driver gives up is its own settings.
    for (const call of [
      () => graph.traverse(owner("u1"), { start: { type: "person", id: "a" }, maxDepth: 2, direction: "both" }),
      () => graph.upsertEntities(owner("u1"), [{ type: "person", id: "a" }]),
      () => graph.findEntities(owner("u1"), { limit: 10 }),
    ]) {
      const err = await call().then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("UNAVAILABLE");
    }
    await graph.close();
  });

  test("a bad max_depth is rejected before any query is sent", async () => {
    const graph = new Neo4jGraph({ uri: `bolt://127.0.0.1:${closedPort()}`, user: "neo4j", password: "x" });
    const err = await graph
      .traverse(owner("u1"), { start: { type: "person", id: "a" }, maxDepth: 0, direction: "out" })
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ code: "VALIDATION_ERROR", field: "max_depth" });
    await graph.close();
  });
});
