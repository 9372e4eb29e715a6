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

const doc = <const S extends Omit<RouteSpec, "tag" | "summary">>(summary: string, s: S) =>
  spec({ tag: "sessions", summary, ...s });
const SWEEP_SCOPE = "Optional body {user_id?, agent_id?} narrows the sweep; none = every session.";

export const sessionRoutes = (s: Services) =>
  router()
    .post(
      "/sessions",
      ({ body }) => s.sessions.create(body),
      doc("Start a session", {
        description: "Over limits.maxActiveSessions or limits.maxSessionsPerDevice → 409 CONFLICT.",
        body: CreateSessionInput,
        response: SessionResponse,
        errors: ["CONFLICT"],
      }),
    )
    .post(
      "/sessions/expire-idle",
      ({ body }) => s.sessions.expireIdle(body),
      doc("Persist idle and ended states that time has reached", {
        description: SWEEP_SCOPE,
        body: SweepInput,
        optionalBody: true,
        response: ExpireIdleResponse,
      }),
    )
    .post(
      "/sessions/cleanup",
      ({ body }) => s.sessions.cleanup(body),
      doc("Archive (archiveAfter) and delete (deleteEndedAfter) ended sessions", {
        description: SWEEP_SCOPE,
        body: SweepInput,
        optionalBody: true,
        response: CleanupResponse,
      }),
    )
    .get(
      "/sessions",
      ({ query }) => s.sessions.list(query),
      doc("A user's sessions, newest first", { query: ListSessionsInput, response: SessionListResponse }),
    )
    .get(
      "/sessions/:id",
      ({ params, query }) => s.sessions.get({ id: params.id, user_id: query.user_id }),
      doc("One session with its current state", {
        params: SessionPath,
        query: SessionUserInput,
        response: SessionResponse,
        errors: ["NOT_FOUND"],
      }),
    )
    .post(
      "/sessions/:id/touch",
      ({ params, body }) => s.sessions.touch(params.id, body),
      doc("Record activity", {
        description: "Idle → active; with autoExtend, expires_at = max(expires_at, now + maxDuration). Ended → 409.",
        params: SessionPath,
        body: SessionUserInput,
        response: SessionResponse,
        errors: ["NOT_FOUND", "CONFLICT"],
      }),
    )
    .post(
      "/sessions/:id/end",
      ({ params, body }) => s.sessions.end(params.id, body),
      doc("End a session (an ended one is returned unchanged)", {
        params: SessionPath,
        body: SessionUserInput,
        response: SessionResponse,
        errors: ["NOT_FOUND"],
      }),
    );
