// Reading the request audit log (SPEC §8: GET /audit, admin only): one organization's entries, oldest
// first, filtered in SQL by time, principal and target user, paged by the last row id seen.
import type { Store, StoredAuditRow } from "~/store/store";
import { orgWide } from "~/shared/store-scope";
import type { Clock } from "~/shared/clock";
import { validationError } from "~/shared/errors";
import { parseDateInput } from "~/governance/validate";
import type { AuditPage, AuditPageInput } from "./audit.schema";

const CURSOR = /^a(\d{1,15})$/;

export class RequestAudit {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** Writes the entries still buffered, so a page includes every request answered before it. */
    private readonly flush: () => Promise<void>,
  ) {}

  async page(org: string, input: AuditPageInput): Promise<AuditPage> {
    const from = input.from === undefined ? 0 : timeOf(input.from, "from");
    const to = input.to === undefined ? this.clock.now() : timeOf(input.to, "to");
    const limit = input.limit ?? 100;
    await this.flush();
    const rows = await this.store.read(
      (r) =>
        r.governance.auditPage({
          orgId: org,
          from,
          to,
          principal: input.principal,
          userId: input.user_id,
          after: input.cursor === undefined ? undefined : afterOf(input.cursor),
          limit: limit + 1,
        }),
      orgWide(org),
    );
    const page = rows.slice(0, limit);
    const more = rows.length > limit;
    return {
      success: true as const,
      results: page.map(entryOf),
      has_more: more,
      next_cursor: more ? Buffer.from(`a${page.at(-1)!.id}`).toString("base64url") : null,
    };
  }
}

function timeOf(value: string, field: "from" | "to"): number {
  const ms = parseDateInput(/^\d{1,15}$/.test(value) ? Number(value) : value);
  if (ms === undefined) throw validationError(field, `${field} must be an ISO date or epoch ms`);
  return ms;
}

function afterOf(cursor: string): number {
  const m = CURSOR.exec(Buffer.from(cursor, "base64url").toString());
  if (!m) throw validationError("cursor", "cursor is not a next_cursor returned by GET /audit");
  return Number(m[1]);
}

const entryOf = (r: StoredAuditRow) => ({
  at: new Date(r.at).toISOString(),
  organization_id: r.organization_id,
  principal: r.principal,
  method: r.method,
  route: r.route,
  path: r.path,
  user_id: r.user_id,
  memory_space_id: r.memory_space_id,
  status: r.status,
  duration_ms: r.duration_ms === null ? null : Math.round(r.duration_ms * 100) / 100,
});
