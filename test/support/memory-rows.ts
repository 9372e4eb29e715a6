// A memory row as repositories take it (store/repos/memory-repo.ts NewMemory), for tests that write
// through the repositories directly: alice's, agent a1, no session, created at NOW.
import type { NewMemory } from "~/store/store";

export const NOW = 1_800_000_000_000;

/** Whose rows, as repositories take it: a user of the tests' organization (HOME_ORG). */
export const owner = (userId: string) => ({ org: "default", userId });

export const newMemory = (id: string, text: string, o: Partial<NewMemory> = {}): NewMemory => ({
  id,
  org_id: "default",
  user_id: "alice",
  agent_id: "a1",
  session_id: "",
  memory: text,
  metadata: "{}",
  importance: 50,
  source_type: "tool",
  expires_at: null,
  conversation_ref: null,
  immutable_ref: null,
  created_at: NOW,
  retain_until: null,
  ...o,
});
