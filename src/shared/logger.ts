// A small levelled logger writing one line per event to a sink (stderr by default, so stdout
// stays free for the MCP stdio protocol; a file when configured; nothing when logging is off).
import { appendFileSync } from "node:fs";

export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Logger {
  level: LogLevel;
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  enabled(level: LogLevel): boolean;
}

export type LogSink = (line: string) => void;

export const stderrSink: LogSink = (line) => {
  process.stderr.write(line + "\n");
};

/**
 * Appends each line to `path`. The file is touched at once, so a path that cannot be written fails at
 * start rather than at the first log line; a line that cannot be written later goes to stderr.
 */
export function fileSink(path: string): LogSink {
  appendFileSync(path, "");
  return (line) => {
    try {
      appendFileSync(path, line + "\n");
    } catch {
      stderrSink(line);
    }
  };
}

export const noSink: LogSink = () => {};

const formatFields = (fields?: Record<string, unknown>): string => {
  if (!fields) return "";
  const parts = Object.entries(fields)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === "string" ? JSON.stringify(v) : String(v)}`);
  return parts.length ? " " + parts.join(" ") : "";
};

export function createLogger(level: LogLevel = "info", sink: LogSink = stderrSink): Logger {
  const rank = (l: LogLevel) => LOG_LEVELS.indexOf(l);
  const logger: Logger = {
    level,
    enabled: (l) => rank(l) >= rank(logger.level),
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
  function write(l: LogLevel, msg: string, fields?: Record<string, unknown>) {
    if (!logger.enabled(l)) return;
    sink(`${new Date().toISOString()} ${l.toUpperCase().padEnd(5)} ${msg}${formatFields(fields)}`);
  }
  return logger;
}

export const silentLogger = (): Logger => createLogger("error", noSink);
