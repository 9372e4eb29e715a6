// A test app with auth on, one organization's keys (an admin; ana, a writer of the space "platform"; bo,
// a reader of it; cy, in the organization but not in the space; a reader key of ana) and the space itself.
import { buildTestApp, type TestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";

export const ORG = "default";
export const SPACE = "platform";

export interface SpacesApp {
  t: TestApp;
  keys: { admin: string; ana: string; bo: string; cy: string; anaReader: string };
  /** A request with a key: `as(key).post(path, body)`. */
  as(key: string): {
    get(path: string): Promise<{ status: number; body: any }>;
    post(path: string, body: unknown): Promise<{ status: number; body: any }>;
    put(path: string, body: unknown): Promise<{ status: number; body: any }>;
    delete(path: string): Promise<{ status: number; body: any }>;
  };
}

export async function spacesApp(): Promise<SpacesApp> {
  const t = await buildTestApp({
    embedder: new LetterEmbedder(),
    options: { auth: { enabled: true, apiKey: "shared" } },
  });
  const key = async (input: Parameters<TestApp["services"]["keys"]["create"]>[1]) =>
    (await t.services.keys.create(ORG, input)).key;
  const keys = {
    admin: await key({ role: "admin" }),
    ana: await key({ role: "member", user_id: "ana" }),
    bo: await key({ role: "member", user_id: "bo" }),
    cy: await key({ role: "member", user_id: "cy" }),
    anaReader: await key({ role: "reader", user_id: "ana" }),
  };
  const as = (k: string) => {
    const h = { authorization: `Bearer ${k}` };
    const send = async (method: string, path: string, body?: unknown) => {
      const { status, body: answer } = await t.request(method, path, body, h);
      return { status, body: answer };
    };
    return {
      get: (path: string) => send("GET", path),
      post: (path: string, body: unknown) => send("POST", path, body),
      put: (path: string, body: unknown) => send("PUT", path, body),
      delete: (path: string) => send("DELETE", path),
    };
  };
  const created = await as(keys.admin).post("/spaces", {
    space_id: SPACE,
    name: "Platform team",
    members: [
      { user_id: "ana", role: "writer" },
      { user_id: "bo", role: "reader" },
    ],
  });
  if (created.status !== 200) throw new Error(`space not created: ${JSON.stringify(created.body)}`);
  return { t, keys, as };
}

/** The (memory, space_id) pairs of a search or listing answer. */
export const shown = (body: { results: { memory: string; space_id?: string | null }[] }) =>
  body.results.map((r) => [r.memory, r.space_id]);
