// HTTP for the sessions API (SPEC §5.8); each handler hands validated input to SessionsService.
import { router } from "./router";
import type { Services } from "~/services";
import {
  CleanupResponse,
  CreateSessionInput,
  ExpireIdleResponse,
  ListSessionsInput,
  SessionListResponse,
  SessionPath,
  SessionResponse,
  SessionUserInput,
  SweepInput,
} from "~/sessions/sessions.schema";
import { spec, type RouteSpec } from "./route-spec";
import { orgScopeOf, userScopeOf } from "./access";
import { ACCESS } from "~/identity/access";

const doc = <const S extends Omit<RouteSpec, "tag" | "summary">>(summary: string, s: S) =>
  spec({ tag: "sessions", summary, ...s });
const SWEEP_SCOPE = "Optional body {user_id?, agent_id?} narrows the sweep; none = every session.";

export const sessionRoutes = (s: Services) =>
  router()
    .post(
      "/sessions",
      ({ body, request }) => s.sessions.create(userScopeOf(request), body),
      doc("Start a session", {
        description: "Over limits.maxActiveSessions or limits.maxSessionsPerDevice → 409 CONFLICT.",
        body: CreateSessionInput,
        response: SessionResponse,
        errors: ["CONFLICT"],
        access: ACCESS.userWrite,
      }),
    )
    .post(
      "/sessions/expire-idle",
      ({ body, request }) => s.sessions.expireIdle(body ?? {}, orgScopeOf(request).org),
      doc("Persist idle and ended states that time has reached", {
        description: SWEEP_SCOPE,
        body: SweepInput,
        optionalBody: true,
        response: ExpireIdleResponse,
        access: ACCESS.admin,
      }),
    )
    .post(
      "/sessions/cleanup",
      ({ body, request }) => s.sessions.cleanup(body ?? {}, orgScopeOf(request).org),
      doc("Archive (archiveAfter) and delete (deleteEndedAfter) ended sessions", {
        description: SWEEP_SCOPE,
        body: SweepInput,
        optionalBody: true,
        response: CleanupResponse,
        access: ACCESS.admin,
      }),
    )
    .get(
      "/sessions",
      ({ query, request }) => s.sessions.list(userScopeOf(request), query),
      doc("A user's sessions, newest first", {
        query: ListSessionsInput,
        response: SessionListResponse,
        access: ACCESS.userRead,
      }),
    )
    .get(
      "/sessions/:id",
      ({ params, request }) => s.sessions.get(userScopeOf(request), params.id),
      doc("One session with its current state", {
        params: SessionPath,
        query: SessionUserInput,
        response: SessionResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userRead,
      }),
    )
    .post(
      "/sessions/:id/touch",
      ({ params, request }) => s.sessions.touch(userScopeOf(request), params.id),
      doc("Record activity", {
        description: "Idle → active; with autoExtend, expires_at = max(expires_at, now + maxDuration). Ended → 409.",
        params: SessionPath,
        body: SessionUserInput,
        optionalBody: true,
        response: SessionResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
        access: ACCESS.userWrite,
      }),
    )
    .post(
      "/sessions/:id/end",
      ({ params, request }) => s.sessions.end(userScopeOf(request), params.id),
      doc("End a session (an ended one is returned unchanged)", {
        params: SessionPath,
        body: SessionUserInput,
        optionalBody: true,
        response: SessionResponse,
        errors: ["NOT_FOUND"],
        access: ACCESS.userWrite,
      }),
    );
