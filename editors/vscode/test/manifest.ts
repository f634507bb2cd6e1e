// The manifest checks shared by manifest.test.ts and vsix.test.ts.
import assert from "node:assert/strict";
import * as path from "node:path";
import { LOG_LEVELS, KNOWN_PLATFORMS } from "../src/settings";

// Compiled to out/test/*.js: the extension root is two folders up.
export const root = path.resolve(__dirname, "..", "..");

export interface Manifest {
  name: string;
  publisher: string;
  version: string;
  license: string;
  main: string;
  engines: { vscode: string };
  activationEvents: string[];
  contributes: {
    commands: { command: string; title: string; category?: string }[];
    configuration: { properties: Record<string, { type: string | string[]; default: unknown; enum?: unknown[]; items?: { type: string; enum?: string[] } }> };
  };
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

export function readManifest(text: string): Manifest {
  return JSON.parse(text) as Manifest;
}

/** Assertions shared with the .vsix test (the packaged manifest must pass them too). */
export function checkManifest(m: Manifest): void {
  assert.equal(m.name, "jax-lsp");
  assert.ok(m.publisher, "publisher is required by vsce");
  assert.match(m.version, /^\d+\.\d+\.\d+/);
  assert.equal(m.license, "Apache-2.0");
  assert.equal(m.main, "./dist/extension.js");
  assert.match(m.engines.vscode, /^\^1\.\d+\.\d+$/);

  assert.deepEqual(m.activationEvents, ["onLanguage:python"]);

  const commands = Object.fromEntries(m.contributes.commands.map((c) => [c.command, `${c.category}: ${c.title}`]));
  assert.deepEqual(commands, {
    "jax-lsp.restart": "jax-lsp: Restart Server",
    "jax-lsp.showOutput": "jax-lsp: Show Output",
  });

  const props = m.contributes.configuration.properties;
  assert.deepEqual(Object.keys(props).sort(), [
    "jax-lsp.ignore",
    "jax-lsp.logLevel",
    "jax-lsp.path",
    "jax-lsp.select",
    "jax-lsp.targetPlatforms",
    "jax-lsp.trace.server",
  ]);
  assert.equal(props["jax-lsp.path"].type, "string");
  assert.equal(props["jax-lsp.path"].default, "");
  assert.deepEqual(props["jax-lsp.trace.server"].enum, ["off", "messages", "verbose"]);
  assert.equal(props["jax-lsp.trace.server"].default, "off");
  for (const key of ["jax-lsp.select", "jax-lsp.ignore", "jax-lsp.targetPlatforms"]) {
    // null default: "not set", so [tool.jax-lsp] in pyproject.toml applies.
    assert.deepEqual(props[key].type, ["array", "null"], key);
    assert.equal(props[key].default, null, key);
    assert.equal(props[key].items?.type, "string", key);
  }
  assert.deepEqual(props["jax-lsp.targetPlatforms"].items?.enum, [...KNOWN_PLATFORMS]);
  assert.deepEqual(props["jax-lsp.logLevel"].enum, [...LOG_LEVELS, null]);
}

