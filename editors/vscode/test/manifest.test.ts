// Checks the extension manifest (package.json) that VS Code reads.
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { checkManifest, readManifest, root } from "./manifest";

describe("package.json", () => {
  const text = fs.readFileSync(path.join(root, "package.json"), "utf8");
  const m = readManifest(text);

  it("contributes the settings, the commands and the activation event", () => {
    checkManifest(m);
  });

  it("uses vscode-languageclient 9 and @types/vscode no newer than engines.vscode", () => {
    assert.match(m.dependencies["vscode-languageclient"], /^\^9\./);
    const engine = m.engines.vscode.replace(/^\^/, "").split(".").map(Number);
    const types = m.devDependencies["@types/vscode"].replace(/^[~^]/, "").split(".").map(Number);
    assert.ok(types[0] < engine[0] || (types[0] === engine[0] && types[1] <= engine[1]), "vsce rejects @types/vscode > engines.vscode");
  });

  it("has the files vsce needs to package without prompting", () => {
    for (const file of ["README.md", "LICENSE", ".vscodeignore"]) {
      assert.ok(fs.existsSync(path.join(root, file)), file);
    }
    const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
    assert.match(readme, /jax-lsp\.path/);
  });

  it("`vsce package` works on its own: vscode:prepublish bundles, and no flags or prompts are needed", () => {
    const raw = JSON.parse(text) as { scripts: Record<string, string>; vsce?: Record<string, unknown> };
    assert.equal(raw.scripts["vscode:prepublish"], "node esbuild.mjs --production");
    // vsce takes its option defaults from the manifest's "vsce" field: no repository prompt, and
    // no `npm list` (everything the extension needs is in dist/extension.js).
    assert.deepEqual(raw.vsce, { dependencies: false, allowMissingRepository: true });
  });

  it("every command the code registers is contributed, and vice versa", () => {
    const source = fs.readFileSync(path.join(root, "src", "extension.ts"), "utf8");
    const registered = [...source.matchAll(/registerCommand\("([^"]+)"/g)].map((x) => x[1]).sort();
    assert.deepEqual(registered, m.contributes.commands.map((c) => c.command).sort());
  });
});
