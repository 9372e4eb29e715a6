// The README's governance examples, run as a reader would run them: the TypeScript one as a program of
// its own against a scratch store (which must end up back on the global defaults), the curl lines
// against a fresh server.
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildTestApp } from "../support/app";
import { ROOT, tempDir } from "../support/server-process";
import { createEngram } from "~/index";

const README = await Bun.file(join(ROOT, "README.md")).text();
const section = README.slice(
  README.indexOf("## Governance"),
  README.indexOf("\n## ", README.indexOf("## Governance") + 3),
);
const tsBlock = /```ts\n([\s\S]*?)```/.exec(section)![1]!;
const shBlock = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
const dir = tempDir("engram-readme-");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the TypeScript example runs, and leaves its scratch store on the global defaults", async () => {
  const scratch = join(dir, "demo.db");
  expect(tsBlock).toContain('storeUrl: "sqlite:///tmp/engram-governance-demo.db"');
  const program = tsBlock
    .replace('from "engram"', `from ${JSON.stringify(join(ROOT, "src/index.ts"))}`)
    .replace("sqlite:///tmp/engram-governance-demo.db", `sqlite://${scratch}`);
  writeFileSync(join(dir, "example.ts"), program);
  const p = Bun.spawn(["bun", join(dir, "example.ts")], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(p.stdout).text(),
    new Response(p.stderr).text(),
    p.exited,
  ]);
  expect({ stdout, code }).toEqual({ stdout: "0 0\n", code: 0 });
  expect(stderr).toBe("");
  const engram = await createEngram({ storeUrl: `sqlite://${scratch}` });
  try {
    expect((await engram.governance.getPolicy({ organizationId: "default" })).compliance.mode).toBe("GDPR");
    // The undo worked: a plain write needs no justification any more.
    expect((await engram.addMemories({ user_id: "bob", memory: "plain note" })).success).toBe(true);
  } finally {
    await engram.close();
  }
}, 60_000);

test("every curl line of the governance section answers 200 on a fresh server", async () => {
  const t = await buildTestApp();
  try {
    const lines = shBlock.split("\n").filter((l) => l.startsWith("curl "));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const path = /"?\$B([^\s"]*)"?/.exec(line)![1]!;
      const data = /-d '([^']*)'/.exec(line)?.[1];
      const method = /-X (\w+)/.exec(line)?.[1] ?? (data !== undefined ? "POST" : "GET");
      const r = await t.request(method, path, data === undefined ? undefined : JSON.parse(data));
      expect([line, r.status]).toEqual([line, 200]);
    }
  } finally {
    await t.close();
  }
});
