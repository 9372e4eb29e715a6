// HTTP for the sessions API (SPEC §5.8); each handler hands validated input to SessionsService.
import { router } from "./router";
import type { Services } from "~/services";
import { checkInput } from "~/shared/validate";
import {
  CleanupResponse,
  CreateSessionInput,
  ExpireIdleResponse,
  ListSessionsInput,
  SessionListResponse,
  SessionRef,
  SessionResponse,
  SessionUserInput,
  SweepInput,
} from "~/sessions/sessions.schema";
import { parseQuery } from "./query";
import { routeDoc, type RouteDoc } from "./docs";
import type { TSchema } from "@sinclair/typebox";

const doc = (summary: string, response: TSchema, o: RouteDoc = {}) => routeDoc("sessions", summary, { ...o, response });
const SWEEP_SCOPE = "Optional body {user_id?, agent_id?} narrows the sweep; none = every session.";

export const sessionRoutes = (s: Services) =>
  router()
    // Validated by checkInput, not Elysia: Elysia coerces an array `metadata` into an object.
    .post("/sessions", ({ body }) => s.sessions.create(checkInput(CreateSessionInput, body)), {
      ...doc("Start a session", SessionResponse, {
        body: CreateSessionInput,
        description: "Over limits.maxActiveSessions or limits.maxSessionsPerDevice → 409 CONFLICT.",
      }),
    })
    .post("/sessions/expire-idle", ({ body }) => s.sessions.expireIdle(checkInput(SweepInput, body)), {
      ...doc("Persist idle and ended states that time has reached", ExpireIdleResponse, {
        description: SWEEP_SCOPE,
        body: SweepInput,
        optionalBody: true,
      }),
    })
    .post("/sessions/cleanup", ({ body }) => s.sessions.cleanup(checkInput(SweepInput, body)), {
      ...doc("Archive (archiveAfter) and delete (deleteEndedAfter) ended sessions", CleanupResponse, {
        description: SWEEP_SCOPE,
        body: SweepInput,
        optionalBody: true,
      }),
    })
    .get("/sessions", ({ query }) => s.sessions.list(parseQuery(ListSessionsInput, query)), {
      ...doc("A user's sessions, newest first", SessionListResponse, { query: ListSessionsInput }),
    })
    .get("/sessions/:id", ({ params, query }) => s.sessions.get(parseQuery(SessionRef, { ...query, id: params.id })), {
      ...doc("One session with its current state", SessionResponse, { query: SessionUserInput }),
    })
    .post("/sessions/:id/touch", ({ params, body }) => s.sessions.touch(params.id, body), {
      body: SessionUserInput,
      ...doc("Record activity", SessionResponse, {
        description: "Idle → active; with autoExtend, expires_at = max(expires_at, now + maxDuration). Ended → 409.",
      }),
    })
    .post("/sessions/:id/end", ({ params, body }) => s.sessions.end(params.id, body), {
      body: SessionUserInput,
      ...doc("End a session (an ended one is returned unchanged)", SessionResponse),
    });
