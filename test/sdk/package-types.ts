// Compile-time checks (bunx tsc --noEmit, no test runner): the package's portable entry, which is
// also its type surface (src/client.ts), declares createEngram and createServer as the Bun entry
// (src/index.ts) defines them, so types written against one hold for the other.
import type * as portable from "~/client";
import type * as bun from "~/index";

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const check = <T extends true>(): T => true as T;

// The real functions accept whatever the declared ones accept, and answer the same.
export const createEngramAccepts: typeof portable.createEngram = null as unknown as typeof bun.createEngram;
export const createServerAccepts: typeof portable.createServer = null as unknown as typeof bun.createServer;
check<Same<ReturnType<typeof portable.createEngram>, ReturnType<typeof bun.createEngram>>>();
check<Same<ReturnType<typeof portable.createServer>, ReturnType<typeof bun.createServer>>>();
check<Same<typeof portable.createClient, typeof bun.createClient>>();
