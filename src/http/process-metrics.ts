// The standard process_* metrics of Prometheus clients, read at scrape time: CPU from process.cpuUsage,
// memory, file descriptors and limits from /proc/self on Linux. Elsewhere only what the runtime knows.
import { readdirSync, readFileSync } from "node:fs";
import type { Family } from "./prometheus";

/** Epoch seconds of the process start: performance.timeOrigin is when this process began. */
const START = performance.timeOrigin / 1000;

const readProc = (file: string) => {
  try {
    return readFileSync(`/proc/self/${file}`, "utf8");
  } catch {
    return null;
  }
};
/** A "Name:   123 kB" line of /proc/self/status, in bytes. */
const statusBytes = (status: string, name: string) => {
  const kb = new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(status)?.[1];
  return kb === undefined ? undefined : Number(kb) * 1024;
};

const gauge = (name: string, help: string, value: number | undefined): Family[] =>
  value === undefined ? [] : [{ name, help, type: "gauge", samples: [{ value }] }];

function openFds(): number | undefined {
  try {
    return readdirSync("/proc/self/fd").length - 1; // minus the descriptor that reads the folder
  } catch {
    return undefined;
  }
}

export function processFamilies(): Family[] {
  const cpu = process.cpuUsage();
  const status = readProc("status") ?? "";
  const maxFds = /^Max open files\s+(\d+)/m.exec(readProc("limits") ?? "")?.[1];
  return [
    {
      name: "process_cpu_user_seconds_total",
      help: "User CPU time spent, in seconds",
      type: "counter",
      samples: [{ value: cpu.user / 1e6 }],
    },
    {
      name: "process_cpu_system_seconds_total",
      help: "System CPU time spent, in seconds",
      type: "counter",
      samples: [{ value: cpu.system / 1e6 }],
    },
    {
      name: "process_cpu_seconds_total",
      help: "User and system CPU time spent, in seconds",
      type: "counter",
      samples: [{ value: (cpu.user + cpu.system) / 1e6 }],
    },
    ...gauge("process_start_time_seconds", "Start time of the process since the Unix epoch, in seconds", START),
    ...gauge(
      "process_resident_memory_bytes",
      "Resident memory (VmRSS), in bytes: includes the store pages mapped from the page cache",
      statusBytes(status, "VmRSS") ?? process.memoryUsage().rss,
    ),
    ...gauge(
      "process_private_memory_bytes",
      "Private anonymous memory (RssAnon), in bytes: the process's own memory",
      statusBytes(status, "RssAnon"),
    ),
    ...gauge("process_virtual_memory_bytes", "Virtual memory size (VmSize), in bytes", statusBytes(status, "VmSize")),
    ...gauge("process_open_fds", "Open file descriptors", openFds()),
    ...gauge("process_max_fds", "Limit of open file descriptors", maxFds === undefined ? undefined : Number(maxFds)),
  ];
}
