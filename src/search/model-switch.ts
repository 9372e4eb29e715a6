// A configured model that is not in the models folder yet (SPEC §4): the server serves at once with the
// built-in model, downloads this one in the background (pull.ts: resumable; retried with growing pauses
// while the hub is out of reach), then loads it and switches search to it, which re-embeds in the
// background. Nothing here is awaited by a request or the MCP handshake; /health shows the progress.
import type { Logger } from "~/shared/logger";
import type { Embedder } from "./embedder";
import { pullModel, type PullProgress } from "./model/pull";
import type { SearchService } from "./search.service";

export type DownloadState = "downloading" | "retrying" | "loading" | "done" | "failed";

export interface DownloadStatus {
  model: string;
  state: DownloadState;
  /** The file being fetched, its bytes on disk and its size (when the hub said). */
  file: string | null;
  received: number;
  total: number | null;
  /** Download attempts so far (the first included). */
  attempts: number;
  /** Why the last attempt failed (retrying), or why the model cannot be used (failed). */
  error?: string;
}

export interface ModelSwitchOptions {
  id: string;
  modelsDir: string;
  hub?: string;
  search: SearchService;
  /** The embedder of the downloaded model (loaded from the models folder, never from the network). */
  load: () => Embedder;
  logger: Logger;
  /** Pause before the first retry, doubled each time up to `maxRetryMs` (defaults 5 s and 5 min). */
  retryMs?: number;
  maxRetryMs?: number;
  /** Told every change of the status (tests wait on it instead of polling). */
  onStatus?: (s: DownloadStatus) => void;
}

/** A model the hub does not have, or that does not load: retrying would not help. */
const PERMANENT = /was not found at|has no ONNX weights|could not be loaded|returned no embedding/;

export class ModelSwitch {
  private current: DownloadStatus;
  private readonly abort = new AbortController();
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private lastLogged = -1;
  private readonly waiting: { test: (s: DownloadStatus) => boolean; resolve: (s: DownloadStatus) => void }[] = [];

  constructor(private readonly o: ModelSwitchOptions) {
    this.current = { model: o.id, state: "downloading", file: null, received: 0, total: null, attempts: 0 };
  }

  get status(): DownloadStatus {
    return { ...this.current };
  }

  /** Resolves with the first status (the current one included) that passes `test`. */
  reached(test: (s: DownloadStatus) => boolean): Promise<DownloadStatus> {
    if (test(this.current)) return Promise.resolve(this.status);
    return new Promise((resolve) => this.waiting.push({ test, resolve }));
  }

  /** Starts the download in the background (idempotent); resolves once the model is in use, or has failed for good. */
  start(): Promise<void> {
    return (this.running ??= this.run());
  }

  /** Stops a download under way (the partial file stays, for the next start to continue). */
  async close(): Promise<void> {
    this.abort.abort();
    this.wake?.();
    await this.running;
  }

  private set(next: Partial<DownloadStatus>): void {
    this.current = { ...this.current, ...next };
    this.o.search.noteDownload(this.status);
    this.o.onStatus?.(this.status);
    for (const w of this.waiting.splice(0))
      (w.test(this.current) ? w.resolve : (_: unknown) => this.waiting.push(w))(this.status);
  }

  private async run(): Promise<void> {
    const { id, logger } = this.o;
    logger.info("downloading the embedding model in the background; search uses the built-in model meanwhile", {
      model: id,
    });
    for (let pause = this.o.retryMs ?? 5_000; !this.abort.signal.aborted; ) {
      this.set({ state: "downloading", attempts: this.current.attempts + 1, error: undefined });
      try {
        await pullModel({
          id,
          modelsDir: this.o.modelsDir,
          hub: this.o.hub,
          signal: this.abort.signal,
          onProgress: (p) => this.progress(p),
        });
        return await this.use();
      } catch (e) {
        if (this.abort.signal.aborted) return;
        const error = (e as Error).message;
        if (PERMANENT.test(error)) return this.fail(error);
        this.set({ state: "retrying", error });
        logger.warn("model download failed; retrying", { model: id, error, retry_in_ms: pause });
        await this.pause(pause);
        pause = Math.min(2 * pause, this.o.maxRetryMs ?? 300_000);
      }
    }
  }

  private progress(p: PullProgress): void {
    this.set({ file: p.file, received: p.received, total: p.total });
    const quarter = p.total ? Math.floor((4 * p.received) / p.total) : -1;
    if (p.file.endsWith(".onnx") && quarter > this.lastLogged) {
      this.lastLogged = quarter;
      this.o.logger.info("model download progress", {
        model: this.o.id,
        file: p.file,
        received: p.received,
        total: p.total,
      });
    }
  }

  private async use(): Promise<void> {
    this.set({ state: "loading" });
    try {
      await this.o.search.switchTo(this.o.load());
    } catch (e) {
      return this.fail((e as Error).message);
    }
    this.set({ state: "done" });
    this.o.logger.info("switched search to the downloaded model", { model: this.o.id });
  }

  private fail(error: string): void {
    this.set({ state: "failed", error });
    this.o.logger.error("the configured embedding model cannot be used; search stays on the built-in model", {
      model: this.o.id,
      error,
    });
  }

  /** Waits `ms`, or less when closed. */
  private pause(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}
