// The legacy MCP HTTP+SSE transport (protocol 2024-11-05) as a web-standard Response: one
// long-lived event stream carries the server's messages, the client POSTs its own to the endpoint
// the stream announced first. The SDK's SSEServerTransport needs Node's ServerResponse; this one
// implements the same Transport interface over a ReadableStream, so it runs behind our pipeline.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";

/** Bun closes a connection that carries no bytes for 10 s; a comment line keeps an idle stream open. */
export const KEEPALIVE_MS = 5_000;

const encoder = new TextEncoder();

export class SseTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** The body of the GET answer: what start() and send() write goes out as it is written. */
  readonly stream: ReadableStream<Uint8Array>;
  private controller!: ReadableStreamDefaultController<Uint8Array>;
  private keepalive: Timer | undefined;
  private closed = false;

  constructor(
    readonly sessionId: string,
    /** The URL (path and query) the client is told to POST its messages to. */
    private readonly endpoint: string,
  ) {
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.controller = controller;
      },
      // The client went away: the session ends with it.
      cancel: () => void this.close(),
    });
  }

  async start(): Promise<void> {
    this.write(`event: endpoint\ndata: ${this.endpoint}\n\n`);
    this.keepalive = setInterval(() => this.write(": keepalive\n\n"), KEEPALIVE_MS);
    // An idle stream must not keep the process alive on its own (shutdown closes the sessions anyway).
    this.keepalive.unref?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) throw new Error("the SSE stream is closed");
    this.write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A message POSTed by the client; false when it is not a JSON-RPC message. */
  receive(body: unknown): boolean {
    const parsed = JSONRPCMessageSchema.safeParse(body);
    if (!parsed.success) return false;
    this.onmessage?.(parsed.data);
    return true;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.keepalive);
    try {
      this.controller.close();
    } catch {
      // Already closed or cancelled by the client.
    }
    this.onclose?.();
  }

  private write(text: string): void {
    if (this.closed) return;
    try {
      this.controller.enqueue(encoder.encode(text));
    } catch (e) {
      this.onerror?.(e as Error);
      void this.close();
    }
  }
}
