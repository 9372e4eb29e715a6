// Two tools storing the same fact at once (SPEC §11): truly concurrent identical adds over real sockets,
// to one server and to two server processes sharing one store file, produce one memory.
import { afterEach, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { postJson, spawnServer, tempDir, type ServerProcess } from "../support/server-process";

const running: ServerProcess[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of running.splice(0)) s.proc.kill(9);
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const storeFile = () => {
  const dir = tempDir();
  dirs.push(dir);
  return `${dir}/shared.db`;
};
const start = async (db: string) => {
  const s = await spawnServer([`--store-url=sqlite://${db}`, "--embedding-model=none"]);
  running.push(s);
  return s;
};

/** All requests are sent before any answer is awaited. */
const addAll = (urls: string[], n: number, body: (i: number) => unknown) =>
  Promise.all(Array.from({ length: n }, (_, i) => postJson(`${urls[i % urls.length]}/add_memories`, body(i))));

describe("concurrent identical adds", () => {
  test("to one server: one memory, every request answered with its id", async () => {
    const s = await start(storeFile());
    const answers = await addAll([s.url], 24, (i) => ({
      user_id: "u",
      memory: i % 2 ? "I live in Berlin." : "i live in berlin",
      agent_id: "mcp-agent",
    }));
    expect(answers.every((a) => a.status === 200)).toBe(true);
    const ids = new Set(answers.map((a) => a.body.memory_ids[0]));
    expect(ids.size).toBe(1);
    expect(answers.filter((a) => a.body.deduplicated).length).toBe(23);
    expect(((await (await fetch(`${s.url}/list_memories?user_id=u`)).json()) as { total: number }).total).toBe(1);
  }, 30_000); // server processes start in seconds on a busy machine

  test("to two processes sharing one store file: one memory", async () => {
    const db = storeFile();
    const [a, b] = [await start(db), await start(db)];
    const answers = await addAll([a!.url, b!.url], 16, () => ({ user_id: "u", memory: "My manager is Ana." }));
    expect(answers.every((r) => r.status === 200)).toBe(true);
    expect(new Set(answers.map((r) => r.body.memory_ids[0])).size).toBe(1);
    expect(((await (await fetch(`${b!.url}/list_memories?user_id=u`)).json()) as { total: number }).total).toBe(1);
  }, 30_000);
});
