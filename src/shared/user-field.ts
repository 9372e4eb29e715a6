// The user_id field of every user-scoped request: optional in the schema, because the access rule
// (identity/access.ts) resolves the user — from this field, or from the key's binding (SPEC §8).
import { Type } from "@sinclair/typebox";

export const BOUND_USER_NOTE =
  "Required, unless the API key is bound to a user: then it defaults to that user, and naming another user is 403";

/** `user_id`: 1–256 characters, optional in the schema (see the note), described for each API. */
export const userIdField = (description: string) =>
  Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: `${description}. ${BOUND_USER_NOTE}` }));
