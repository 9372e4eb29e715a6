// What scope each transaction of a store names, and which repository methods it called: the store's read,
// write and group are wrapped on the instance (the real store still runs every transaction), so a test can
// check that a service names its request's scope wherever it touches a layer's rows (row-level security).
import type { Repos, Store, StoreScope } from "~/store/store";

export interface SeenTransaction {
  kind: "read" | "write" | "group";
  scope: StoreScope;
  /** "repo" and "repo.method" for each repository and method the transaction used. */
  calls: Set<string>;
}

/** Starts recording `store`'s transactions; `stop` puts its own methods back. */
export function recordScopes(store: Store): { seen: SeenTransaction[]; stop(): void } {
  const seen: SeenTransaction[] = [];
  const target = store as unknown as Record<string, unknown>;
  const kinds = ["read", "write", "group"] as const;
  for (const kind of kinds) {
    const own = store[kind].bind(store);
    target[kind] = <T>(fn: (r: Repos) => Promise<T>, scope: StoreScope) => {
      const t: SeenTransaction = { kind, scope: { ...scope }, calls: new Set() };
      seen.push(t);
      const repo = (name: string, o: object) =>
        new Proxy(o, {
          get: (x, m) => {
            t.calls.add(`${name}.${String(m)}`);
            const v = (x as Record<string | symbol, unknown>)[m];
            return typeof v === "function" ? v.bind(x) : v;
          },
        });
      const noted = (r: Repos) =>
        new Proxy(r, {
          get: (o, p) => {
            t.calls.add(String(p));
            return repo(String(p), o[p as keyof Repos]);
          },
        });
      return own((r) => fn(noted(r)), scope);
    };
  }
  return { seen, stop: () => kinds.forEach((k) => delete target[k]) };
}

/** The scopes of the transactions that used `call` ("repo" or "repo.method"), each once, as "org/user" ("*": every). */
export function scopesUsing(seen: SeenTransaction[], call: string): string[] {
  const names = seen.filter((t) => t.calls.has(call)).map((t) => `${t.scope.org ?? "*"}/${t.scope.user ?? "*"}`);
  return [...new Set(names)].sort();
}
