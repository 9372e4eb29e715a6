// Shared spaces of an organization (SPEC §8): admins create, re-member and delete them; every role lists
// the spaces it may see and reads one it belongs to. The memories of a space are reached through the
// memory routes (space_id, spaces, include_shared, promote).
import { router } from "./router";
import type { Services } from "~/services";
import { spec, type RouteSpec } from "./route-spec";
import { orgScopeOf, principalOf } from "./access";
import { ACCESS } from "~/identity/access";
import {
  CreateSpaceInput,
  DeleteSpaceResponse,
  SetMembersInput,
  SpaceListResponse,
  SpacePath,
  SpaceResponse,
} from "~/spaces/spaces.schema";

const doc = <const S extends Omit<RouteSpec, "tag" | "summary">>(summary: string, s: S) =>
  spec({ tag: "spaces", summary, ...s });

export const spaceRoutes = (s: Services) =>
  router()
    .post(
      "/spaces",
      ({ body, request }) => s.spaces.create(orgScopeOf(request).org, body, principalOf(request)?.id ?? null),
      doc("Create a shared space of this organization", {
        description:
          "Members are writers (add and promote memories into it) or readers. Admins of the organization read and " +
          "write every space without being members. An id the organization already uses: 409.",
        body: CreateSpaceInput,
        response: SpaceResponse,
        errors: ["CONFLICT"],
        access: ACCESS.admin,
      }),
    )
    .get(
      "/spaces",
      ({ request }) => s.spaces.list(orgScopeOf(request)),
      doc("The shared spaces the caller may see", {
        description: "An admin: every space of the organization. Anyone else: the spaces their user belongs to.",
        response: SpaceListResponse,
        access: ACCESS.orgRead,
      }),
    )
    .get(
      "/spaces/:id",
      ({ params, request }) => s.spaces.get(orgScopeOf(request), params.id),
      doc("One shared space and its members", {
        description: "Admins and the space's members; anyone else of the organization: 403.",
        params: SpacePath,
        response: SpaceResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.orgRead,
      }),
    )
    .put(
      "/spaces/:id/members",
      ({ params, body, request }) => s.spaces.setMembers(orgScopeOf(request).org, params.id, body),
      doc("Replace a shared space's members", {
        description:
          "The list given becomes the whole membership: users left out lose access at their next request. " +
          "The space's memories stay.",
        params: SpacePath,
        body: SetMembersInput,
        response: SpaceResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.admin,
      }),
    )
    .delete(
      "/spaces/:id",
      ({ params, request }) => s.spaces.delete(orgScopeOf(request).org, params.id),
      doc("Delete a shared space and its memories", {
        description:
          "Deletes the space, its members and everything stored in it (memories with their versions and vectors, " +
          "conversations), in one step. When a minimum retention (FINRA/HIPAA, SPEC §5.4) still holds any of it: " +
          "409 and nothing is deleted.",
        params: SpacePath,
        response: DeleteSpaceResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
        access: ACCESS.admin,
      }),
    );
