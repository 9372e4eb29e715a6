// Administration of an organization (SPEC §8), admin keys only: the identity keys (create, list,
// revoke; the secret of a new key is in the creation answer only) and the request audit log.
import { router } from "./router";
import type { Services } from "~/services";
import { spec, type RouteSpec } from "./route-spec";
import { orgScopeOf } from "./access";
import { ACCESS } from "~/identity/access";
import { AuditPage, AuditPageInput } from "~/identity/audit.schema";
import { CreateKeyInput, CreateKeyResponse, KeyListResponse, KeyPath, RevokeKeyResponse } from "~/identity/keys.schema";

const doc = <const S extends Omit<RouteSpec, "tag" | "summary" | "access">>(summary: string, s: S) =>
  spec({ tag: "admin", summary, access: ACCESS.admin, ...s });

export const adminRoutes = (s: Services) =>
  router("/admin")
    .post(
      "/keys",
      ({ body, request }) => s.keys.create(orgScopeOf(request).org, body),
      doc("Create an identity key of this organization", {
        description:
          "The answer carries the whole key (egk_<id>_<secret>) once; only a digest of the secret is stored. " +
          "Member and reader keys need user_id. The key belongs to the caller's organization.",
        body: CreateKeyInput,
        response: CreateKeyResponse,
      }),
    )
    .get(
      "/keys",
      ({ request }) => s.keys.list(orgScopeOf(request).org),
      doc("The organization's keys, newest first (no secrets)", { response: KeyListResponse }),
    )
    .delete(
      "/keys/:id",
      ({ params, request }) => s.keys.revoke(orgScopeOf(request).org, params.id),
      doc("Revoke a key", {
        description:
          "From the next request on, on every server process sharing the store, the key answers 401. A key of another organization: 404.",
        params: KeyPath,
        response: RevokeKeyResponse,
        errors: ["NOT_FOUND"],
      }),
    );

export const auditRoutes = (s: Services) =>
  router().get(
    "/audit",
    ({ query, request }) => s.audit.page(orgScopeOf(request).org, query),
    doc("The organization's request audit log, oldest first", {
      description:
        "Every request authenticated by a key or token (reads included): time, principal, method, route, target user, " +
        "status, duration. Filters: from/to (ISO date or epoch ms), principal, user_id; next_cursor pages on.",
      query: AuditPageInput,
      response: AuditPage,
      writes: false,
    }),
  );
