// The stable pseudonym that replaces an erased user's id where records must outlive the erasure (the
// audit log, the deletion-request log): an HMAC of the id under the store's own random key — the same id
// always gives the same pseudonym, and the id cannot be computed back from it without guessing it.

export function pseudonymOf(key: Uint8Array, userId: string): string {
  const mac = new Bun.CryptoHasher("sha256", key).update(userId).digest("hex");
  return `erased-${mac.slice(0, 24)}`;
}
