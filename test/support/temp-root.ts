// One folder for everything a test run writes to the temp folder, removed after the last test file,
// passing or failing: tests that forgot (or failed before) their own cleanup left ~29 folders a run.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "engram-test-run-"));
// os.tmpdir() reads these on every call (Windows: TEMP/TMP), so every later mkdtemp lands inside.
for (const name of ["TMPDIR", "TMP", "TEMP"]) process.env[name] = root;
afterAll(() => rmSync(root, { recursive: true, force: true }));
