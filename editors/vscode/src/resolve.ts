// Finding the jax-lsp executable. Pure logic: no `vscode` import, so it is unit-tested with
// `node --test`. The file system is reached only through `isExecutableFile`.
//
// Order (the first executable found wins):
//   1. the `jax-lsp.path` setting (when set, nothing else is tried: a wrong setting is an error);
//   2. the workspace's Python environment: the Python extension's selected interpreter's
//      environment (`bin/jax-lsp`, `Scripts\jax-lsp.exe` on Windows), then `.venv` and `venv` in
//      the workspace folder;
//   3. `jax-lsp` on PATH;
//   4. the binary bundled in the extension under `bin/` (platform-specific packages only).
import * as path from "node:path";

/** Where the binary came from. */
export type BinarySource = "setting" | "interpreter" | ".venv" | "venv" | "PATH" | "bundled";

/** The Python extension's selected interpreter (any field may be unknown). */
export interface PythonEnvironmentInfo {
  /** The interpreter, e.g. `/ws/.venv/bin/python` or `C:\ws\.venv\Scripts\python.exe`. */
  executable?: string;
  /** The environment's folder (`sys.prefix`), e.g. `/opt/conda/envs/jax`. */
  prefix?: string;
}

export interface ResolveInput {
  /** `process.platform`. Decides the file name (`jax-lsp.exe` on Windows) and path syntax. */
  platform: string;
  /** The extension's install folder; a bundled binary lives in its `bin/`. */
  extensionPath: string;
  /** The `jax-lsp.path` setting (empty or undefined: not set). */
  configuredPath?: string | null;
  /** First workspace folder: `${workspaceFolder}`, relative `jax-lsp.path` values, `.venv`/`venv`. */
  workspaceFolder?: string;
  /** The Python extension's selected interpreter; undefined when that extension is not there. */
  pythonEnvironment?: PythonEnvironmentInfo;
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
  /** `reason`: why this one, for the output channel ("the workspace's .venv"). */
  | { ok: true; path: string; source: BinarySource; reason: string }
  /** `message`: one sentence per place looked, for the error message; `tried`: every file checked. */
  | { ok: false; message: string; tried: string[] };

export const BINARY_NAME = "jax-lsp";

/** The workspace environments looked for, in this order. */
export const WORKSPACE_VENVS = [".venv", "venv"] as const;

function pathApi(platform: string): path.PlatformPath {
  return platform === "win32" ? path.win32 : path.posix;
}

/** The file name of the server binary on `platform`. */
export function binaryFileName(platform: string): string {
  return platform === "win32" ? `${BINARY_NAME}.exe` : BINARY_NAME;
}

/** The folder of a Python environment that holds its console scripts. */
export function scriptsFolderName(platform: string): string {
  return platform === "win32" ? "Scripts" : "bin";
}

/** Path of the binary bundled in the extension package (may not exist). */
export function bundledBinaryPath(extensionPath: string, platform: string): string {
  return pathApi(platform).join(extensionPath, "bin", binaryFileName(platform));
}

/** `<env>/bin/jax-lsp` (`<env>\Scripts\jax-lsp.exe` on Windows). */
export function environmentBinaryPath(envFolder: string, platform: string): string {
  return pathApi(platform).join(envFolder, scriptsFolderName(platform), binaryFileName(platform));
}

/**
 * Where the selected interpreter's environment would have jax-lsp: `<prefix>/bin` first, then
 * next to the interpreter (on Windows also `Scripts\` next to it: conda's and the python.org
 * installer's layout, where python.exe is outside `Scripts\`). Relative paths (a bare `python`) are skipped.
 */
export function interpreterBinaryCandidates(env: PythonEnvironmentInfo, platform: string): string[] {
  const p = pathApi(platform);
  const file = binaryFileName(platform);
  const out: string[] = [];
  const add = (candidate: string): void => {
    if (p.isAbsolute(candidate) && !out.includes(candidate)) {
      out.push(candidate);
    }
  };
  const prefix = env.prefix?.trim();
  if (prefix) {
    add(environmentBinaryPath(prefix, platform));
  }
  const executable = env.executable?.trim();
  if (executable) {
    const dir = p.dirname(executable);
    add(p.join(dir, file));
    if (platform === "win32" && p.basename(dir).toLowerCase() !== "scripts") {
      add(p.join(dir, "Scripts", file));
    }
  }
  return out;
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

/** The folders of `envPath` that are searched (empty entries, meaning ".", are not). */
export function pathFolders(envPath: string | undefined, platform: string): string[] {
  if (!envPath) {
    return [];
  }
  const delimiter = platform === "win32" ? ";" : ":";
  return envPath
    .split(delimiter)
    .map((d) => d.trim().replace(/^"(.*)"$/, "$1"))
    .filter((d) => d.length > 0); // "." is not searched: a language server must not run whatever is in cwd
}

/** The searched PATH folders, joined as PATH joins them, for messages. */
function formatPath(envPath: string | undefined, platform: string): string {
  const folders = pathFolders(envPath, platform);
  return folders.length > 0 ? folders.join(platform === "win32" ? ";" : ":") : "empty";
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
  const p = pathApi(platform);
  for (const dir of pathFolders(envPath, platform)) {
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

/** How to get a binary, the end of every not-found message. */
const INSTALL_HINT =
  "Install jax-lsp into the workspace's Python environment (`pip install .` in a clone of the " +
  "jax-lsp repository) or onto PATH (`cargo install --path .`), or set jax-lsp.path to the binary.";

/** Picks the server binary (see the order at the top of this file). */
export function resolveServerBinary(input: ResolveInput): Resolution {
  const p = pathApi(input.platform);
  const tried: string[] = [];
  /** One entry per place looked at, for the not-found message. */
  const places: string[] = [];
  const check = (candidate: string): boolean => {
    if (tried.includes(candidate)) {
      return false; // already checked under an earlier place (e.g. the interpreter is the .venv's)
    }
    tried.push(candidate);
    return input.isExecutableFile(candidate);
  };

  // 1. The setting.
  const setting = (input.configuredPath ?? "").trim();
  if (setting.length > 0) {
    const expanded = expandSettingPath(setting, input.homeDir, input.workspaceFolder, input.platform);
    const hasSeparator = expanded.includes("/") || (input.platform === "win32" && expanded.includes("\\"));
    if (!hasSeparator) {
      // A bare command name such as "jax-lsp-nightly": look it up on PATH.
      const found = searchPath(expanded, input.envPath, input.platform, input.pathExt, input.isExecutableFile, tried);
      if (found !== undefined) {
        return { ok: true, path: found, source: "setting", reason: `the jax-lsp.path setting "${setting}", found on PATH` };
      }
    } else {
      const absolute = p.isAbsolute(expanded)
        ? expanded
        : p.resolve(input.workspaceFolder ?? input.homeDir, expanded);
      tried.push(absolute);
      if (input.isExecutableFile(absolute)) {
        return { ok: true, path: absolute, source: "setting", reason: "the jax-lsp.path setting" };
      }
    }
    const problem = hasSeparator
      ? `no executable file is at ${tried[tried.length - 1]}`
      : `"${expanded}" is not on PATH (${formatPath(input.envPath, input.platform)})`;
    return {
      ok: false,
      tried,
      message:
        `The jax-lsp.path setting is "${setting}", but ${problem}. ` +
        "Fix the setting, or clear it to use the workspace's Python environment, PATH or the bundled binary.",
    };
  }
  places.push("the jax-lsp.path setting (not set)");

  // 2a. The Python extension's selected interpreter.
  if (input.pythonEnvironment !== undefined) {
    const candidates = interpreterBinaryCandidates(input.pythonEnvironment, input.platform);
    const interpreter = input.pythonEnvironment.executable?.trim() || input.pythonEnvironment.prefix?.trim() || "unknown";
    for (const candidate of candidates) {
      if (check(candidate)) {
        return {
          ok: true,
          path: candidate,
          source: "interpreter",
          reason: `the environment of the selected Python interpreter, ${interpreter}`,
        };
      }
    }
    places.push(
      candidates.length > 0
        ? `the selected Python interpreter's environment (${candidates.join(" or ")})`
        : `the selected Python interpreter's environment (${interpreter}: not a path)`,
    );
  }

  // 2b. .venv, then venv, in the workspace folder.
  if (input.workspaceFolder !== undefined) {
    for (const venv of WORKSPACE_VENVS) {
      const candidate = environmentBinaryPath(p.join(input.workspaceFolder, venv), input.platform);
      if (check(candidate)) {
        return { ok: true, path: candidate, source: venv, reason: `the workspace's ${venv}` };
      }
      places.push(`the workspace's ${venv} (${candidate})`);
    }
  }

  // 3. PATH.
  const onPath = searchPath(BINARY_NAME, input.envPath, input.platform, input.pathExt, input.isExecutableFile, tried);
  if (onPath !== undefined) {
    return { ok: true, path: onPath, source: "PATH", reason: "found on PATH" };
  }
  places.push(`PATH (${formatPath(input.envPath, input.platform)})`);

  // 4. The bundled binary.
  const bundled = bundledBinaryPath(input.extensionPath, input.platform);
  if (check(bundled)) {
    return { ok: true, path: bundled, source: "bundled", reason: "the binary bundled with the extension" };
  }
  places.push(`the extension's bundled binary (${bundled})`);

  return {
    ok: false,
    tried,
    message: `The jax-lsp server was not found. Looked in: ${places.join("; ")}. ${INSTALL_HINT}`,
  };
}
