// CORS with origin patterns that may wildcard the port (e.g. http://localhost:*).

export function makeOriginCheck(patterns: string[]): (origin: string) => boolean {
  const regexes = patterns.map((p) => {
    if (p === "*") return /^.*$/;
    const escaped = p
      .replace(/[.+?^${}()|[\]\\]/g, "\\$&")
      .replace(/:\\\*$/, ":\\d+")
      .replace(/:\*$/, ":\\d+")
      .replace(/\*/g, "[^/]*");
    return new RegExp(`^${escaped}$`);
  });
  return (origin) => regexes.some((r) => r.test(origin));
}

export function corsHeaders(origin: string): Record<string, string> {
  return {
    "access-control-allow-origin": origin,
    "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
    "access-control-allow-headers": "authorization, content-type, x-user-id, mcp-session-id, mcp-protocol-version",
    "access-control-expose-headers": "mcp-session-id",
    "access-control-max-age": "600",
    vary: "Origin",
  };
}
