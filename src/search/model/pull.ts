// Downloads a transformers.js model from a Hugging Face–style hub (ENGRAM_MODEL_HUB) into the models
// folder: the quantized ONNX file when the repository has one, resumable (each file grows in a staging
// folder and continues with an HTTP Range request), and moved into place only when complete.
import { existsSync, mkdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { dirname, join } from "node:path";

export const DEFAULT_HUB = "https://huggingface.co";

/** The files a feature-extraction model needs, small ones first: a missing repository fails fast. */
const REQUIRED = ["config.json", "tokenizer_config.json", "tokenizer.json"] as const;
/** ONNX weights in order of preference: int8 first (4× smaller, what transformers.js runs as "q8"). */
const WEIGHTS = ["onnx/model_quantized.onnx", "onnx/model.onnx"] as const;

export interface PullProgress {
  file: string;
  /** Bytes of this file on disk so far, and its size when the hub said it. */
  received: number;
  total: number | null;
}

export interface PullOptions {
  /** A hub model id: owner/name. */
  id: string;
  modelsDir: string;
  /** Base URL of the hub; files are read from `{hub}/{id}/resolve/{revision}/{file}` as transformers.js does. */
  hub?: string;
  revision?: string;
  onProgress?: (p: PullProgress) => void;
  signal?: AbortSignal;
}

export interface PulledModel {
  folder: string;
  /** Whether the int8 weights were found (else full precision). */
  quantized: boolean;
}

const MODEL_ID = /^[A-Za-z0-9][\w.-]*\/[A-Za-z0-9][\w.-]*$/;

/** True for an id `models pull` may fetch: owner/name, no path tricks. */
export const isHubModelId = (id: string): boolean => MODEL_ID.test(id) && !id.split("/").some((p) => p === "..");

/** Where a model lives once pulled, and whether it is there (a folder is moved in only when complete). */
export const modelFolder = (modelsDir: string, id: string): string => join(modelsDir, id);
export const isPulled = (modelsDir: string, id: string): boolean =>
  existsSync(join(modelFolder(modelsDir, id), "config.json"));

class NotOnHub extends Error {}

export async function pullModel(o: PullOptions): Promise<PulledModel> {
  if (!isHubModelId(o.id)) throw new Error(`'${o.id}' is not a hub model id (owner/name)`);
  const folder = modelFolder(o.modelsDir, o.id);
  if (isPulled(o.modelsDir, o.id)) return { folder, quantized: existsSync(join(folder, WEIGHTS[0])) };
  // The staging folder survives a failed or interrupted pull: the next one continues where it stopped.
  const staging = join(o.modelsDir, ".downloads", o.id);
  const url = (file: string) =>
    `${(o.hub ?? DEFAULT_HUB).replace(/\/+$/, "")}/${o.id}/resolve/${o.revision ?? "main"}/${file}`;
  try {
    for (const file of REQUIRED) await download(url(file), join(staging, file), file, o);
  } catch (e) {
    if (e instanceof NotOnHub) throw new Error(`model ${o.id} was not found at ${o.hub ?? DEFAULT_HUB} (${e.message})`);
    throw e;
  }
  let quantized = false;
  for (const [i, file] of WEIGHTS.entries()) {
    try {
      await download(url(file), join(staging, file), file, o);
      quantized = i === 0;
      break;
    } catch (e) {
      if (!(e instanceof NotOnHub) || i === WEIGHTS.length - 1)
        throw e instanceof NotOnHub ? new Error(`model ${o.id} has no ONNX weights (${WEIGHTS.join(", ")})`) : e;
    }
  }
  mkdirSync(dirname(folder), { recursive: true });
  rmSync(folder, { recursive: true, force: true });
  renameSync(staging, folder);
  return { folder, quantized };
}

/** One file into `path`, continuing a partial `path.part`; the finished file is renamed from it. */
async function download(url: string, path: string, file: string, o: PullOptions): Promise<void> {
  if (existsSync(path)) return;
  const part = `${path}.part`;
  mkdirSync(dirname(part), { recursive: true });
  let offset = existsSync(part) ? statSync(part).size : 0;
  const res = await fetch(url, {
    headers: offset ? { range: `bytes=${offset}-` } : {},
    redirect: "follow",
    ...(o.signal ? { signal: o.signal } : {}),
  });
  if (res.status === 404) throw new NotOnHub(`${file}: 404`);
  if (res.status === 416 && offset) {
    // The partial file is not a prefix of the remote one (it changed, or is shorter now): start over.
    await res.body?.cancel();
    rmSync(part, { force: true });
    return download(url, path, file, o);
  }
  if (res.status !== 200 && res.status !== 206) throw new Error(`${url} answered HTTP ${res.status}`);
  if (res.status === 200) offset = 0; // no range support (or a fresh start): the whole file comes again
  const total = totalSize(res, offset);
  const out = await open(part, offset ? "a" : "w");
  let received = offset;
  try {
    o.onProgress?.({ file, received, total });
    for await (const chunk of res.body ?? []) {
      await out.write(chunk as Uint8Array);
      received += (chunk as Uint8Array).byteLength;
      o.onProgress?.({ file, received, total });
    }
  } finally {
    await out.close();
  }
  if (total !== null && received !== total) throw new Error(`${file}: got ${received} of ${total} bytes`);
  renameSync(part, path);
}

/** The whole file's size: Content-Range's total for a 206, else offset + Content-Length. */
function totalSize(res: Response, offset: number): number | null {
  const range = res.headers.get("content-range");
  const whole = range ? /\/(\d+)$/.exec(range)?.[1] : undefined;
  if (whole) return Number(whole);
  const length = res.headers.get("content-length");
  return length === null ? null : offset + Number(length);
}
