// Asking the Python extension (ms-python.python) which interpreter the workspace uses. No `vscode`
// import: the extension object is duck-typed, so a missing extension, an old one or one whose API
// differs degrades to "no interpreter known" instead of breaking activation, and `node --test`
// covers it with plain objects.
//
// The API used (`@vscode/python-extension`, Python extension 2023.x and later):
//   exports.environments.getActiveEnvironmentPath(resource?) -> { id, path }
//   exports.environments.resolveEnvironment(envPath) -> Promise<{ executable: { uri?: Uri,
//     sysPrefix?: string }, environment?: { folderUri: Uri } } | undefined>
//   exports.environments.onDidChangeActiveEnvironmentPath(listener) -> Disposable
// and, for older versions, exports.settings.getExecutionDetails(resource).execCommand[0].
import type { PythonEnvironmentInfo } from "./resolve";

export const PYTHON_EXTENSION_ID = "ms-python.python";

/** The part of `vscode.Extension` used here. */
export interface ExtensionLike {
  readonly isActive: boolean;
  readonly exports: unknown;
  activate(): PromiseLike<unknown>;
}

export interface Disposable {
  dispose(): unknown;
}

/** What asking the Python extension gave. */
export interface PythonQuery {
  /** The selected interpreter; undefined when the extension is absent or did not say. */
  environment?: PythonEnvironmentInfo;
  /** Why there is no environment (for the output channel); undefined when there is one or no extension. */
  note?: string;
  /** The extension's API object, when it was reached (for `onActiveEnvironmentChange`). */
  api?: unknown;
}

type Dict = { [key: string]: unknown };

function isObject(value: unknown): value is Dict {
  return (typeof value === "object" || typeof value === "function") && value !== null;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === "string" && value.trim().length > 0 ? value.trim() : undefined;
}

/** A `vscode.Uri`'s file path (only `file:` URIs have one that is usable here). */
function uriPath(uri: unknown): string | undefined {
  if (!isObject(uri)) {
    return undefined;
  }
  if (uri.scheme !== undefined && uri.scheme !== "file") {
    return undefined;
  }
  return nonEmptyString(uri.fsPath);
}

function withTimeout<T>(promise: PromiseLike<T>, ms: number, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms / 1000} s`)), ms);
    Promise.resolve(promise).then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        reject(err);
      },
    );
  });
}

function describeError(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Asks the Python extension for the interpreter of `resource` (a workspace folder or URI;
 * undefined: the window's). `extension` is `vscode.extensions.getExtension("ms-python.python")`.
 * Never throws; waits at most `timeoutMs` for each of activation and resolution.
 */
export async function queryPythonExtension(
  extension: ExtensionLike | undefined,
  resource: unknown,
  timeoutMs = 10_000,
): Promise<PythonQuery> {
  if (!isObject(extension)) {
    return {};
  }
  let api: unknown;
  try {
    api = extension.isActive ? extension.exports : await withTimeout(extension.activate(), timeoutMs, "the Python extension");
    if (!isObject(api)) {
      api = extension.exports; // activate() resolves to the exports, but be lenient
    }
  } catch (err) {
    return { note: `the Python extension could not be activated: ${describeError(err)}` };
  }
  if (!isObject(api)) {
    return { note: "the Python extension has no API" };
  }

  try {
    const environments = api.environments;
    if (isObject(environments) && typeof environments.getActiveEnvironmentPath === "function") {
      const active: unknown = environments.getActiveEnvironmentPath(resource);
      const activePath = isObject(active) ? nonEmptyString(active.path) : undefined;
      if (activePath === undefined) {
        return { api, note: "the Python extension has no interpreter selected" };
      }
      let executable: string | undefined;
      let prefix: string | undefined;
      if (typeof environments.resolveEnvironment === "function") {
        const resolved: unknown = await withTimeout(
          Promise.resolve(environments.resolveEnvironment(active)),
          timeoutMs,
          "the Python extension's resolveEnvironment",
        );
        if (isObject(resolved)) {
          const rawExe = resolved.executable;
          const exe: Dict = isObject(rawExe) ? rawExe : {};
          executable = uriPath(exe.uri);
          prefix = nonEmptyString(exe.sysPrefix);
          const env = resolved.environment;
          if (prefix === undefined && isObject(env)) {
            prefix = uriPath(env.folderUri);
          }
        }
      }
      if (executable === undefined && prefix === undefined) {
        // Not resolved: the active path is the interpreter (or, rarely, an environment folder
        // without one; the candidates next to it then simply do not exist).
        executable = activePath;
      }
      return { api, environment: { executable, prefix } };
    }

    // Older Python extensions.
    const settings = api.settings;
    if (isObject(settings) && typeof settings.getExecutionDetails === "function") {
      const details: unknown = settings.getExecutionDetails(resource);
      const command = isObject(details) && Array.isArray(details.execCommand) ? details.execCommand : [];
      const executable = nonEmptyString(command[0]);
      if (executable === undefined) {
        return { api, note: "the Python extension has no interpreter selected" };
      }
      return { api, environment: { executable } };
    }
    return { api, note: "the Python extension's API has neither environments nor settings" };
  } catch (err) {
    return { api, note: `the Python extension did not tell the interpreter: ${describeError(err)}` };
  }
}

/**
 * Calls `listener` when the user picks another interpreter. Returns undefined when the API has no
 * such event.
 */
export function onActiveEnvironmentChange(api: unknown, listener: () => void): Disposable | undefined {
  try {
    const environments = isObject(api) ? api.environments : undefined;
    if (!isObject(environments)) {
      return undefined;
    }
    const event = environments.onDidChangeActiveEnvironmentPath;
    if (typeof event !== "function") {
      return undefined;
    }
    const disposable: unknown = event.call(environments, () => listener());
    return isObject(disposable) && typeof disposable.dispose === "function" ? (disposable as unknown as Disposable) : undefined;
  } catch {
    return undefined;
  }
}
