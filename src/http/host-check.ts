// DNS-rebinding protection (SPEC §7, a MUST of the MCP spec): the Host and, when sent, the Origin of
// every request must name this server. A web page whose name was re-pointed at 127.0.0.1 sends its own
// name in both, so a loopback server answers only to loopback names and to what it was told to accept.
import { AppError } from "~/shared/errors";
import { makeOriginCheck } from "./cors";

export interface HostCheckOptions {
  /** The bind address (--host). */
  bindHost: string;
  allowedHosts: string[];
  allowedOrigins: string[];
  corsOrigins: string[];
}

const LOOPBACK_NAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);
const WILDCARD_BINDS = new Set(["0.0.0.0", "::", "[::]"]);

/** "Example.com:80" → ["example.com", "80"]; "[::1]:3000" → ["[::1]", "3000"]. */
function splitHost(host: string): [name: string, port: string | undefined] {
  const m = /^(\[[^\]]*\]|[^:]*)(?::(\d*))?$/.exec(host.trim().toLowerCase());
  return m ? [m[1]!, m[2] || undefined] : [host.toLowerCase(), undefined];
}

const bracketed = (host: string) => (host.includes(":") && !host.startsWith("[") ? `[${host}]` : host).toLowerCase();

/** Returns the check: the error a request gets, or null when its Host and Origin are acceptable. */
export function makeHostCheck(o: HostCheckOptions): (request: Request) => AppError | null {
  const bind = bracketed(o.bindHost);
  const names = new Set([...LOOPBACK_NAMES, ...(WILDCARD_BINDS.has(bind) ? [] : [bind])]);
  const pairs = new Set<string>();
  for (const entry of o.allowedHosts) {
    const [name, port] = splitHost(entry);
    if (port) pairs.add(`${name}:${port}`);
    else names.add(name);
  }
  // A wildcard bind cannot know the names it is reached by: without a list, any Host (as the MCP SDK does).
  const anyHost = o.allowedHosts.includes("*") || (WILDCARD_BINDS.has(bind) && o.allowedHosts.length === 0);
  const judged = (host: string) => {
    const [name, port] = splitHost(host);
    return anyHost || names.has(name) || pairs.has(`${name}:${port}`);
  };
  // Clients send the same few Host values: each is judged once (the parse cost every request 2% of a get).
  const verdicts = new Map<string, boolean>();
  const hostOk = (host: string) => {
    let ok = verdicts.get(host);
    if (ok === undefined) {
      if (verdicts.size >= 256) verdicts.clear();
      verdicts.set(host, (ok = judged(host)));
    }
    return ok;
  };
  const listedOrigin = makeOriginCheck([...o.allowedOrigins, ...o.corsOrigins]);
  const originOk = (origin: string, host: string) => {
    if (listedOrigin(origin)) return true;
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      return false; // "null" (sandboxed frames, files) and anything unparsable
    }
    return LOOPBACK_NAMES.has(url.hostname) || url.host === host.toLowerCase();
  };
  return (request) => {
    // In-process requests (app.handle in tests and the SDK) may carry no Host header: their URL says it.
    const host = request.headers.get("host") ?? new URL(request.url).host;
    if (!hostOk(host))
      return new AppError(
        "FORBIDDEN",
        `Host '${host}' is not allowed; start engram with --allowed-hosts=${host} to accept it`,
      );
    const origin = request.headers.get("origin");
    if (origin !== null && !originOk(origin, host))
      return new AppError(
        "FORBIDDEN",
        `Origin '${origin}' is not allowed; start engram with --allowed-origins=${origin} to accept it`,
      );
    return null;
  };
}
