// Where Engram keeps its files by default, per platform: the XDG folders on Linux and macOS (as the
// SPEC says), %LOCALAPPDATA%\engram on Windows (local, not roaming: a SQLite file must not roam).
// XDG_DATA_HOME / XDG_CACHE_HOME win everywhere when set.
import { homedir } from "node:os";
import { join, win32 } from "node:path";

type Env = Record<string, string | undefined>;

export interface UserDirs {
  /** The store's folder: `<data>/engram.db`. */
  data: string;
  /** Models (`<cache>/models`) and unpacked native files (`<cache>/native`). */
  cache: string;
}

export function userDirs(env: Env, platform: NodeJS.Platform = process.platform, fallbackHome = homedir()): UserDirs {
  const home = env.HOME || fallbackHome;
  if (platform === "win32") {
    const local = env.LOCALAPPDATA || win32.join(env.USERPROFILE || home, "AppData", "Local");
    return {
      data: env.XDG_DATA_HOME ? win32.join(env.XDG_DATA_HOME, "engram") : win32.join(local, "engram"),
      cache: env.XDG_CACHE_HOME ? win32.join(env.XDG_CACHE_HOME, "engram") : win32.join(local, "engram"),
    };
  }
  return {
    data: join(env.XDG_DATA_HOME || join(home, ".local", "share"), "engram"),
    cache: join(env.XDG_CACHE_HOME || join(home, ".cache"), "engram"),
  };
}
