// Identity keys (SPEC §8): `egk_<key id>_<secret>`. The id names the stored row, the secret proves
// possession; only a SHA-256 digest of the secret is stored. A key is 256 random bits, so a slow
// password hash would add nothing an attacker must pay for (no dictionary to try) while costing every
// request its time: a fast digest with a constant-time comparison is the standard for such tokens.
import { timingSafeEqual } from "node:crypto";

export const KEY_PREFIX = "egk_";
const ID_HEX = 16;
const SECRET_HEX = 64;
/** The whole shape, so anything else is refused before the store is asked (tested without captures: cheaper). */
const KEY_PATTERN = /^egk_[0-9a-f]{16}_[0-9a-f]{64}$/;
const SECRET_AT = KEY_PREFIX.length + ID_HEX + 1;

const hex = (bytes: number) => Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex");

/** A new key: its id and the whole key (shown once). */
export function newKey(): { id: string; key: string; secret: string } {
  const id = hex(ID_HEX / 2);
  const secret = hex(SECRET_HEX / 2);
  return { id, key: `${KEY_PREFIX}${id}_${secret}`, secret };
}

/** The id and secret of a well-formed key, else null. */
export function parseKey(token: string): { id: string; secret: string } | null {
  if (!KEY_PATTERN.test(token)) return null;
  return { id: token.slice(KEY_PREFIX.length, KEY_PREFIX.length + ID_HEX), secret: token.slice(SECRET_AT) };
}

export const looksLikeKey = (token: string) => token.startsWith(KEY_PREFIX);

/** The stored digest; the id is part of it so a digest cannot be moved to another key's row. */
export function digestOf(id: string, secret: string): Uint8Array {
  return new Bun.CryptoHasher("sha256").update(`${KEY_PREFIX}${id}:${secret}`).digest() as Uint8Array;
}

export function secretMatches(id: string, secret: string, stored: Uint8Array): boolean {
  const d = digestOf(id, secret);
  return d.length === stored.length && timingSafeEqual(d, stored);
}

/** Whether two secrets are equal, comparing every character whatever the first difference (constant time). */
export function sameSecret(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** Key ids as the routes and the CLI take them. */
export const KEY_ID_PATTERN = /^[0-9a-f]{16}$/;
