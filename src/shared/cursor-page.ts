// The answer shape of every cursor-paged listing (list_memories, conversations): one page of items,
// the total, and the cursor of the next page (null on the last one).
import { Type, type ObjectOptions, type TSchema } from "@sinclair/typebox";

export const CursorPage = <T extends TSchema>(item: T, options?: ObjectOptions) =>
  Type.Object(
    {
      results: Type.Array(item),
      total: Type.Integer(),
      has_more: Type.Boolean(),
      next_cursor: Type.Union([Type.String(), Type.Null()]),
    },
    options,
  );
