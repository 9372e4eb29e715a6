// The sqlite-vec loadable file embedded in the compiled binary. From source there is none
// (sqlite-vec's own lookup finds the running platform's package in node_modules);
// scripts/build.ts swaps this module for one that embeds the target platform's file.
import type { EmbeddedFile } from "~/shared/native-files";

export const EMBEDDED_VEC: EmbeddedFile | null = null;
