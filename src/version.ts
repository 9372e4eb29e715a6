// The release version, read from package.json at build time (bundled into the binary).
import pkg from "../package.json" with { type: "json" };

export const VERSION: string = pkg.version;
