import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { describe, it } from "node:test";
import {
  binaryFileName,
  bundledBinaryPath,
  expandSettingPath,
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

describe("resolveServerBinary", () => {
  it("prefers the binary bundled under bin/", () => {
    const r = resolveServerBinary(
      input(["/ext/bin/jax-lsp", "/opt/jax-lsp", "/usr/bin/jax-lsp"], { configuredPath: "/opt/jax-lsp" }),
    );
    assert.deepEqual(r, { ok: true, path: "/ext/bin/jax-lsp", source: "bundled" });
  });

  it("uses the jax-lsp.path setting when nothing is bundled", () => {
    const r = resolveServerBinary(input(["/opt/jax-lsp", "/usr/bin/jax-lsp"], { configuredPath: "/opt/jax-lsp" }));
    assert.deepEqual(r, { ok: true, path: "/opt/jax-lsp", source: "setting" });
  });

  it("expands ~ and ${workspaceFolder} in the setting, and resolves relative paths in the workspace", () => {
    assert.deepEqual(
      resolveServerBinary(input(["/home/u/.cargo/bin/jax-lsp"], { configuredPath: "~/.cargo/bin/jax-lsp" })),
      { ok: true, path: "/home/u/.cargo/bin/jax-lsp", source: "setting" },
    );
    assert.deepEqual(
      resolveServerBinary(
        input(["/ws/target/release/jax-lsp"], { configuredPath: "${workspaceFolder}/target/release/jax-lsp" }),
      ),
      { ok: true, path: "/ws/target/release/jax-lsp", source: "setting" },
    );
    assert.deepEqual(
      resolveServerBinary(input(["/ws/target/debug/jax-lsp"], { configuredPath: "./target/debug/jax-lsp" })),
      { ok: true, path: "/ws/target/debug/jax-lsp", source: "setting" },
    );
  });

  it("looks a bare command name in the setting up on PATH", () => {
    const r = resolveServerBinary(input(["/usr/bin/jax-lsp-nightly"], { configuredPath: "jax-lsp-nightly" }));
    assert.deepEqual(r, { ok: true, path: "/usr/bin/jax-lsp-nightly", source: "setting" });
  });

  it("reports a setting that points nowhere instead of silently using PATH", () => {
    const r = resolveServerBinary(input(["/usr/bin/jax-lsp"], { configuredPath: "/nope/jax-lsp" }));
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /jax-lsp\.path/);
      assert.match(r.message, /\/nope\/jax-lsp/);
      assert.ok(r.tried.includes("/nope/jax-lsp"));
    }
  });

  it("falls back to PATH, first match wins", () => {
    const r = resolveServerBinary(input(["/usr/bin/jax-lsp", "/usr/local/bin/jax-lsp"]));
    assert.deepEqual(r, { ok: true, path: "/usr/local/bin/jax-lsp", source: "PATH" });
  });

  it("fails with a message naming every place it looked", () => {
    const r = resolveServerBinary(input([], { configuredPath: "  " }));
    assert.equal(r.ok, false);
    if (!r.ok) {
      assert.match(r.message, /not found/);
      assert.match(r.message, /PATH/);
      assert.deepEqual(r.tried, ["/ext/bin/jax-lsp", "/usr/local/bin/jax-lsp", "/usr/bin/jax-lsp"]);
    }
  });

  it("ignores empty PATH entries (never runs a binary from the current folder)", () => {
    assert.equal(searchPath("jax-lsp", "::/usr/bin", "linux", undefined, (p) => p === "jax-lsp"), undefined);
    assert.equal(resolveServerBinary(input([], { envPath: undefined })).ok, false);
  });

  it("handles Windows: .exe, ; separators and PATHEXT", () => {
    const r = resolveServerBinary(
      input(["C:\\tools\\jax-lsp.exe"], {
        platform: "win32",
        extensionPath: "C:\\ext",
        homeDir: "C:\\Users\\u",
        workspaceFolder: "C:\\ws",
        envPath: "C:\\Windows;\"C:\\tools\"",
        pathExt: ".COM;.EXE",
      }),
    );
    assert.deepEqual(r, { ok: true, path: "C:\\tools\\jax-lsp.exe", source: "PATH" });
    assert.equal(bundledBinaryPath("C:\\ext", "win32"), "C:\\ext\\bin\\jax-lsp.exe");
    assert.equal(binaryFileName("win32"), "jax-lsp.exe");
    assert.equal(binaryFileName("darwin"), "jax-lsp");
  });

  it("expands only what it knows in the setting", () => {
    assert.equal(expandSettingPath(" ~ ", "/h", undefined, "linux"), "/h");
    assert.equal(expandSettingPath("${userHome}/x", "/h", undefined, "linux"), "/h/x");
    assert.equal(expandSettingPath("${workspaceFolder}/x", "/h", undefined, "linux"), "${workspaceFolder}/x");
    assert.equal(expandSettingPath("a~b", "/h", "/w", "linux"), "a~b");
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
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
