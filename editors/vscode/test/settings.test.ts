import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  changeAction,
  configurationItem,
  didChangeConfigurationParams,
  initializationOptions,
  toServerSettings,
} from "../src/settings";

function getter(values: Record<string, unknown>): (key: string) => unknown {
  return (key) => values[key];
}

describe("toServerSettings", () => {
  it("leaves unset keys null so pyproject.toml applies", () => {
    const { settings, warnings } = toServerSettings(getter({}));
    assert.deepEqual(settings, { select: null, ignore: null, targetPlatforms: null, logLevel: null });
    assert.deepEqual(warnings, []);
    // What VS Code returns for the contributed defaults.
    assert.deepEqual(
      toServerSettings(getter({ select: null, ignore: null, targetPlatforms: null, logLevel: null, path: "" })).settings,
      { select: null, ignore: null, targetPlatforms: null, logLevel: null },
    );
  });

  it("passes lists through, normalised (trimmed, codes upper-cased, platforms lower-cased, no duplicates)", () => {
    const { settings, warnings } = toServerSettings(
      getter({ select: [" jp001", "JP002", "jp001"], ignore: ["JP005", ""], targetPlatforms: ["TPU", "cuda"] }),
    );
    assert.deepEqual(settings, {
      select: ["JP001", "JP002"],
      ignore: ["JP005"],
      targetPlatforms: ["tpu", "cuda"],
      logLevel: null,
    });
    assert.deepEqual(warnings, []);
  });

  it("keeps an explicitly empty list (it overrides the file's list)", () => {
    assert.deepEqual(toServerSettings(getter({ ignore: [] })).settings.ignore, []);
  });

  it("accepts a comma-separated string", () => {
    assert.deepEqual(toServerSettings(getter({ select: "JP001, JP003" })).settings.select, ["JP001", "JP003"]);
  });

  it("drops unknown platforms and bad values with a warning naming the setting", () => {
    const { settings, warnings } = toServerSettings(
      getter({ targetPlatforms: ["tpu", "gpu"], ignore: 5, select: ["JP001", 7], logLevel: "loud" }),
    );
    assert.deepEqual(settings.targetPlatforms, ["tpu"]);
    assert.equal(settings.ignore, null);
    assert.deepEqual(settings.select, ["JP001"]);
    assert.equal(settings.logLevel, null);
    assert.equal(warnings.length, 4);
    assert.ok(warnings.some((w) => w.startsWith("jax-lsp.targetPlatforms") && w.includes('"gpu"')));
    assert.ok(warnings.some((w) => w.startsWith("jax-lsp.ignore")));
    assert.ok(warnings.some((w) => w.startsWith("jax-lsp.select")));
    assert.ok(warnings.some((w) => w.startsWith("jax-lsp.logLevel")));
  });

  it("maps logLevel", () => {
    assert.equal(toServerSettings(getter({ logLevel: "Debug" })).settings.logLevel, "debug");
  });
});

describe("wire format", () => {
  const settings = { select: ["JP001"], ignore: null, targetPlatforms: ["tpu"], logLevel: null };

  it("initializationOptions and didChangeConfiguration carry section jax-lsp", () => {
    assert.deepEqual(initializationOptions(settings), { "jax-lsp": settings });
    assert.deepEqual(didChangeConfigurationParams(settings), { settings: { "jax-lsp": settings } });
    // JSON round trip: nulls are sent as null (the server reads null as "not set").
    assert.equal(
      JSON.stringify(didChangeConfigurationParams(settings)),
      '{"settings":{"jax-lsp":{"select":["JP001"],"ignore":null,"targetPlatforms":["tpu"],"logLevel":null}}}',
    );
  });

  it("answers workspace/configuration for section jax-lsp only", () => {
    assert.deepEqual(configurationItem("jax-lsp", settings), settings);
    assert.deepEqual(configurationItem(undefined, settings), settings);
    assert.equal(configurationItem("python", settings), undefined);
  });
});

describe("changeAction", () => {
  const changed = (...keys: string[]) => (section: string) =>
    keys.some((k) => k === section || k.startsWith(section + "."));

  it("restarts when the binary path changes", () => {
    assert.equal(changeAction(changed("jax-lsp.path")), "restart");
    assert.equal(changeAction(changed("jax-lsp.path", "jax-lsp.select")), "restart");
  });

  it("notifies the running server when rule settings change", () => {
    for (const key of ["select", "ignore", "targetPlatforms", "logLevel"]) {
      assert.equal(changeAction(changed(`jax-lsp.${key}`)), "notify", key);
    }
  });

  it("does nothing for other settings (trace.server is handled by the client library)", () => {
    assert.equal(changeAction(changed("python.analysis.typeCheckingMode")), "none");
    assert.equal(changeAction(changed("jax-lsp.trace.server")), "none");
  });
});
