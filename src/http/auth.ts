// Bearer-key check with constant-time comparison against every configured key.
import { timingSafeEqual } from "node:crypto";

const digest = (s: string) => new Bun.CryptoHasher("sha256").update(s).digest();

export function makeKeyCheck(keys: string[]): (header: string | null) => boolean {
  const digests = keys.map(digest);
  return (header) => {
    const m = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    const presented = digest(m?.[1] ?? "");
    let ok = false;
    // Compare against every key (no early exit) so timing does not reveal which key matched.
    for (const d of digests) ok = timingSafeEqual(d, presented) || ok;
    return ok && m !== null;
  };
}
