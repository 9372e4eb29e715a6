// The only PostgreSQL client (Bun's built-in SQL): the pool, the URL's own options (schema), the one
// statement runner every repository uses (numbers back as numbers), and the store's errors — the
// database out of reach is UNAVAILABLE (503), a full disk STORAGE_FULL (507). Driver types stay here.
import { SQL } from "bun";
import { AppError } from "~/shared/errors";

/** A pool, or the client of one transaction. */
export type Client = SQL;

export interface PgTarget {
  /** The URL Bun connects with (without our own query parameters). */
  url: string;
  /** The schema Engram's tables live in (`?schema=`; default public). */
  schema: string;
  /** The role the URL logs in as. */
  user: string;
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,55}$/;

/** Reads a postgres:// or postgresql:// URL; `?schema=name` picks the schema (lower-case letters, digits, _). */
export function parsePgUrl(raw: string): PgTarget {
  const u = new URL(raw);
  if (u.protocol !== "postgres:" && u.protocol !== "postgresql:")
    throw new Error(`not a PostgreSQL URL: ${u.protocol}`);
  const schema = u.searchParams.get("schema") ?? "public";
  if (!SCHEMA_NAME.test(schema))
    throw new Error(
      `schema '${schema}' must be lower-case letters, digits and _ (at most 56), starting with a letter or _`,
    );
  u.searchParams.delete("schema");
  return { url: u.toString(), schema, user: decodeURIComponent(u.username) || "postgres" };
}

/** A pool of at most `max` connections whose search path starts with the store's schema. */
export function openPool(t: PgTarget, o: { max: number; node: string; onclose?: (e: Error | null) => void }): SQL {
  return new SQL(t.url, {
    max: o.max,
    idleTimeout: 60,
    connectionTimeout: 5,
    // Named so the change notifications of 0002 say which node wrote (application_name).
    connection: { search_path: `${quoteIdent(t.schema)}, public`, application_name: o.node },
    onclose: o.onclose,
  });
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** int8, numeric: Bun answers them as strings; every such value of ours (times, counts, ids) fits a double. */
const AS_TEXT = new Set([20, 1700]);

type Row = Record<string, unknown>;

/** Runs our fixed SQL text with parameters ($1…) on a pool or a transaction. */
export class Pg {
  constructor(readonly client: Client) {}

  async all<T>(text: string, params: unknown[] = []): Promise<T[]> {
    let rows: Row[] & { columns?: { name: string; type: number }[] | null };
    try {
      rows = await this.client.unsafe(text, params);
    } catch (e) {
      throw storeError(e);
    }
    const numeric = rows.columns?.filter((c) => AS_TEXT.has(c.type)).map((c) => c.name);
    if (numeric?.length)
      for (const row of rows) for (const c of numeric) if (typeof row[c] === "string") row[c] = Number(row[c]);
    return rows as T[];
  }

  async one<T>(text: string, params: unknown[] = []): Promise<T | null> {
    return (await this.all<T>(text, params))[0] ?? null;
  }

  /** Rows written. */
  async run(text: string, params: unknown[] = []): Promise<number> {
    try {
      return (await this.client.unsafe(text, params)).affectedRows;
    } catch (e) {
      throw storeError(e);
    }
  }
}

/** SQLSTATEs that mean "try the transaction again": serialization failure, deadlock. */
export const RETRYABLE = new Set(["40001", "40P01"]);

/** Bun's codes for a connection that could not be made or was lost. */
const UNREACHABLE =
  /^ERR_POSTGRES_(CONNECTION_CLOSED|CONNECTION_REFUSED|CONNECTION_TIMEOUT|IDLE_TIMEOUT|LIFETIME_TIMEOUT|SOCKET|TLS|POOL_CLOSED)/;

/**
 * The database's errors as the ones every adapter answers with: out of reach (refused, lost, shutting down,
 * too many connections) → UNAVAILABLE; disk full → STORAGE_FULL. Other errors pass through unchanged.
 */
export function storeError(e: unknown): unknown {
  if (e instanceof AppError || !(e instanceof Error)) return e;
  const { code, errno } = e as { code?: string; errno?: string };
  if (errno === "53100")
    return new AppError("STORAGE_FULL", "the store cannot grow (disk full or quota reached); nothing was written");
  // 57P01–57P03: the server is shutting down or starting; 53300: too many connections; 08xxx: connection errors.
  if ((code && UNREACHABLE.test(code)) || (errno && /^(57P0[123]|53300|08)/.test(errno)))
    return new AppError("UNAVAILABLE", `the store (PostgreSQL) is unreachable: ${e.message}`);
  return e;
}

/** The vector literal pgvector reads: "[0.5,1,…]". */
export const vectorText = (v: Float32Array): string => `[${Array.prototype.join.call(v, ",")}]`;
