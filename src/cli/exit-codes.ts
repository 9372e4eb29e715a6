// Process exit codes, in one table.
export const EXIT = {
  OK: 0,
  /** Unexpected failure at run time (details in the log). */
  FAILURE: 1,
  /** Bad flags, settings or usage; nothing was started. */
  USAGE: 2,
  /** The store is damaged (an integrity check failed); `engram check` reports, `engram repair` rebuilds. */
  DAMAGED: 3,
} as const;
