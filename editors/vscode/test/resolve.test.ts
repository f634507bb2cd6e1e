import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  binaryFileName,
  bundledBinaryPath,
  environmentBinaryPath,
  expandSettingPath,
  interpreterBinaryCandidates,
  pathFolders,
  resolveServerBinary,
  type ResolveInput,
  searchPath,
} from "../src/resolve";

/** A fake file system: the set of executable files. */
function input(executables: string[], overrides: Partial<ResolveInput> = {}): ResolveInput {
  const set = new Set(executables);
  return {
    platform: "linux",
    extensionPath: "/ext",
    configuredPath: "",
    workspaceFolder: "/ws",
    homeDir: "/home/u",
    envPath: "/usr/local/bin:/usr/bin",
    isExecutableFile: (p) => set.has(p),
    ...overrides,
  };
}

/** Every place there is a binary, in the order they are tried. */
const EVERYWHERE = ["/opt/jax-lsp", "/envs/jax/bin/jax-lsp", "/ws/.venv/bin/jax-lsp", "/ws/venv/bin/jax-lsp", "/usr/bin/jax-lsp", "/ext/bin/jax-lsp"];
const INTERPRETER = { executable: "/envs/jax/bin/python", prefix: "/envs/jax" };

/** `executables` without the ones before `index` in EVERYWHERE: the resolution falls to that one. */
function from(index: number): string[] {
  return EVERYWHERE.slice(index);
}

describe("resolveServerBinary: the order", () => {
  it("1. the jax-lsp.path setting wins over everything", () => {
    const r = resolveServerBinary(input(from(0), { configuredPath: "/opt/jax-lsp", pythonEnvironment: INTERPRETER }));
    assert.deepEqual(r, { ok: true, path: "/opt/jax-lsp", source: "setting", reason: "the jax-lsp.path setting" });
  });

  it("2. then the selected Python interpreter's environment (bin/ of its prefix)", () => {
    const r = resolveServerBinary(input(from(1), { pythonEnvironment: INTERPRETER }));
    assert.deepEqual(r, {
      ok: true,
      path: "/envs/jax/bin/jax-lsp",
      source: "interpreter",
      reason: "the environment of the selected Python interpreter, /envs/jax/bin/python",
    });
  });

  it("3. then the workspace's .venv", () => {
    const r = resolveServerBinary(input(from(2), { pythonEnvironment: INTERPRETER }));
    assert.deepEqual(r, { ok: true, path: "/ws/.venv/bin/jax-lsp", source: ".venv", reason: "the workspace's .venv" });
    // Without the Python extension too.
    assert.deepEqual(resolveServerBinary(input(from(2))), r);
  });

  it("4. then the workspace's venv", () => {
    const r = resolveServerBinary(input(from(3)));
    assert.deepEqual(r, { ok: true, path: "/ws/venv/bin/jax-lsp", source: "venv", reason: "the workspace's venv" });
  });

  it("5. then PATH, first match wins", () => {
    const r = resolveServerBinary(input(["/usr/local/bin/jax-lsp", ...from(4)]));
    assert.deepEqual(r, { ok: true, path: "/usr/local/bin/jax-lsp", source: "PATH", reason: "found on PATH" });
    assert.equal((resolveServerBinary(input(from(4))) as { path: string }).path, "/usr/bin/jax-lsp");
  });

  it("6. then the binary bundled under bin/", () => {
    const r = resolveServerBinary(input(from(5), { pythonEnvironment: INTERPRETER }));
    assert.deepEqual(r, { ok: true, path: "/ext/bin/jax-lsp", source: "bundled", reason: "the binary bundled with the extension" });
  });

  it("fails with one message naming every place it looked, in order", () => {
    const r = resolveServerBinary(input([], { configuredPath: "  ", pythonEnvironment: INTERPRETER }));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.equal(
      r.message,
      "The jax-lsp server was not found. Looked in: the jax-lsp.path setting (not set); " +
        "the selected Python interpreter's environment (/envs/jax/bin/jax-lsp); " +
        "the workspace's .venv (/ws/.venv/bin/jax-lsp); the workspace's venv (/ws/venv/bin/jax-lsp); " +
        "PATH (/usr/local/bin:/usr/bin); the extension's bundled binary (/ext/bin/jax-lsp). " +
        "Install jax-lsp into the workspace's Python environment (`pip install .` in a clone of the " +
        "jax-lsp repository) or onto PATH (`cargo install --path .`), or set jax-lsp.path to the binary.",
    );
    assert.deepEqual(r.tried, [
      "/envs/jax/bin/jax-lsp",
      "/ws/.venv/bin/jax-lsp",
      "/ws/venv/bin/jax-lsp",
      "/usr/local/bin/jax-lsp",
      "/usr/bin/jax-lsp",
      "/ext/bin/jax-lsp",
    ]);
  });

  it("without the Python extension or a workspace folder, names only what it looked at", () => {
    const r = resolveServerBinary(input([], { workspaceFolder: undefined, envPath: "" }));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.match(r.message, /Looked in: the jax-lsp\.path setting \(not set\); PATH \(empty\); the extension's bundled binary \(\/ext\/bin\/jax-lsp\)\./);
    assert.doesNotMatch(r.message, /interpreter|\.venv/);
    assert.deepEqual(r.tried, ["/ext/bin/jax-lsp"]);
  });
});

describe("resolveServerBinary: the setting", () => {
  it("expands ~ and ${workspaceFolder}, and resolves relative paths in the workspace", () => {
    assert.deepEqual(
      resolveServerBinary(input(["/home/u/.cargo/bin/jax-lsp"], { configuredPath: "~/.cargo/bin/jax-lsp" })),
      { ok: true, path: "/home/u/.cargo/bin/jax-lsp", source: "setting", reason: "the jax-lsp.path setting" },
    );
    assert.deepEqual(
      resolveServerBinary(
        input(["/ws/target/release/jax-lsp"], { configuredPath: "${workspaceFolder}/target/release/jax-lsp" }),
      ),
      { ok: true, path: "/ws/target/release/jax-lsp", source: "setting", reason: "the jax-lsp.path setting" },
    );
    assert.deepEqual(
      resolveServerBinary(input(["/ws/target/debug/jax-lsp"], { configuredPath: "./target/debug/jax-lsp" })),
      { ok: true, path: "/ws/target/debug/jax-lsp", source: "setting", reason: "the jax-lsp.path setting" },
    );
  });

  it("looks a bare command name up on PATH", () => {
    const r = resolveServerBinary(input(["/usr/bin/jax-lsp-nightly"], { configuredPath: "jax-lsp-nightly" }));
    assert.deepEqual(r, {
      ok: true,
      path: "/usr/bin/jax-lsp-nightly",
      source: "setting",
      reason: 'the jax-lsp.path setting "jax-lsp-nightly", found on PATH',
    });
    const missing = resolveServerBinary(input(["/usr/bin/jax-lsp"], { configuredPath: "jax-lsp-nightly" }));
    assert.equal(missing.ok, false);
    if (!missing.ok) {
      assert.match(missing.message, /"jax-lsp-nightly" is not on PATH \(\/usr\/local\/bin:\/usr\/bin\)/);
    }
  });

  it("reports a setting that points nowhere instead of silently using anything else", () => {
    const r = resolveServerBinary(input(from(1), { configuredPath: "/nope/jax-lsp", pythonEnvironment: INTERPRETER }));
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /^The jax-lsp\.path setting is "\/nope\/jax-lsp", but no executable file is at \/nope\/jax-lsp\./);
      assert.deepEqual(r.tried, ["/nope/jax-lsp"]);
    }
  });

  it("expands only what it knows", () => {
    assert.equal(expandSettingPath(" ~ ", "/h", undefined, "linux"), "/h");
    assert.equal(expandSettingPath("${userHome}/x", "/h", undefined, "linux"), "/h/x");
    assert.equal(expandSettingPath("${workspaceFolder}/x", "/h", undefined, "linux"), "${workspaceFolder}/x");
    assert.equal(expandSettingPath("a~b", "/h", "/w", "linux"), "a~b");
  });
});

describe("resolveServerBinary: the Python interpreter's environment", () => {
  it("looks in <prefix>/bin, then next to the interpreter", () => {
    // pyenv: the interpreter is a shim, the prefix is the real environment.
    const pyenv = { executable: "/home/u/.pyenv/shims/python", prefix: "/home/u/.pyenv/versions/3.12.1" };
    assert.deepEqual(interpreterBinaryCandidates(pyenv, "linux"), [
      "/home/u/.pyenv/versions/3.12.1/bin/jax-lsp",
      "/home/u/.pyenv/shims/jax-lsp",
    ]);
    const r = resolveServerBinary(input(["/home/u/.pyenv/shims/jax-lsp"], { pythonEnvironment: pyenv }));
    assert.equal(r.ok && r.source, "interpreter");
    // Only the interpreter known (an old Python extension).
    assert.deepEqual(interpreterBinaryCandidates({ executable: "/envs/a/bin/python3" }, "linux"), ["/envs/a/bin/jax-lsp"]);
    // Only the prefix known.
    assert.deepEqual(interpreterBinaryCandidates({ prefix: "/envs/a" }, "darwin"), ["/envs/a/bin/jax-lsp"]);
  });

  it("skips an interpreter that is not a path (a bare `python`)", () => {
    assert.deepEqual(interpreterBinaryCandidates({ executable: "python" }, "linux"), []);
    const r = resolveServerBinary(input(["/usr/bin/jax-lsp"], { pythonEnvironment: { executable: "python" } }));
    assert.deepEqual(r, { ok: true, path: "/usr/bin/jax-lsp", source: "PATH", reason: "found on PATH" });
    const none = resolveServerBinary(input([], { pythonEnvironment: { executable: "python" } }));
    assert.ok(!none.ok && none.message.includes("the selected Python interpreter's environment (python: not a path)"));
  });

  it("an interpreter in the workspace's .venv is not looked at twice", () => {
    const venv = { executable: "/ws/.venv/bin/python", prefix: "/ws/.venv" };
    const found = resolveServerBinary(input(["/ws/.venv/bin/jax-lsp"], { pythonEnvironment: venv }));
    assert.deepEqual(found, {
      ok: true,
      path: "/ws/.venv/bin/jax-lsp",
      source: "interpreter",
      reason: "the environment of the selected Python interpreter, /ws/.venv/bin/python",
    });
    const r = resolveServerBinary(input([], { pythonEnvironment: venv }));
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.equal(r.tried.filter((t) => t === "/ws/.venv/bin/jax-lsp").length, 1);
    }
  });
});

describe("resolveServerBinary: Windows", () => {
  const win = (executables: string[], overrides: Partial<ResolveInput> = {}): ResolveInput =>
    input(executables, {
      platform: "win32",
      extensionPath: "C:\\ext",
      homeDir: "C:\\Users\\u",
      workspaceFolder: "C:\\ws",
      envPath: 'C:\\Windows;"C:\\tools"',
      pathExt: ".COM;.EXE",
      ...overrides,
    });

  it("uses Scripts\\jax-lsp.exe of the interpreter's environment, then of .venv and venv", () => {
    const conda = { executable: "C:\\conda\\envs\\jax\\python.exe", prefix: "C:\\conda\\envs\\jax" };
    assert.deepEqual(interpreterBinaryCandidates(conda, "win32"), [
      "C:\\conda\\envs\\jax\\Scripts\\jax-lsp.exe",
      "C:\\conda\\envs\\jax\\jax-lsp.exe",
    ]);
    // A venv's interpreter lives in Scripts\ itself.
    assert.deepEqual(interpreterBinaryCandidates({ executable: "C:\\ws\\.venv\\Scripts\\python.exe" }, "win32"), [
      "C:\\ws\\.venv\\Scripts\\jax-lsp.exe",
    ]);
    assert.deepEqual(resolveServerBinary(win(["C:\\conda\\envs\\jax\\Scripts\\jax-lsp.exe", "C:\\ws\\.venv\\Scripts\\jax-lsp.exe"], { pythonEnvironment: conda })), {
      ok: true,
      path: "C:\\conda\\envs\\jax\\Scripts\\jax-lsp.exe",
      source: "interpreter",
      reason: "the environment of the selected Python interpreter, C:\\conda\\envs\\jax\\python.exe",
    });
    assert.deepEqual(resolveServerBinary(win(["C:\\ws\\.venv\\Scripts\\jax-lsp.exe", "C:\\ws\\venv\\Scripts\\jax-lsp.exe", "C:\\tools\\jax-lsp.exe"])), {
      ok: true,
      path: "C:\\ws\\.venv\\Scripts\\jax-lsp.exe",
      source: ".venv",
      reason: "the workspace's .venv",
    });
    assert.deepEqual(resolveServerBinary(win(["C:\\ws\\venv\\Scripts\\jax-lsp.exe", "C:\\tools\\jax-lsp.exe"])), {
      ok: true,
      path: "C:\\ws\\venv\\Scripts\\jax-lsp.exe",
      source: "venv",
      reason: "the workspace's venv",
    });
    assert.equal(environmentBinaryPath("C:\\ws\\.venv", "win32"), "C:\\ws\\.venv\\Scripts\\jax-lsp.exe");
  });

  it("searches PATH with ; separators, quotes and PATHEXT, then the bundled jax-lsp.exe", () => {
    assert.deepEqual(resolveServerBinary(win(["C:\\tools\\jax-lsp.exe", "C:\\ext\\bin\\jax-lsp.exe"])), {
      ok: true,
      path: "C:\\tools\\jax-lsp.exe",
      source: "PATH",
      reason: "found on PATH",
    });
    assert.deepEqual(resolveServerBinary(win(["C:\\ext\\bin\\jax-lsp.exe"])), {
      ok: true,
      path: "C:\\ext\\bin\\jax-lsp.exe",
      source: "bundled",
      reason: "the binary bundled with the extension",
    });
    assert.deepEqual(pathFolders('C:\\Windows;"C:\\tools";;', "win32"), ["C:\\Windows", "C:\\tools"]);
    assert.equal(bundledBinaryPath("C:\\ext", "win32"), "C:\\ext\\bin\\jax-lsp.exe");
    assert.equal(binaryFileName("win32"), "jax-lsp.exe");
    assert.equal(binaryFileName("darwin"), "jax-lsp");
  });

  it("names the Windows places in the not-found message", () => {
    const r = resolveServerBinary(win([]));
    assert.equal(r.ok, false);
    if (r.ok) return;
    assert.ok(r.message.includes("the workspace's .venv (C:\\ws\\.venv\\Scripts\\jax-lsp.exe)"), r.message);
    assert.ok(r.message.includes("the workspace's venv (C:\\ws\\venv\\Scripts\\jax-lsp.exe)"), r.message);
    assert.ok(r.message.includes("PATH (C:\\Windows;C:\\tools)"), r.message);
    assert.ok(r.message.includes("the extension's bundled binary (C:\\ext\\bin\\jax-lsp.exe)"), r.message);
    assert.ok(r.tried.includes("C:\\tools\\jax-lsp.exe") && r.tried.includes("C:\\tools\\jax-lsp.com"), r.tried.join(", "));
  });

  it("expands ~\\ in the setting", () => {
    const r = resolveServerBinary(win(["C:\\Users\\u\\bin\\jax-lsp.exe"], { configuredPath: "~\\bin\\jax-lsp.exe" }));
    assert.deepEqual(r, { ok: true, path: "C:\\Users\\u\\bin\\jax-lsp.exe", source: "setting", reason: "the jax-lsp.path setting" });
  });
});

describe("searchPath", () => {
  it("ignores empty PATH entries (never runs a binary from the current folder)", () => {
    assert.equal(searchPath("jax-lsp", "::/usr/bin", "linux", undefined, (p) => p === "jax-lsp"), undefined);
    assert.equal(resolveServerBinary(input([], { envPath: undefined })).ok, false);
  });

  it("works against the real file system", { skip: process.platform === "win32" }, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jax-lsp-resolve-"));
    try {
      const bin = path.join(dir, "jax-lsp");
      fs.writeFileSync(bin, "#!/bin/sh\n");
      const isExec = (p: string): boolean => {
        try {
          fs.accessSync(p, fs.constants.X_OK);
          return fs.statSync(p).isFile();
        } catch {
          return false;
        }
      };
      fs.chmodSync(bin, 0o644);
      // Not executable (even for root: no x bit at all).
      assert.equal(searchPath("jax-lsp", dir, "linux", undefined, isExec), undefined);
      fs.chmodSync(bin, 0o755);
      assert.equal(searchPath("jax-lsp", dir, "linux", undefined, isExec), bin);
      // A folder named jax-lsp is not a binary.
      const other = path.join(dir, "sub");
      fs.mkdirSync(path.join(other, "jax-lsp"), { recursive: true });
      assert.equal(searchPath("jax-lsp", other, "linux", undefined, isExec), undefined);
      // A workspace .venv on disk.
      const ws = path.join(dir, "ws");
      fs.mkdirSync(path.join(ws, ".venv", "bin"), { recursive: true });
      fs.copyFileSync(bin, path.join(ws, ".venv", "bin", "jax-lsp"));
      fs.chmodSync(path.join(ws, ".venv", "bin", "jax-lsp"), 0o755);
      const r = resolveServerBinary({
        platform: "linux",
        extensionPath: path.join(dir, "ext"),
        workspaceFolder: ws,
        homeDir: dir,
        envPath: dir,
        isExecutableFile: isExec,
      });
      assert.deepEqual(r, { ok: true, path: path.join(ws, ".venv", "bin", "jax-lsp"), source: ".venv", reason: "the workspace's .venv" });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
