// `engram models pull <id>`: downloads a transformers.js model into ENGRAM_MODELS_DIR with a progress
// bar on stderr (a line per tenth when stderr is not a terminal); run it again to resume.
import type { Config } from "~/config/config.schema";
import { isHubModelId, pullModel, type PullProgress } from "~/search/model/pull";
import { EXIT } from "./exit-codes";

const MB = (n: number) => (n / 1e6).toFixed(1);

/** Draws one file's progress: a bar in a terminal, else a line at each tenth. */
export function progressPrinter(write: (s: string) => void, tty: boolean): (p: PullProgress) => void {
  let lastFile = "";
  let lastTenth = -1;
  return (p) => {
    const share = p.total ? p.received / p.total : 0;
    const size = p.total ? `${MB(p.received)}/${MB(p.total)} MB` : `${MB(p.received)} MB`;
    if (p.file !== lastFile) {
      if (lastFile && tty) write("\n");
      lastFile = p.file;
      lastTenth = -1;
    }
    if (tty) {
      const width = 30;
      const filled = Math.round(share * width);
      write(`\r${p.file} [${"#".repeat(filled)}${".".repeat(width - filled)}] ${Math.floor(share * 100)}% ${size}`);
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth > lastTenth) {
      lastTenth = tenth;
      write(`${p.file} ${tenth * 10}% ${size}\n`);
    }
  };
}

export async function models(config: Config, args: string[]): Promise<number> {
  const [sub, id, ...extra] = args;
  if (sub !== "pull" || !id || extra.length) {
    console.error("engram: usage: engram models pull <owner/name>");
    return EXIT.USAGE;
  }
  if (!isHubModelId(id)) {
    console.error(`engram: '${id}' is not a hub model id (owner/name)`);
    return EXIT.USAGE;
  }
  const tty = process.stderr.isTTY === true;
  const progress = progressPrinter((s) => process.stderr.write(s), tty);
  const pulled = await pullModel({ id, modelsDir: config.modelsDir, hub: config.modelHub, onProgress: progress });
  if (tty) process.stderr.write("\n");
  console.log(
    `${id} ready in ${pulled.folder} (${pulled.quantized ? "int8 weights" : "full-precision weights: the hub has no quantized file"}); use it with EMBEDDING_MODEL=${id}`,
  );
  return EXIT.OK;
}
