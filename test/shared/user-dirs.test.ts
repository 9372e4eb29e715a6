// Default folders per platform: XDG on Linux and macOS, %LOCALAPPDATA%\engram on Windows.
import { describe, expect, test } from "bun:test";
import { resolveStorePath } from "~/config/load-config";
import { userDirs } from "~/shared/user-dirs";

describe("userDirs", () => {
  test("Linux and macOS keep the store under ~/.local/share/engram and the cache under ~/.cache/engram", () => {
    for (const platform of ["linux", "darwin"] as const)
      expect(userDirs({ HOME: "/home/u" }, platform)).toEqual({
        data: "/home/u/.local/share/engram",
        cache: "/home/u/.cache/engram",
      });
  });

  test("XDG_DATA_HOME and XDG_CACHE_HOME move them", () => {
    expect(userDirs({ HOME: "/home/u", XDG_DATA_HOME: "/d", XDG_CACHE_HOME: "/c" }, "linux")).toEqual({
      data: "/d/engram",
      cache: "/c/engram",
    });
  });

  test("Windows keeps both in %LOCALAPPDATA%\\engram", () => {
    const env = { LOCALAPPDATA: "C:\\Users\\ana\\AppData\\Local", USERPROFILE: "C:\\Users\\ana" };
    expect(userDirs(env, "win32")).toEqual({
      data: "C:\\Users\\ana\\AppData\\Local\\engram",
      cache: "C:\\Users\\ana\\AppData\\Local\\engram",
    });
  });

  test("Windows without LOCALAPPDATA falls back to the profile's AppData\\Local", () => {
    expect(userDirs({ USERPROFILE: "C:\\Users\\ana" }, "win32").data).toBe("C:\\Users\\ana\\AppData\\Local\\engram");
  });

  test("on Windows too, XDG_DATA_HOME wins", () => {
    expect(userDirs({ LOCALAPPDATA: "C:\\L", XDG_DATA_HOME: "D:\\data" }, "win32").data).toBe("D:\\data\\engram");
  });
});

describe("resolveStorePath on Windows", () => {
  test("sqlite:///C:/… names the drive, not a folder called /C:", () => {
    expect(resolveStorePath("sqlite:///C:/data/engram.db", "win32")).toBe("C:/data/engram.db");
  });

  test("a drive path and a file: URL are taken as they are", () => {
    expect(resolveStorePath("C:\\data\\engram.db", "win32")).toBe("C:\\data\\engram.db");
    expect(resolveStorePath("file:D:\\e.db", "win32")).toBe("D:\\e.db");
  });
});
