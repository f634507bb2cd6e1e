// Loads the bundled dist/extension.js against a fake `vscode` module and drives activation
// when no server binary can be found.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { after, before, describe, it } from "node:test";
import { createFakeVscode, type Extension, loadExtension, waitFor } from "./fake-vscode";

describe("activation without a server binary", () => {
  const vscode = createFakeVscode({ "jax-lsp.path": "", "jax-lsp.select": null });
  const emptyDir = fs.mkdtempSync(path.join(os.tmpdir(), "jax-lsp-nopath-"));
  const savedPath = process.env.PATH;
  let ext: Extension;

  before(() => {
    process.env.PATH = emptyDir; // no jax-lsp anywhere
    ext = loadExtension(vscode);
  });

  after(() => {
    process.env.PATH = savedPath;
    fs.rmSync(emptyDir, { recursive: true, force: true });
  });

  it("exports activate and deactivate", () => {
    assert.equal(typeof ext.activate, "function");
    assert.equal(typeof ext.deactivate, "function");
  });

  it("registers the commands and says clearly what is missing, with a way to the README", async () => {
    await ext.activate({ extensionPath: path.join(emptyDir, "ext"), subscriptions: [] });
    assert.deepEqual([...vscode.commands.keys()].sort(), ["jax-lsp.restart", "jax-lsp.showOutput"]);
    assert.equal(vscode.errors.length, 1);
    const [error] = vscode.errors;
    assert.match(error.message, /^jax-lsp: The jax-lsp server was not found/);
    assert.match(error.message, /jax-lsp\.path/);
    assert.deepEqual(error.items, ["Open Settings", "Open README"]);
    assert.ok(vscode.output.some((l) => l.includes("looked for:") && l.includes(path.join("ext", "bin", "jax-lsp"))));
  });

  it("a jax-lsp.path change restarts, and a path with nothing there is named in the error", async () => {
    vscode.config["jax-lsp.path"] = "/nonexistent/jax-lsp";
    vscode.changeConfig(["jax-lsp.path"]);
    await waitFor("a second error", () => vscode.errors.length === 2);
    assert.match(vscode.errors[1].message, /jax-lsp\.path setting is "\/nonexistent\/jax-lsp"/);
  });

  it("the restart command retries; the error's buttons open the setting and the packaged README", async () => {
    const extDir = path.join(emptyDir, "ext");
    fs.mkdirSync(extDir, { recursive: true });
    fs.writeFileSync(path.join(extDir, "readme.md"), "# jax-lsp\n"); // vsce's name for README.md
    vscode.nextErrorChoice = "Open README";
    await vscode.commands.get("jax-lsp.restart")?.();
    assert.equal(vscode.errors.length, 3);
    const preview = await waitFor("markdown.showPreview", () => vscode.executed.find((c) => c.command === "markdown.showPreview"));
    assert.equal((preview.args[0] as { fsPath: string }).fsPath, path.join(extDir, "readme.md"));
    vscode.nextErrorChoice = "Open Settings";
    await vscode.commands.get("jax-lsp.restart")?.();
    const settings = await waitFor("workbench.action.openSettings", () =>
      vscode.executed.find((c) => c.command === "workbench.action.openSettings"),
    );
    assert.deepEqual(settings.args, ["jax-lsp.path"]);
  });

  it("deactivate resolves with no server running", async () => {
    await ext.deactivate();
    assert.deepEqual(vscode.warnings, []);
  });
});
