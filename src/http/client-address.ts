// The client address of a request as the listener saw it (Bun's server.requestIP), for the limits
// kept per address (SPEC §8). Requests handled in-process (tests, the SDK) have none: "unknown".
// Asked only when a limit needs it: server.requestIP on every request cost get 3% of its CPU.
const addressOf = new WeakMap<Request, string | (() => string | undefined)>();

/** `address`: the address, or how to ask the listener for it (called at most once, while the request runs). */
export function setClientAddress(request: Request, address: string | undefined | (() => string | undefined)): void {
  if (address) addressOf.set(request, address);
}

export const clientAddressOf = (request: Request): string => {
  const known = addressOf.get(request);
  if (typeof known !== "function") return known ?? "unknown";
  const address = known() ?? "unknown";
  addressOf.set(request, address);
  return address;
};

/** Keeps the address when a request is re-addressed (pipeline.ts routable). */
export function copyClientAddress(from: Request, to: Request): void {
  const address = addressOf.get(from);
  if (address) addressOf.set(to, typeof address === "function" ? () => clientAddressOf(from) : address);
}
