// The stable pseudonym that replaces an erased user's id where records must outlive the erasure (the
// audit log, the deletion-request log): an HMAC of the organization and id under the store's own random
// key — the same user always gets the same pseudonym, and the id cannot be computed back without guessing it.
import type { Owner } from "~/store/store";

/**
 * The organization is part of the message: "alice" of acme and "alice" of another organization are two
 * people, and their erasures must not look like one person's.
 */
export function pseudonymOf(key: Uint8Array, owner: Owner): string {
  const mac = new Bun.CryptoHasher("sha256", key).update(JSON.stringify([owner.org, owner.userId])).digest("hex");
  return `erased-${mac.slice(0, 24)}`;
}
