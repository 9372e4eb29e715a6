// pathOf and queryParam read a request's path and query from its URL text: they must answer what
// URL.pathname and URL.searchParams answer for every URL a request can carry.
import { describe, expect, test } from "bun:test";
import { pathOf, queryParam } from "~/http/request-url";

const URLS = [
  "http://127.0.0.1:3000/health",
  "http://localhost",
  "http://localhost:8080",
  "http://localhost/?",
  "http://localhost/list_memories?user_id=alice&limit=20",
  "http://localhost/v1/get_memory?memory_id=m1&user_id=a%20b&agent_id=x#frag",
  "http://localhost/p#frag?user_id=not-a-query",
  "http://localhost/p?user_id=a?b#c?d",
  "http://localhost/a/../b/./c",
  "http://localhost//double//slash",
  "http://localhost/caf\u00e9/\u{1F600}?user_id=caf\u00e9",
  "http://localhost/%7Euser/x%2Fy?user_id=%E2%82%AC&user_id=second",
  "http://user:pa%2Fss@localhost:1/p?q=1",
  "http://[::1]:3000/mcp?agent_id=a+b",
  "https://db/x?agent_id=",
  "HTTP://LOCALHOST/Upper?User_Id=1&user_id=2",
  "http://localhost/p?user%5Fid=escaped&agent%5fid=too",
  "http://localhost/p?agent+id=spaced&xagent_id=prefixed&agent_idx=suffixed",
  "http://localhost/p?agent_id=%ZZbad%E2%82&user_id=%",
  "http://localhost/p?&&agent_id&user_id=",
];

describe("a request's path and query without a second URL parse", () => {
  for (const raw of URLS)
    test(`${raw}: the path and user_id/agent_id are URL's own`, () => {
      const request = new Request(raw);
      const url = new URL(request.url);
      expect(pathOf(request)).toBe(url.pathname);
      for (const key of ["user_id", "agent_id", "q", "limit", "agent id"])
        expect(queryParam(request, key)).toBe(url.searchParams.get(key));
    });

  test("a query is parsed only when it may hold the key: written out or percent-escaped", () => {
    const Original = globalThis.URLSearchParams;
    let parses = 0;
    globalThis.URLSearchParams = class extends Original {
      constructor(init?: string) {
        super(init);
        parses++;
      }
    } as typeof URLSearchParams;
    try {
      const get = (url: string, key: string) => queryParam(new Request(url), key);
      expect(get("http://localhost/add_memories", "agent_id")).toBeNull();
      expect(get("http://localhost/get_memory?memory_id=m1&user_id=u", "agent_id")).toBeNull();
      expect(parses).toBe(0);
      expect(get("http://localhost/get_memory?memory_id=m1&user_id=u", "user_id")).toBe("u");
      expect(get("http://localhost/p?agent%5Fid=a", "agent_id")).toBe("a");
      expect(parses).toBe(2);
    } finally {
      globalThis.URLSearchParams = Original;
    }
  });
});
