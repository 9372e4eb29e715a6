// Opaque keyset cursors: base64url of "<created_at>.<tie-breaker>" of the last row served.
import { validationError } from "~/shared/errors";

export const encodeCursor = (createdAt: number, tieBreak: string | number): string =>
  Buffer.from(`${createdAt}.${tieBreak}`).toString("base64url");

export function decodeCursor(cursor: string): [number, string] {
  const m = /^(\d{1,16})\.([^\u0000-\u001f]{1,256})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw validationError("cursor", "cursor is not a next_cursor returned by this listing");
  return [Number(m[1]), m[2]!];
}
