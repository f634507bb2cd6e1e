// The Python extension adapter, against plain objects shaped like its API (and unlike it).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type ExtensionLike, onActiveEnvironmentChange, queryPythonExtension } from "../src/python";

const uri = (fsPath: string) => ({ scheme: "file", fsPath });

/** An installed Python extension whose API is `exports` (activated on first use). */
function extension(exports: unknown, active = false): ExtensionLike & { activations: number } {
  const ext: { isActive: boolean; exports: unknown; activations: number; activate(): Promise<unknown> } = {
    isActive: active,
    exports: active ? exports : undefined,
    activations: 0,
    activate: async () => {
      ext.activations += 1;
      ext.isActive = true;
      ext.exports = exports;
      return exports;
    },
  };
  return ext;
}

/** The current API: environments.getActiveEnvironmentPath / resolveEnvironment. */
function environmentsApi(active: { id: string; path: string } | undefined, resolved: unknown) {
  const seen: unknown[] = [];
  const listeners: (() => void)[] = [];
  return {
    seen,
    listeners,
    environments: {
      getActiveEnvironmentPath: (resource?: unknown) => {
        seen.push(resource);
        return active;
      },
      resolveEnvironment: async (env: unknown) => {
        assert.deepEqual(env, active);
        return resolved;
      },
      onDidChangeActiveEnvironmentPath: (listener: () => void) => {
        listeners.push(listener);
        return { dispose: () => listeners.splice(listeners.indexOf(listener), 1) };
      },
    },
  };
}

describe("queryPythonExtension", () => {
  it("no extension: nothing, and no note", async () => {
    assert.deepEqual(await queryPythonExtension(undefined, undefined), {});
  });

  it("activates the extension and resolves the active environment of the workspace folder", async () => {
    const api = environmentsApi(
      { id: "x", path: "/ws/.venv/bin/python" },
      { executable: { uri: uri("/ws/.venv/bin/python"), sysPrefix: "/ws/.venv" }, environment: { folderUri: uri("/ws/.venv") } },
    );
    const ext = extension(api);
    const folder = { uri: uri("/ws"), name: "ws", index: 0 };
    const q = await queryPythonExtension(ext, folder);
    assert.equal(ext.activations, 1);
    assert.deepEqual(q.environment, { executable: "/ws/.venv/bin/python", prefix: "/ws/.venv" });
    assert.equal(q.note, undefined);
    assert.equal(q.api, api);
    assert.deepEqual(api.seen, [folder]);
    // Already active: not activated again.
    await queryPythonExtension(ext, folder);
    assert.equal(ext.activations, 1);
  });

  it("falls back to the environment folder, then to the active path, when resolution says less", async () => {
    const noPrefix = environmentsApi({ id: "c", path: "/conda/envs/a/bin/python" }, {
      executable: { uri: uri("/conda/envs/a/bin/python"), sysPrefix: "" },
      environment: { folderUri: uri("/conda/envs/a") },
    });
    assert.deepEqual((await queryPythonExtension(extension(noPrefix, true), undefined)).environment, {
      executable: "/conda/envs/a/bin/python",
      prefix: "/conda/envs/a",
    });
    const unresolved = environmentsApi({ id: "u", path: "/usr/bin/python3" }, undefined);
    assert.deepEqual((await queryPythonExtension(extension(unresolved, true), undefined)).environment, {
      executable: "/usr/bin/python3",
      prefix: undefined,
    });
  });

  it("no interpreter selected: a note, no environment", async () => {
    const q = await queryPythonExtension(extension(environmentsApi(undefined, undefined), true), undefined);
    assert.equal(q.environment, undefined);
    assert.match(q.note ?? "", /no interpreter selected/);
  });

  it("older extensions: settings.getExecutionDetails", async () => {
    const api = { settings: { getExecutionDetails: () => ({ execCommand: ["/envs/old/bin/python", "-X"] }) } };
    assert.deepEqual((await queryPythonExtension(extension(api), undefined)).environment, { executable: "/envs/old/bin/python" });
  });

  it("never throws: a failing activation, a throwing API, an API of another shape, a hang", async () => {
    const failing: ExtensionLike = { isActive: false, exports: undefined, activate: async () => { throw new Error("boom"); } };
    assert.match((await queryPythonExtension(failing, undefined)).note ?? "", /could not be activated: boom/);

    const throwing = { environments: { getActiveEnvironmentPath: () => { throw new Error("not ready"); } } };
    const q = await queryPythonExtension(extension(throwing, true), undefined);
    assert.equal(q.environment, undefined);
    assert.match(q.note ?? "", /not ready/);

    assert.match((await queryPythonExtension(extension({ something: 1 }, true), undefined)).note ?? "", /neither environments nor settings/);
    assert.match((await queryPythonExtension(extension(42, true), undefined)).note ?? "", /has no API/);

    const hanging = {
      environments: {
        getActiveEnvironmentPath: () => ({ id: "h", path: "/h/bin/python" }),
        resolveEnvironment: () => new Promise(() => undefined),
      },
    };
    const started = Date.now();
    const h = await queryPythonExtension(extension(hanging, true), undefined, 50);
    assert.ok(Date.now() - started < 5000);
    assert.equal(h.environment, undefined);
    assert.match(h.note ?? "", /did not answer within/);
  });
});

describe("onActiveEnvironmentChange", () => {
  it("subscribes to onDidChangeActiveEnvironmentPath, and disposes", () => {
    const api = environmentsApi(undefined, undefined);
    let calls = 0;
    const sub = onActiveEnvironmentChange(api, () => (calls += 1));
    assert.ok(sub);
    api.listeners.forEach((l) => l());
    assert.equal(calls, 1);
    sub.dispose();
    assert.equal(api.listeners.length, 0);
  });

  it("is undefined for APIs without the event", () => {
    assert.equal(onActiveEnvironmentChange(undefined, () => undefined), undefined);
    assert.equal(onActiveEnvironmentChange({ settings: {} }, () => undefined), undefined);
    assert.equal(onActiveEnvironmentChange({ environments: { onDidChangeActiveEnvironmentPath: () => { throw new Error("x"); } } }, () => undefined), undefined);
  });
});
