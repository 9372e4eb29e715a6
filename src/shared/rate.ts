// A rate as the settings write it (SPEC §8: ENGRAM_RATE_LIMIT=600/m): a count per second, minute or hour.

export interface Rate {
  limit: number;
  windowMs: number;
}

const UNITS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000 };
const RATE = /^([1-9]\d{0,8})\/(s|m|h)$/;

/** "600/m" → 600 per minute (s, m, h); "off" → null; anything else → undefined. */
export function parseRate(text: string): Rate | null | undefined {
  const t = text.trim().toLowerCase();
  if (t === "off") return null;
  const m = RATE.exec(t);
  return m ? { limit: Number(m[1]), windowMs: UNITS[m[2]!]! } : undefined;
}
