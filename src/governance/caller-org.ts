// The organization a governance operation belongs to: its caller's (SPEC §8). An input may name it; naming
// another one answers NOT_FOUND, as another organization's ids do, so no caller learns which exist.
import { notFound } from "~/shared/errors";

/** `caller`'s organization, checked against the one the input names (undefined: it names none). */
export function ownOrg(caller: string, named: unknown): string {
  if (named !== undefined && named !== caller) throw notFound("organization", String(named));
  return caller;
}
