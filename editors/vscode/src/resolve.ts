// Finding the jax-lsp executable. Pure logic: no `vscode` import, so it is unit-tested with
// `node --test`. The file system is reached only through `isExecutableFile`.
import * as path from "node:path";

/** Where the binary came from, in the order they are tried. */
export type BinarySource = "bundled" | "setting" | "PATH";

export interface ResolveInput {
  /** `process.platform`. Decides the file name (`jax-lsp.exe` on Windows) and path syntax. */
  platform: string;
  /** The extension's install folder; a bundled binary lives in its `bin/`. */
  extensionPath: string;
  /** The `jax-lsp.path` setting (empty or undefined: not set). */
  configuredPath?: string | null;
  /** First workspace folder, for `${workspaceFolder}` and relative `jax-lsp.path` values. */
  workspaceFolder?: string;
  /** The user's home folder, for `~`. */
  homeDir: string;
  /** `process.env.PATH` (`Path` on Windows). */
  envPath?: string;
  /** `process.env.PATHEXT` on Windows. */
  pathExt?: string;
  /** True when `p` is an existing, executable, regular file. */
  isExecutableFile: (p: string) => boolean;
}

export type Resolution =
  | { ok: true; path: string; source: BinarySource }
  | { ok: false; message: string; tried: string[] };

export const BINARY_NAME = "jax-lsp";

function pathApi(platform: string): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/** The file name of the server binary on `platform`. */
export function binaryFileName(platform: string): string {
  return platform === "win32" ? `${BINARY_NAME}.exe` : BINARY_NAME;
}

/** Path of the binary bundled in the extension package (may not exist). */
export function bundledBinaryPath(extensionPath: string, platform: string): string {
  return pathApi(platform).join(extensionPath, "bin", binaryFileName(platform));
}

/** Expands `~`, `${userHome}` and `${workspaceFolder}` in a `jax-lsp.path` value. */
export function expandSettingPath(
  value: string,
  homeDir: string,
  workspaceFolder: string | undefined,
  platform: string,
): string {
  const p = pathApi(platform);
  let out = value.trim();
  out = out.replace(/\$\{userHome\}/g, homeDir);
  if (workspaceFolder !== undefined) {
    out = out.replace(/\$\{workspaceFolder\}/g, workspaceFolder);
  }
  if (out === "~") {
    out = homeDir;
  } else if (out.startsWith("~/") || (platform === "win32" && out.startsWith("~\\"))) {
    out = p.join(homeDir, out.slice(2));
  }
  return out;
}

/** Candidate file names for `name` in one PATH folder (PATHEXT on Windows). */
function candidateNames(name: string, platform: string, pathExt: string | undefined): string[] {
  if (platform !== "win32") {
    return [name];
  }
  const exts = (pathExt ?? ".COM;.EXE;.BAT;.CMD")
    .split(";")
    .map((e) => e.trim())
    .filter((e) => e.length > 0);
  if (exts.some((e) => name.toLowerCase().endsWith(e.toLowerCase()))) {
    return [name];
  }
  return [name, ...exts.map((e) => name + e.toLowerCase())];
}

/** Looks `name` up on `envPath` like a shell would; undefined when absent. */
export function searchPath(
  name: string,
  envPath: string | undefined,
  platform: string,
  pathExt: string | undefined,
  isExecutableFile: (p: string) => boolean,
  tried: string[] = [],
): string | undefined {
  if (!envPath) {
    return undefined;
  }
  const p = pathApi(platform);
  const delimiter = platform === "win32" ? ";" : ":";
  for (const rawDir of envPath.split(delimiter)) {
    const dir = rawDir.trim().replace(/^"(.*)"$/, "$1");
    if (dir.length === 0) {
      continue; // an empty entry means "."; a language server must not run whatever is in cwd
    }
    for (const file of candidateNames(name, platform, pathExt)) {
      const candidate = p.join(dir, file);
      tried.push(candidate);
      if (isExecutableFile(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}

/**
 * Picks the server binary: the one bundled under `bin/` if the package has one, else the
 * `jax-lsp.path` setting, else `jax-lsp` on PATH.
 */
export function resolveServerBinary(input: ResolveInput): Resolution {
  const p = pathApi(input.platform);
  const tried: string[] = [];

  const bundled = bundledBinaryPath(input.extensionPath, input.platform);
  tried.push(bundled);
  if (input.isExecutableFile(bundled)) {
    return { ok: true, path: bundled, source: "bundled" };
  }

  const setting = (input.configuredPath ?? "").trim();
  if (setting.length > 0) {
    const expanded = expandSettingPath(setting, input.homeDir, input.workspaceFolder, input.platform);
    const hasSeparator = expanded.includes("/") || (input.platform === "win32" && expanded.includes("\\"));
    if (!hasSeparator) {
      // A bare command name such as "jax-lsp-nightly": look it up on PATH.
      const found = searchPath(expanded, input.envPath, input.platform, input.pathExt, input.isExecutableFile, tried);
      if (found !== undefined) {
        return { ok: true, path: found, source: "setting" };
      }
    } else {
      const absolute = p.isAbsolute(expanded)
        ? expanded
        : p.resolve(input.workspaceFolder ?? input.homeDir, expanded);
      tried.push(absolute);
      if (input.isExecutableFile(absolute)) {
        return { ok: true, path: absolute, source: "setting" };
      }
    }
    return {
      ok: false,
      tried,
      message:
        `The jax-lsp.path setting is "${setting}", but no executable jax-lsp was found there. ` +
        `Fix the setting, or clear it to use jax-lsp from PATH.`,
    };
  }

  const onPath = searchPath(BINARY_NAME, input.envPath, input.platform, input.pathExt, input.isExecutableFile, tried);
  if (onPath !== undefined) {
    return { ok: true, path: onPath, source: "PATH" };
  }
  return {
    ok: false,
    tried,
    message:
      "The jax-lsp server was not found: this extension has no bundled binary, the jax-lsp.path " +
      "setting is empty, and jax-lsp is not on PATH. Install it (`cargo install --path .` in the " +
      "jax-lsp repository) and set jax-lsp.path to the binary, or put it on PATH.",
  };
}
