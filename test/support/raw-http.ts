// Raw HTTP/1.1 over a TCP socket, for what fetch hides: a connection known to be open before its
// request is written, partial bodies, and exactly what the server sends back before it closes.
import type { Socket } from "bun";

export interface RawConnection {
  socket: Socket<undefined>;
  /** Everything the server sent, once it closed the connection (with [CODE] appended on a socket error). */
  response: Promise<string>;
}

/** Resolves once the TCP connection is open (the server's kernel has it), before anything is written. */
export function openConnection(port: number, hostname = "127.0.0.1"): Promise<RawConnection> {
  let text = "";
  let done!: () => void;
  const closed = new Promise<void>((resolve) => (done = resolve));
  return new Promise((resolve, reject) => {
    Bun.connect({
      hostname,
      port,
      socket: {
        open: (socket) => resolve({ socket, response: closed.then(() => text) }),
        data: (_s, chunk) => {
          text += new TextDecoder().decode(chunk);
        },
        close: () => done(),
        error: (_s, e) => {
          text += `[${(e as NodeJS.ErrnoException).code ?? e.message}]`;
          done();
        },
        connectError: (_s, e) => reject(e),
      },
    });
  });
}

/** A complete POST with a JSON body, closing the connection after the response. */
export function jsonPost(port: number, path: string, body: unknown): string {
  const json = JSON.stringify(body);
  return (
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`
  );
}

/** "HTTP/1.1 200 OK\r\n…" → 200; 0 when nothing (or no status line) came back. */
export const statusOf = (response: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(response)?.[1] ?? 0);

/** The JSON body of a raw response (after the blank line). */
export const bodyOf = (response: string): unknown => JSON.parse(response.slice(response.indexOf("\r\n\r\n") + 4));
