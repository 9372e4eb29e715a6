// Opaque list cursors: base64url of "created_at.rowid" of the last row served.
import { validationError } from "~/shared/errors";

export const encodeCursor = (createdAt: number, rowid: number): string =>
  Buffer.from(`${createdAt}.${rowid}`).toString("base64url");

export function decodeCursor(cursor: string): [number, number] {
  const m = /^(\d{1,16})\.(\d{1,16})$/.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw validationError("cursor", "cursor is not a next_cursor returned by list_memories");
  return [Number(m[1]), Number(m[2])];
}
