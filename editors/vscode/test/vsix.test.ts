// Looks inside the .vsix that `vsce package` made (build.sh packages before running the tests).
import assert from "node:assert/strict";
import { builtinModules } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { describe, it } from "node:test";
import { checkManifest, readManifest, root } from "./manifest";
import { listEntries, readEntry } from "./zip";

const vsixPath = process.env.JAX_LSP_VSIX ?? path.join(root, "jax-lsp.vsix");

describe("the packaged .vsix", () => {
  assert.ok(fs.existsSync(vsixPath), `${vsixPath} is missing: run ./build.sh (or npm run package) first`);
  const zip = fs.readFileSync(vsixPath);
  const entries = listEntries(zip);
  const byName = new Map(entries.map((e) => [e.name, e]));
  const read = (name: string): Buffer => {
    const entry = byName.get(name);
    assert.ok(entry, `${name} is not in the .vsix (it has: ${[...byName.keys()].join(", ")})`);
    return readEntry(zip, entry);
  };

  it("has the VSIX envelope", () => {
    assert.ok(byName.has("extension.vsixmanifest"));
    assert.ok(byName.has("[Content_Types].xml"));
  });

  it("contains extension/package.json with the contributions", () => {
    const manifest = readManifest(read("extension/package.json").toString("utf8"));
    checkManifest(manifest);
    const onDisk = readManifest(fs.readFileSync(path.join(root, "package.json"), "utf8"));
    assert.equal(manifest.version, onDisk.version);
    assert.deepEqual(manifest.contributes, onDisk.contributes);
  });

  it("contains the bundled main JS, identical to dist/extension.js", () => {
    const main = read("extension/dist/extension.js");
    assert.ok(main.length > 10_000, "the bundle looks too small to include vscode-languageclient");
    assert.ok(main.equals(fs.readFileSync(path.join(root, "dist", "extension.js"))));
    const text = main.toString("utf8");
    assert.match(text, /activate/);
    // Bundled: the only module it may require at run time besides Node's own is `vscode`.
    const builtins = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
    const required = new Set([...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1]));
    const foreign = [...required].filter((m) => m !== "vscode" && !builtins.has(m));
    assert.deepEqual(foreign, [], "modules the bundle would need from node_modules");
    assert.ok(required.has("vscode"));
  });

  it("ships README and LICENSE, and no sources, maps, tests or node_modules", () => {
    assert.ok(byName.has("extension/readme.md") || byName.has("extension/README.md"));
    assert.ok([...byName.keys()].some((n) => /^extension\/LICENSE(\.txt)?$/i.test(n)));
    const unwanted = [...byName.keys()].filter((n) =>
      /^extension\/(node_modules|src|test|out)\/|\.map$|\.ts$|tsconfig|esbuild\.mjs|build\.sh/.test(n),
    );
    assert.deepEqual(unwanted, []);
  });

  it("bundles bin/jax-lsp, executable, exactly when build.sh was given one", () => {
    const bundled = path.join(root, "bin", process.platform === "win32" ? "jax-lsp.exe" : "jax-lsp");
    const names = [...byName.keys()].filter((n) => n.startsWith("extension/bin/"));
    if (fs.existsSync(bundled)) {
      const entry = byName.get(`extension/bin/${path.basename(bundled)}`);
      assert.ok(entry, "bin/jax-lsp exists but is not in the .vsix");
      assert.equal(entry.size, fs.statSync(bundled).size);
      if (process.platform !== "win32") {
        assert.equal(entry.unixMode & 0o111, 0o111, `mode ${entry.unixMode.toString(8)} is not executable`);
      }
    } else {
      assert.deepEqual(names, []);
    }
  });
});
