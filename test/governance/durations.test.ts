import { describe, expect, test } from "bun:test";
import {
  DAY_MS,
  HOUR_MS,
  MINUTE_MS,
  YEAR_MS,
  isDuration,
  optionalDurationMs,
  parseDuration,
} from "~/governance/durations";

describe("parseDuration", () => {
  test.each([
    ["30m", 30 * MINUTE_MS],
    ["1h", HOUR_MS],
    ["24h", 24 * HOUR_MS],
    ["7d", 7 * DAY_MS],
    ["30d", 30 * DAY_MS],
    ["90d", 90 * DAY_MS],
    ["1y", 365 * DAY_MS],
    ["7y", 7 * 365 * DAY_MS],
    ["0d", 0],
    ["007d", 7 * DAY_MS],
  ])("reads %p as %p milliseconds", (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
    expect(isDuration(text)).toBe(true);
  });

  test.each([
    ["7years"],
    ["1w"],
    ["7D"],
    ["30 d"],
    ["1.5y"],
    [""],
    [" 7d"],
    ["7d "],
    ["-1d"],
    ["d"],
    ["7"],
    ["1y2d"],
    ["9".repeat(400) + "y"],
  ])("rejects %p", (text) => {
    expect(parseDuration(text)).toBeUndefined();
    expect(isDuration(text)).toBe(false);
  });

  test.each([[7], [null], [undefined], [{}], [["7d"]]])("rejects the non-string %p", (value) => {
    expect(parseDuration(value)).toBeUndefined();
  });

  test("a year is exactly 365 days", () => {
    expect(YEAR_MS).toBe(365 * 24 * 60 * 60 * 1000);
  });

  test("optional durations treat null and undefined as not configured", () => {
    expect(optionalDurationMs(null)).toBeUndefined();
    expect(optionalDurationMs(undefined)).toBeUndefined();
    expect(optionalDurationMs("2h")).toBe(2 * HOUR_MS);
  });
});
