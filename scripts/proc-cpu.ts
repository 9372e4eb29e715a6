// CPU time a process has run, for benchmarks that must not depend on what the neighbours on a shared
// machine do: wall-clock throughput moves with them, the server's own CPU per request much less.

import { readdirSync, readFileSync } from "node:fs";

/** Nanoseconds of CPU the process has run, over all its threads (schedstat's first field; Linux only). */
export function cpuNs(pid: number): number {
  let ns = 0;
  for (const t of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${t}/schedstat`, "utf8").split(" ")[0]);
    } catch {} // a thread that ended meanwhile
  }
  return ns;
}
