// Deterministic synthetic memory texts (5–40 words) for benchmarks: a seeded PRNG over a
// vocabulary of everyday words, so runs are comparable.

export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = (
  "coffee tea morning meeting project deadline python typescript database server deploy weekend hiking mountain " +
  "lake dog cat sister brother birthday party dinner restaurant pizza sushi vegetarian allergy peanut doctor " +
  "appointment dentist gym running marathon bicycle car train flight vacation italy japan paris berlin london " +
  "office remote team manager report budget invoice client email slack calendar reminder book novel music guitar " +
  "piano concert movie series garden tomato flower rain snow summer winter spring autumn school university exam " +
  "lecture research paper conference talk slides keyboard laptop monitor phone password backup cloud storage " +
  "prefers likes dislikes wants needs plans remembered mentioned decided started finished moved visited bought " +
  "every usually never always often sometimes today yesterday tomorrow week month year early late quiet busy"
).split(" ");

export function makeText(rnd: () => number, min = 5, max = 40): string {
  const n = min + Math.floor(rnd() * (max - min + 1));
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
  return out.join(" ");
}
