// GET /metrics: the seed's JSON fields, and the Prometheus text format that `promtool check metrics`
// accepts, with HTTP, search, embedding, store, build and process metrics.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { buildTestApp, type TestApp } from "../support/app";
import { LetterEmbedder } from "../support/embedders";
import { Histogram } from "~/shared/histogram";
import { toPrometheus } from "~/http/prometheus";

const PROMTOOL = Bun.which("promtool");
let t: TestApp;
let text: string;
beforeAll(async () => {
  t = await buildTestApp({ embedder: new LetterEmbedder() });
  await t.post("/add_memories", { user_id: "u1", memory: "green tea in the morning" });
  await t.post("/add_memories", { user_id: "u2", memory: "black coffee at noon" });
  await t.post("/search_memory", { user_id: "u1", query: "tea" });
  await t.post("/search_memory", { user_id: "u1", query: "tea" }); // from the search cache
  await t.get("/get_memory?user_id=u1&memory_id=nope");
  await t.get("/no/such/route");
  const r = await t.get("/metrics", { accept: "text/plain;version=0.0.4;q=0.5,*/*;q=0.1" });
  expect(r.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  text = r.body;
});
afterAll(() => t.close());

const sample = (line: string) =>
  text
    .split("\n")
    .find((l) => l.startsWith(`${line} `))
    ?.slice(line.length + 1);

describe("GET /metrics as JSON", () => {
  test("reports the seed's fields", async () => {
    const r = await t.get("/metrics");
    expect(r.body.total_requests).toBe(7);
    expect(r.body.requests_by_endpoint).toEqual({
      "/add_memories": 2,
      "/search_memory": 2,
      "/get_memory": 1,
      "(unmatched)": 1,
      "/metrics": 1,
    });
    expect(r.body.unique_users).toBe(2);
    expect(r.body.cache_hit_rate).toBe(0.5);
    expect(typeof r.body.uptime).toBe("number");
    expect(typeof r.body.avg_response_time).toBe("number");
    expect(r.body.search_workers).toBe(0); // a :memory: store ranks on the server thread
  });
});

describe("GET /metrics as Prometheus text", () => {
  test.skipIf(!PROMTOOL)(
    PROMTOOL
      ? "passes `promtool check metrics` with nothing to report"
      : "skipped: promtool is absent (apt-get install prometheus)",
    async () => {
      const check = Bun.spawn([PROMTOOL!, "check", "metrics"], {
        stdin: new TextEncoder().encode(text),
        stderr: "pipe",
      });
      const output = (await new Response(check.stdout).text()) + (await new Response(check.stderr).text());
      expect(output).toBe("");
      expect(await check.exited).toBe(0);
    },
  );

  test("counts requests by method, route pattern and status, and unmatched paths under one route label", () => {
    expect(sample('engram_http_requests_total{method="POST",route="/add_memories",status="200"}')).toBe("2");
    expect(sample('engram_http_requests_total{method="GET",route="/get_memory",status="404"}')).toBe("1");
    expect(sample('engram_http_requests_total{method="GET",route="(unmatched)",status="404"}')).toBe("1");
    expect(text).not.toContain("/no/such/route");
  });

  test("times requests in a histogram by method and route: cumulative buckets, +Inf equal to the count", () => {
    const series = 'method="POST",route="/search_memory"';
    const buckets = text
      .split("\n")
      .filter((l) => l.startsWith(`engram_http_request_duration_seconds_bucket{${series},`))
      .map((l) => Number(l.split(" ")[1]));
    expect(buckets.length).toBe(15);
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(buckets.at(-1)).toBe(2);
    expect(sample(`engram_http_request_duration_seconds_count{${series}}`)).toBe("2");
    expect(Number(sample(`engram_http_request_duration_seconds_sum{${series}}`))).toBeGreaterThan(0);
  });

  test("times searches (not the cached one) and embeddings, by kind", () => {
    expect(sample("engram_search_duration_seconds_count")).toBe("1");
    expect(sample('engram_embedding_duration_seconds_count{kind="query"}')).toBe("1");
    expect(sample('engram_embedding_duration_seconds_count{kind="store"}')).toBe("2");
  });

  test("says what the store holds, the search mode and model, and the version", () => {
    expect(sample("engram_memories")).toBe("2");
    expect(sample("engram_users")).toBe("2");
    expect(Number(sample("engram_store_size_bytes"))).toBeGreaterThan(100_000);
    expect(sample('engram_search_info{mode="hybrid",model="test/letters",state="ready"}')).toBe("1");
    expect(sample(`engram_build_info{version="${t.services.version}"}`)).toBe("1");
  });

  test.skipIf(process.platform !== "linux")(
    "has the process metrics: CPU, resident and private memory, open fds, start time",
    () => {
      for (const name of [
        "process_cpu_user_seconds_total",
        "process_cpu_system_seconds_total",
        "process_cpu_seconds_total",
        "process_resident_memory_bytes",
        "process_private_memory_bytes",
        "process_virtual_memory_bytes",
        "process_open_fds",
        "process_max_fds",
      ])
        expect(Number(sample(name))).toBeGreaterThan(0);
      const start = Number(sample("process_start_time_seconds"));
      expect(start).toBeLessThanOrEqual(Date.now() / 1000);
      expect(start).toBeGreaterThan(Date.now() / 1000 - 24 * 3600);
    },
  );

  test("counts a request of a method outside HTTP's usual ones as method other", async () => {
    await t.raw(new Request("http://localhost/health", { method: "PROPFIND" }));
    const r = await t.get("/metrics", { accept: "text/plain" });
    expect(r.body).toContain('engram_http_requests_total{method="other",route="(unmatched)",status="405"} 1');
  });
});

describe("the exposition format", () => {
  test("escapes label values and puts an observation equal to a bound in that bound's bucket", () => {
    const h = new Histogram([0.1, 1]);
    h.observe(0.1);
    h.observe(5);
    const out = toPrometheus([
      { name: "x_total", help: "a\\b", type: "counter", samples: [{ labels: { l: 'q"b\\n\nx' }, value: 3 }] },
      { name: "y_seconds", help: "h", type: "histogram", series: [{ histogram: h }] },
    ]);
    expect(out).toBe(
      [
        "# HELP x_total a\\\\b",
        "# TYPE x_total counter",
        'x_total{l="q\\"b\\\\n\\nx"} 3',
        "# HELP y_seconds h",
        "# TYPE y_seconds histogram",
        'y_seconds_bucket{le="0.1"} 1',
        'y_seconds_bucket{le="1"} 1',
        'y_seconds_bucket{le="+Inf"} 2',
        "y_seconds_sum 5.1",
        "y_seconds_count 2",
        "",
      ].join("\n"),
    );
  });
});
