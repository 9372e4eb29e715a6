// The client address of a request as the listener saw it (Bun's server.requestIP), for the limits
// kept per address (SPEC §8). Requests handled in-process (tests, the SDK) have none: "unknown".
const addressOf = new WeakMap<Request, string>();

export function setClientAddress(request: Request, address: string | undefined): void {
  if (address) addressOf.set(request, address);
}

export const clientAddressOf = (request: Request): string => addressOf.get(request) ?? "unknown";

/** Keeps the address when a request is re-addressed (pipeline.ts routable). */
export function copyClientAddress(from: Request, to: Request): void {
  const address = addressOf.get(from);
  if (address) addressOf.set(to, address);
}
