// A stand-in for the `vscode` module, enough for dist/extension.js and vscode-languageclient to
// activate, spawn the server and talk LSP to it under plain Node (VS Code itself cannot be
// downloaded here). What the extension does through it is recorded in `FakeVscode`.
import Module from "node:module";
import * as path from "node:path";
import { root } from "./manifest";

export interface ConfigChange {
  affectsConfiguration(section: string): boolean;
}

export interface FakeVscode {
  /** Values for `getConfiguration(section).get(key)`, keyed `section.key`. */
  config: Record<string, unknown>;
  commands: Map<string, (...args: unknown[]) => unknown>;
  errors: { message: string; items: string[] }[];
  warnings: string[];
  /** Lines written to the output channel (by the extension and the language client). */
  output: string[];
  configListeners: ((e: ConfigChange) => void)[];
  /** `commands.executeCommand` calls, and the button the next error message "clicks". */
  executed: { command: string; args: unknown[] }[];
  nextErrorChoice?: string;
  /** `workspace.workspaceFolders`, from folder paths (undefined: no folder open). */
  workspaceFolders?: string[];
  /** What `extensions.getExtension(id)` returns (absent: not installed). */
  extensions: Map<string, unknown>;
  /** Fires a configuration change for `keys` (e.g. "jax-lsp.path"). */
  changeConfig(keys: string[]): void;
}

/**
 * Any property is a callable, constructible stand-in that returns more of the same: the
 * language client registers providers, listeners and status items through these.
 */
function anything(): unknown {
  const target = function () {};
  const proxy: unknown = new Proxy(target, {
    get(t, p) {
      if (p === "prototype") return t.prototype;
      if (p === "then") return undefined; // not a promise
      if (p === Symbol.iterator) return function* () {};
      if (p === Symbol.toPrimitive) return () => "";
      if (typeof p === "symbol") return undefined;
      if (p === "toJSON") return () => undefined;
      return anything();
    },
    apply: () => anything(),
    construct: () => anything() as object,
  });
  return proxy;
}

/** A `vscode.Uri` for a file path (what the extension and the Python extension API read of it). */
export function fileUri(fsPath: string): { scheme: string; fsPath: string; path: string; toString(): string } {
  return { scheme: "file", fsPath, path: fsPath, toString: () => `file://${fsPath}` };
}

function makeApi(state: FakeVscode): Record<string, unknown> {
  const api: Record<string, unknown> = {};
  // Namespaces and classes the bundle reads (esbuild's interop copies own keys only).
  const keys = [
    "window", "workspace", "commands", "languages", "Uri", "env", "extensions", "Disposable",
    "EventEmitter", "Range", "Position", "Location", "Selection", "TextEdit", "WorkspaceEdit",
    "MarkdownString", "CompletionItem", "CodeLens", "DocumentLink", "CodeAction", "Diagnostic",
    "CallHierarchyItem", "TypeHierarchyItem", "SymbolInformation", "InlayHint",
    "CancellationError", "CancellationTokenSource", "CodeActionKind", "DiagnosticSeverity",
    "StatusBarAlignment", "ThemeIcon", "ThemeColor", "RelativePattern", "ProgressLocation",
    "ConfigurationTarget", "LanguageStatusSeverity", "DocumentSymbol", "SymbolKind", "Hover",
    "SignatureHelp", "FoldingRange", "SemanticTokens", "SemanticTokensLegend",
    "TextDocumentSaveReason", "ViewColumn", "l10n", "notebooks", "debug", "tasks",
  ];
  for (const key of keys) {
    api[key] = anything();
  }
  // Classes extended at module load need a real prototype chain.
  for (const key of ["CompletionItem", "CodeLens", "DocumentLink", "CodeAction", "Diagnostic", "CallHierarchyItem", "TypeHierarchyItem", "SymbolInformation", "InlayHint", "CancellationError"]) {
    api[key] = class {};
  }
  api.version = "1.90.0";
  api.env = new Proxy(
    { appName: "Visual Studio Code (fake)", language: "en", machineId: "fake", sessionId: "fake", uiKind: 1 } as Record<string | symbol, unknown>,
    { get: (t, p) => (p in t ? t[p] : anything()) },
  );
  const disposable = { dispose: (): void => undefined };
  const outputChannel = (name: string) => ({
    name,
    appendLine: (line: string) => state.output.push(line),
    append: (text: string) => state.output.push(text),
    replace: () => undefined,
    clear: () => undefined,
    show: () => undefined,
    hide: () => undefined,
    dispose: () => undefined,
  });
  api.window = new Proxy(
    {
      createOutputChannel: outputChannel,
      showErrorMessage: async (message: string, ...items: unknown[]) => {
        state.errors.push({ message, items: items.filter((i): i is string => typeof i === "string") });
        const choice = state.nextErrorChoice;
        state.nextErrorChoice = undefined;
        return choice;
      },
      showWarningMessage: async (message: string) => {
        state.warnings.push(message);
        return undefined;
      },
      showInformationMessage: async () => undefined,
    } as Record<string | symbol, unknown>,
    { get: (t, p) => (p in t ? t[p] : anything()) },
  );
  api.commands = new Proxy(
    {
      registerCommand: (id: string, fn: (...args: unknown[]) => unknown) => {
        state.commands.set(id, fn);
        return disposable;
      },
      executeCommand: async (command: string, ...args: unknown[]) => {
        state.executed.push({ command, args });
        return undefined;
      },
    } as Record<string | symbol, unknown>,
    { get: (t, p) => (p in t ? t[p] : anything()) },
  );
  api.workspace = new Proxy(
    {
      get workspaceFolders() {
        return state.workspaceFolders?.map((folder, index) => ({
          uri: fileUri(folder),
          name: path.basename(folder),
          index,
        }));
      },
      textDocuments: [],
      notebookDocuments: [],
      getConfiguration: (section?: string) => ({
        get: (key: string, fallback?: unknown) => state.config[section ? `${section}.${key}` : key] ?? fallback,
        has: (key: string) => (section ? `${section}.${key}` : key) in state.config,
        inspect: () => undefined,
        update: async () => undefined,
      }),
      onDidChangeConfiguration: (listener: (e: ConfigChange) => void) => {
        state.configListeners.push(listener);
        return disposable;
      },
    } as Record<string | symbol, unknown>,
    { get: (t, p) => (p in t ? t[p] : anything()) },
  );
  api.extensions = new Proxy(
    {
      getExtension: (id: string) => state.extensions.get(id),
      all: [],
    } as Record<string | symbol, unknown>,
    { get: (t, p) => (p in t ? t[p] : anything()) },
  );
  api.Uri = {
    file: fileUri,
    parse: (value: string) => ({ scheme: value.split(":")[0], toString: () => value }),
  };
  return api;
}

export function createFakeVscode(config: Record<string, unknown>): FakeVscode {
  const state: FakeVscode = {
    config,
    commands: new Map(),
    errors: [],
    warnings: [],
    output: [],
    configListeners: [],
    executed: [],
    extensions: new Map(),
    changeConfig(keys: string[]): void {
      const event: ConfigChange = {
        affectsConfiguration: (section) => keys.some((k) => k === section || k.startsWith(`${section}.`)),
      };
      for (const listener of state.configListeners) {
        listener(event);
      }
    },
  };
  return state;
}

export interface Extension {
  activate(context: unknown): Promise<void>;
  deactivate(): Promise<void>;
}

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;

/** Loads a fresh copy of dist/extension.js with `vscode` resolved to the fake. */
export function loadExtension(state: FakeVscode): Extension {
  const api = makeApi(state);
  const mod = Module as unknown as { _load: Load };
  const original = mod._load;
  const bundle = path.join(root, "dist", "extension.js");
  // Left in place: parts of the bundle may require `vscode` lazily. Each test file runs in its
  // own process under `node --test`.
  mod._load = function (request: string, parent: unknown, isMain: boolean): unknown {
    return request === "vscode" ? api : original.call(this, request, parent, isMain);
  };
  delete require.cache[require.resolve(bundle)];
  return require(bundle) as Extension;
}

/** Polls `cond` every 20 ms until it is truthy; throws after `ms`. */
export async function waitFor<T>(what: string, cond: () => T | undefined | null | false, ms = 10000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = cond();
    if (value) {
      return value;
    }
    if (Date.now() > end) {
      throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
