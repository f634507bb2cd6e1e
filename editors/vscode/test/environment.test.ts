// The bundled extension picking the server from the workspace's Python environment: a fake
// `vscode` with a workspace folder (and, in some tests, a fake Python extension), and stand-in
// binaries that record which one was started and then run the recording fake server.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { root } from "./manifest";
import { createFakeVscode, type Extension, fileUri, loadExtension, waitFor } from "./fake-vscode";

const fakeServer = path.join(root, "test", "fake-server.js");
const posixOnly = process.platform === "win32" ? "the stand-in binaries are shell scripts" : false;

describe("finding jax-lsp in the workspace's environment", { skip: posixOnly }, () => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "jax-lsp-env-")));
  const ws = path.join(dir, "ws");
  const startsFile = path.join(dir, "starts.txt");
  const pathDir = path.join(dir, "on-path");
  const savedPath = process.env.PATH;

  /** Which stand-ins have been started, in order. */
  const starts = (): string[] =>
    fs.existsSync(startsFile) ? fs.readFileSync(startsFile, "utf8").split("\n").filter((l) => l.length > 0) : [];

  /** Writes an executable `file` that records `label` and runs the fake server. */
  function standIn(file: string, label: string): string {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `#!/bin/sh\necho ${JSON.stringify(label)} >> ${JSON.stringify(startsFile)}\n` +
        `exec ${JSON.stringify(process.execPath)} ${JSON.stringify(fakeServer)} "$@"\n`,
    );
    fs.chmodSync(file, 0o755);
    return file;
  }

  before(() => {
    process.env.FAKE_SERVER_LOG = path.join(dir, "messages.jsonl");
    standIn(path.join(pathDir, "jax-lsp"), "PATH");
    // PATH keeps /bin and /usr/bin for the stand-ins' sh; a jax-lsp there would only come later.
    process.env.PATH = [pathDir, "/usr/bin", "/bin"].join(path.delimiter);
  });

  after(() => {
    process.env.PATH = savedPath;
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function activate(vscode: ReturnType<typeof createFakeVscode>): Promise<Extension> {
    const ext = loadExtension(vscode);
    await ext.activate({ extensionPath: path.join(dir, "ext"), subscriptions: [] });
    return ext;
  }

  const usingLine = (vscode: ReturnType<typeof createFakeVscode>): string[] =>
    vscode.output.filter((l) => l.startsWith("[client] using "));

  it("without a workspace environment: jax-lsp on PATH", async () => {
    const vscode = createFakeVscode({ "jax-lsp.path": "" });
    vscode.workspaceFolders = [ws];
    fs.mkdirSync(ws, { recursive: true });
    const ext = await activate(vscode);
    try {
      await waitFor("the PATH stand-in", () => starts().length === 1);
      assert.deepEqual(starts(), ["PATH"]);
      assert.deepEqual(usingLine(vscode), [`[client] using ${path.join(pathDir, "jax-lsp")} (found on PATH)`]);
    } finally {
      await ext.deactivate();
    }
  });

  it("venv/bin/jax-lsp in the workspace folder comes before PATH", async () => {
    standIn(path.join(ws, "venv", "bin", "jax-lsp"), "venv");
    const vscode = createFakeVscode({ "jax-lsp.path": "" });
    vscode.workspaceFolders = [ws];
    const ext = await activate(vscode);
    try {
      await waitFor("the venv stand-in", () => starts().length === 2);
      assert.equal(starts()[1], "venv");
      assert.deepEqual(usingLine(vscode), [`[client] using ${path.join(ws, "venv", "bin", "jax-lsp")} (the workspace's venv)`]);
    } finally {
      await ext.deactivate();
    }
  });

  it(".venv/bin/jax-lsp comes before venv, and the output channel says which and why", async () => {
    standIn(path.join(ws, ".venv", "bin", "jax-lsp"), ".venv");
    const vscode = createFakeVscode({ "jax-lsp.path": "" });
    vscode.workspaceFolders = [ws];
    const ext = await activate(vscode);
    try {
      await waitFor("the .venv stand-in", () => starts().length === 3);
      assert.equal(starts()[2], ".venv");
      assert.deepEqual(usingLine(vscode), [`[client] using ${path.join(ws, ".venv", "bin", "jax-lsp")} (the workspace's .venv)`]);
      assert.deepEqual(vscode.errors, []);
    } finally {
      await ext.deactivate();
    }
  });

  it("the jax-lsp.path setting wins over the workspace's environment", async () => {
    const vscode = createFakeVscode({ "jax-lsp.path": standIn(path.join(dir, "custom", "jax-lsp"), "setting") });
    vscode.workspaceFolders = [ws];
    const ext = await activate(vscode);
    try {
      await waitFor("the setting's stand-in", () => starts().length === 4);
      assert.equal(starts()[3], "setting");
      assert.deepEqual(usingLine(vscode), [`[client] using ${path.join(dir, "custom", "jax-lsp")} (the jax-lsp.path setting)`]);
    } finally {
      await ext.deactivate();
    }
  });

  describe("with the Python extension installed", () => {
    const envA = path.join(dir, "envs", "a");
    const envB = path.join(dir, "envs", "b"); // has no jax-lsp
    let active = path.join(envA, "bin", "python");
    const listeners: (() => void)[] = [];
    const pythonApi = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: active, path: active }),
        resolveEnvironment: async (env: { path: string }) => ({
          id: env.path,
          path: env.path,
          executable: { uri: fileUri(env.path), bitness: "64-bit", sysPrefix: path.dirname(path.dirname(env.path)) },
          environment: { type: "VirtualEnvironment", name: path.basename(path.dirname(path.dirname(env.path))), folderUri: fileUri(path.dirname(path.dirname(env.path))) },
        }),
        onDidChangeActiveEnvironmentPath: (listener: () => void) => {
          listeners.push(listener);
          return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
        },
      },
    };
    let activations = 0;
    const pythonExtension: { id: string; isActive: boolean; exports: unknown; activate(): Promise<unknown> } = {
      id: "ms-python.python",
      isActive: false,
      exports: undefined,
      activate: async () => {
        activations += 1;
        pythonExtension.isActive = true;
        pythonExtension.exports = pythonApi;
        return pythonApi;
      },
    };
    const vscode = createFakeVscode({ "jax-lsp.path": "" });
    vscode.workspaceFolders = [ws];
    vscode.extensions.set("ms-python.python", pythonExtension);
    let ext: Extension;

    it("the selected interpreter's environment comes before the workspace's .venv", async () => {
      standIn(path.join(envA, "bin", "jax-lsp"), "interpreter a");
      const before = starts().length;
      ext = await activate(vscode);
      await waitFor("the interpreter's stand-in", () => starts().length === before + 1);
      assert.equal(starts()[before], "interpreter a");
      assert.equal(activations, 1);
      assert.deepEqual(usingLine(vscode), [
        `[client] using ${path.join(envA, "bin", "jax-lsp")} (the environment of the selected Python interpreter, ${path.join(envA, "bin", "python")})`,
      ]);
      assert.equal(listeners.length, 1, "listens for interpreter changes");
    });

    it("picking another interpreter restarts the server with that environment's binary", async () => {
      const before = starts().length;
      active = path.join(envB, "bin", "python");
      listeners.forEach((l) => l());
      await waitFor("a restart with the .venv stand-in", () => starts().length === before + 1);
      assert.equal(starts()[before], ".venv");
      assert.ok(vscode.output.includes("[client] the selected Python interpreter changed; restarting the server"));
    });

    it("an interpreter change that finds the same binary does not restart", async () => {
      const before = starts().length;
      listeners.forEach((l) => l());
      await waitFor("the message", () => vscode.output.includes("[client] the selected Python interpreter changed; the server binary did not"));
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(starts().length, before);
      await ext.deactivate();
      assert.deepEqual(vscode.errors, []);
    });
  });

  it("nothing anywhere: one error naming every place, each with its path", async () => {
    fs.rmSync(path.join(ws, ".venv"), { recursive: true });
    fs.rmSync(path.join(ws, "venv"), { recursive: true });
    const emptyPath = path.join(dir, "empty");
    fs.mkdirSync(emptyPath);
    process.env.PATH = emptyPath;
    const env = path.join(dir, "envs", "none");
    const vscode = createFakeVscode({ "jax-lsp.path": "" });
    vscode.workspaceFolders = [ws];
    vscode.extensions.set("ms-python.python", {
      isActive: true,
      exports: {
        environments: {
          getActiveEnvironmentPath: () => ({ id: "n", path: path.join(env, "bin", "python") }),
          resolveEnvironment: async () => ({ executable: { uri: fileUri(path.join(env, "bin", "python")), sysPrefix: env } }),
        },
      },
      activate: async () => undefined,
    });
    const ext = await activate(vscode);
    try {
      assert.equal(vscode.errors.length, 1, JSON.stringify(vscode.errors));
      const message = vscode.errors[0].message;
      for (const place of [
        "the jax-lsp.path setting (not set)",
        `the selected Python interpreter's environment (${path.join(env, "bin", "jax-lsp")})`,
        `the workspace's .venv (${path.join(ws, ".venv", "bin", "jax-lsp")})`,
        `the workspace's venv (${path.join(ws, "venv", "bin", "jax-lsp")})`,
        `PATH (${emptyPath})`,
        `the extension's bundled binary (${path.join(dir, "ext", "bin", "jax-lsp")})`,
      ]) {
        assert.ok(message.includes(place), `"${place}" is not in: ${message}`);
      }
      assert.match(message, /^jax-lsp: The jax-lsp server was not found\. Looked in: /);
      assert.ok(vscode.output.some((l) => l.startsWith("[client] looked for: ") && l.includes(path.join(ws, ".venv", "bin", "jax-lsp"))));
    } finally {
      await ext.deactivate();
      process.env.PATH = [pathDir, "/usr/bin", "/bin"].join(path.delimiter);
    }
  });
});
