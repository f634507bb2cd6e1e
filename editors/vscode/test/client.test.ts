// Runs the bundled extension (with vscode-languageclient) under a fake `vscode` module against
// (1) a recording stand-in server, to check what goes over the wire, and (2) the real jax-lsp
// binary when JAX_LSP_TEST_SERVER names one.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, describe, it } from "node:test";
import { root } from "./manifest";
import { createFakeVscode, loadExtension, waitFor } from "./fake-vscode";

const fakeServer = path.join(root, "test", "fake-server.js");
fs.chmodSync(fakeServer, 0o755); // spawned directly, via its #! line

type Message = { [key: string]: unknown; method?: string; id?: unknown; params?: any; result?: unknown; argv?: string[] };

describe("talking to a server (recording stand-in)", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jax-lsp-client-"));
  const logFile = path.join(dir, "messages.jsonl");
  process.env.FAKE_SERVER_LOG = logFile;
  const messages = (): Message[] =>
    fs.existsSync(logFile)
      ? fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Message)
      : [];
  const vscode = createFakeVscode({
    "jax-lsp.path": fakeServer,
    "jax-lsp.select": ["jp001", "JP002"],
    "jax-lsp.ignore": null,
    "jax-lsp.targetPlatforms": null,
  });
  const ext = loadExtension(vscode);

  after(async () => {
    await ext.deactivate();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("starts `<jax-lsp.path> server` and sends the settings as initializationOptions", async () => {
    await ext.activate({ extensionPath: path.join(dir, "ext"), subscriptions: [] });
    await waitFor("initialize", () => messages().find((m) => m.method === "initialize"));
    const [first] = messages();
    // vscode-languageclient appends --stdio for TransportKind.stdio; jax-lsp accepts it.
    assert.deepEqual(first.argv, ["server", "--stdio"]);
    const init = messages().find((m) => m.method === "initialize");
    assert.deepEqual(init?.params.initializationOptions, {
      "jax-lsp": { select: ["JP001", "JP002"], ignore: null, targetPlatforms: null, logLevel: null },
    });
    assert.deepEqual(vscode.errors, []);
  });

  it("answers workspace/configuration for section jax-lsp with the same mapping", async () => {
    const answer = await waitFor("the answer to workspace/configuration", () => messages().find((m) => m.id === "cfg-1"));
    assert.deepEqual(answer.result, [{ select: ["JP001", "JP002"], ignore: null, targetPlatforms: null, logLevel: null }]);
  });

  it("sends didChangeConfiguration (section jax-lsp) when a rule setting changes", async () => {
    vscode.config["jax-lsp.targetPlatforms"] = ["TPU"];
    vscode.config["jax-lsp.ignore"] = ["JP005"];
    vscode.changeConfig(["jax-lsp.targetPlatforms", "jax-lsp.ignore"]);
    const change = await waitFor("workspace/didChangeConfiguration", () =>
      messages().find((m) => m.method === "workspace/didChangeConfiguration"),
    );
    assert.deepEqual(change.params, {
      settings: { "jax-lsp": { select: ["JP001", "JP002"], ignore: ["JP005"], targetPlatforms: ["tpu"], logLevel: null } },
    });
    // Only one server process so far.
    assert.equal(messages().filter((m) => m.argv).length, 1);
  });

  it("ignores changes to other settings", async () => {
    const before = messages().length;
    vscode.changeConfig(["python.analysis.typeCheckingMode"]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    // The language client re-sends its trace level on every configuration change.
    assert.deepEqual(messages().slice(before).filter((m) => m.method !== "$/setTrace"), []);
  });

  it("jax-lsp: Restart Server shuts the old server down and starts a new one", async () => {
    await vscode.commands.get("jax-lsp.restart")?.();
    await waitFor("a second initialize", () => messages().filter((m) => m.method === "initialize").length === 2);
    const methods = messages().map((m) => m.method ?? (m.argv ? "(start)" : "(response)"));
    const restartAt = methods.lastIndexOf("(start)");
    assert.ok(methods.slice(0, restartAt).includes("shutdown"), `no shutdown before the restart: ${methods.join(", ")}`);
    assert.ok(methods.slice(0, restartAt).includes("exit"), `no exit before the restart: ${methods.join(", ")}`);
    // The new server gets the current settings.
    const init = messages().filter((m) => m.method === "initialize")[1];
    assert.deepEqual(init.params.initializationOptions["jax-lsp"].targetPlatforms, ["tpu"]);
  });

  it("changing jax-lsp.path restarts the server", async () => {
    const starts = messages().filter((m) => m.argv).length;
    vscode.changeConfig(["jax-lsp.path"]);
    await waitFor("a new server process", () => messages().filter((m) => m.argv).length === starts + 1);
  });

  it("deactivate shuts the server down", async () => {
    const before = messages().filter((m) => m.method === "exit").length;
    await ext.deactivate();
    await waitFor("exit", () => messages().filter((m) => m.method === "exit").length === before + 1);
    assert.deepEqual(vscode.errors, []);
  });
});

const realServer = process.env.JAX_LSP_TEST_SERVER;

describe("the real jax-lsp server", { skip: realServer ? false : "set JAX_LSP_TEST_SERVER=path/to/jax-lsp" }, () => {
  it("starts through the extension, initializes, and stops cleanly", async () => {
    const vscode = createFakeVscode({ "jax-lsp.path": path.resolve(realServer ?? ""), "jax-lsp.targetPlatforms": ["tpu"] });
    const ext = loadExtension(vscode);
    await ext.activate({ extensionPath: path.join(os.tmpdir(), "no-such-extension-dir"), subscriptions: [] });
    // The language client copies the server's stderr log into the output channel.
    const line = await waitFor("the server's initialize log line", () =>
      vscode.output.join("").split("\n").find((l) => /initialize: client .*position encoding/.test(l)),
    ).catch((e: Error) => {
      throw new Error(`${e.message}\noutput:\n${vscode.output.join("\n")}`);
    });
    assert.match(line, /Utf16/); // VS Code offers only utf-16
    vscode.config["jax-lsp.ignore"] = ["JP005"];
    vscode.changeConfig(["jax-lsp.ignore"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    await ext.deactivate();
    assert.deepEqual(vscode.errors, [], vscode.output.join(""));
    assert.ok(!vscode.output.join("").includes("ERROR"), vscode.output.join(""));
  });
});

describe("settings problems", () => {
  it("are shown once each, and the rest of the settings still reach the server", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "jax-lsp-client-"));
    const logFile = path.join(dir, "messages.jsonl");
    process.env.FAKE_SERVER_LOG = logFile;
    const vscode = createFakeVscode({
      "jax-lsp.path": fakeServer,
      "jax-lsp.targetPlatforms": ["gpu", "tpu"],
    });
    const ext = loadExtension(vscode);
    try {
      await ext.activate({ extensionPath: dir, subscriptions: [] });
      const read = (): Message[] =>
        fs.readFileSync(logFile, "utf8").split("\n").filter((l) => l.length > 0).map((l) => JSON.parse(l) as Message);
      await waitFor("the answer to workspace/configuration", () => fs.existsSync(logFile) && read().find((m) => m.id === "cfg-1"));
      const init = read().find((m) => m.method === "initialize");
      assert.deepEqual(init?.params.initializationOptions["jax-lsp"].targetPlatforms, ["tpu"]);
      assert.equal(vscode.warnings.length, 1, vscode.warnings.join("\n"));
      assert.match(vscode.warnings[0], /^jax-lsp: jax-lsp\.targetPlatforms: unknown platform "gpu"/);
    } finally {
      await ext.deactivate();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
