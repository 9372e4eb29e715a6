// SPEC §2.1: a body over the limit is a 413 PAYLOAD_TOO_LARGE with the error envelope, however it is
// sent; before, Bun answered bodies a little over the limit itself, with an empty body.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { loadConfig } from "~/config/load-config";
import { startServer, type RunningServer } from "~/main";
import { silentLogger } from "~/shared/logger";
import { bodyOf, openConnection, statusOf } from "../support/raw-http";

let server: RunningServer;
beforeAll(async () => {
  const config = loadConfig({ options: { storeUrl: "sqlite::memory:", port: 0, maxBodyBytes: 4096 } });
  server = await startServer(config, { logger: silentLogger(), embedder: null });
});
afterAll(() => server.stop());

const TOO_LARGE = { success: false, error: "request body exceeds 4096 bytes", code: "PAYLOAD_TOO_LARGE" };

/** Writes the head and `bytes` of body, as fast as the socket takes them; resolves with all the server sent. */
async function send(head: string, bytes: number, chunked: boolean): Promise<string> {
  const c = await openConnection(server.port);
  c.socket.write(head);
  const piece = "a".repeat(16 * 1024);
  for (let sent = 0; sent < bytes; sent += piece.length)
    if (!c.socket.write(chunked ? `${piece.length.toString(16)}\r\n${piece}\r\n` : piece)) break;
  return c.response;
}

describe("a body over the limit on a real server", () => {
  test("with a Content-Length far over the limit is answered 413 with the envelope, and the connection closed", async () => {
    const head = `POST /add_memories HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n`;
    const response = await send(head, 200_000, false);
    expect(statusOf(response)).toBe(413);
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
    expect(bodyOf(response)).toEqual(TOO_LARGE);
  });

  test("streamed in chunks without a length is answered 413 with the envelope", async () => {
    const head = `POST /add_memories HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
    const response = await send(head, 200_000, true);
    expect(statusOf(response)).toBe(413);
    expect(bodyOf(response)).toEqual(TOO_LARGE);
  });

  test("a body at the limit is still read", async () => {
    const memory = "x".repeat(4096 - JSON.stringify({ user_id: "u", memory: "" }).length);
    const r = await fetch(`${server.url}/add_memories`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ user_id: "u", memory }),
    });
    expect(r.status).toBe(200);
  });
});
