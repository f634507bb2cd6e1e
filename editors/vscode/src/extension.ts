// VS Code client for jax-lsp: starts `jax-lsp server` over stdio for Python files.
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as vscode from "vscode";
import {
  DidChangeConfigurationNotification,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";
import { onActiveEnvironmentChange, PYTHON_EXTENSION_ID, queryPythonExtension, type ExtensionLike } from "./python";
import { bundledBinaryPath, resolveServerBinary, type PythonEnvironmentInfo, type Resolution } from "./resolve";
import {
  changeAction,
  configurationItem,
  didChangeConfigurationParams,
  initializationOptions,
  SECTION,
  type ServerSettings,
  toServerSettings,
} from "./settings";

const CLIENT_ID = "jax-lsp"; // also makes the client honour `jax-lsp.trace.server`
const CLIENT_NAME = "jax-lsp";

let client: LanguageClient | undefined;
let output: vscode.OutputChannel | undefined;
let extensionPath = "";
let subscriptions: { dispose(): unknown }[] = [];
// What the last start found: the binary started, or the not-found message shown. An interpreter
// change that finds the same again changes nothing (and shows no second error).
let lastOutcome: string | undefined;
let watchingInterpreter = false;
// Serialises start/stop/restart so that quick setting changes cannot start two servers.
let queue: Promise<void> = Promise.resolve();

function log(line: string): void {
  output?.appendLine(`[client] ${line}`);
}

function isExecutableFile(p: string): boolean {
  try {
    if (!fs.statSync(p).isFile()) {
      return false;
    }
    if (process.platform === "win32") {
      return true;
    }
    fs.accessSync(p, fs.constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function workspaceFolder(): string | undefined {
  const folder = vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.scheme === "file" ? folder.uri.fsPath : undefined;
}

// Each settings problem is shown once (settings are read on every request for them).
const shownWarnings = new Set<string>();

function currentSettings(): ServerSettings {
  const config = vscode.workspace.getConfiguration(SECTION);
  const mapped = toServerSettings((key) => config.get(key));
  for (const warning of mapped.warnings) {
    if (!shownWarnings.has(warning)) {
      shownWarnings.add(warning);
      log(warning);
      void vscode.window.showWarningMessage(`jax-lsp: ${warning}`);
    }
  }
  return mapped.settings;
}

function configuredPath(): string {
  return (vscode.workspace.getConfiguration(SECTION).get<string>("path") ?? "").trim();
}

/** The Python extension's selected interpreter; undefined when that extension is not installed. */
async function pythonEnvironment(): Promise<PythonEnvironmentInfo | undefined> {
  let extension: ExtensionLike | undefined;
  try {
    extension = vscode.extensions.getExtension(PYTHON_EXTENSION_ID);
  } catch {
    extension = undefined;
  }
  if (extension === undefined) {
    return undefined;
  }
  const query = await queryPythonExtension(extension, vscode.workspace.workspaceFolders?.[0]);
  if (query.note !== undefined) {
    log(`${query.note}; not looking in its environment`);
  }
  if (!watchingInterpreter && query.api !== undefined) {
    const watch = onActiveEnvironmentChange(query.api, () => void onInterpreterChanged());
    if (watch !== undefined) {
      watchingInterpreter = true;
      subscriptions.push(watch);
    }
  }
  return query.environment;
}

async function resolveBinary(): Promise<Resolution> {
  const bundled = bundledBinaryPath(extensionPath, process.platform);
  if (process.platform !== "win32" && fs.existsSync(bundled) && !isExecutableFile(bundled)) {
    // Some unzip paths drop the executable bit of files inside the .vsix.
    try {
      fs.chmodSync(bundled, 0o755);
    } catch (err) {
      log(`could not make ${bundled} executable: ${String(err)}`);
    }
  }
  const setting = configuredPath();
  return resolveServerBinary({
    platform: process.platform,
    extensionPath,
    configuredPath: setting,
    workspaceFolder: workspaceFolder(),
    // The setting wins outright: the Python extension is not even asked.
    pythonEnvironment: setting.length > 0 ? undefined : await pythonEnvironment(),
    homeDir: os.homedir(),
    envPath: process.env.PATH ?? process.env.Path,
    pathExt: process.env.PATHEXT,
    isExecutableFile,
  });
}

function outcome(resolution: Resolution): string {
  return resolution.ok ? `ok:${resolution.path}` : `error:${resolution.message}`;
}

async function showNotFound(message: string): Promise<void> {
  const openSettings = "Open Settings";
  const openReadme = "Open README";
  const choice = await vscode.window.showErrorMessage(`jax-lsp: ${message}`, openSettings, openReadme);
  if (choice === openSettings) {
    await vscode.commands.executeCommand("workbench.action.openSettings", "jax-lsp.path");
  } else if (choice === openReadme) {
    // vsce stores README.md as readme.md in the .vsix.
    const file = ["readme.md", "README.md"].map((f) => path.join(extensionPath, f)).find((f) => fs.existsSync(f));
    if (file !== undefined) {
      await vscode.commands.executeCommand("markdown.showPreview", vscode.Uri.file(file));
    }
  }
}

async function startClient(found?: Resolution): Promise<void> {
  const resolution = found ?? (await resolveBinary());
  lastOutcome = outcome(resolution);
  if (!resolution.ok) {
    log(resolution.message);
    log(`looked for: ${resolution.tried.join(", ")}`);
    void showNotFound(resolution.message);
    return;
  }
  log(`using ${resolution.path} (${resolution.reason})`);

  const serverOptions: ServerOptions = {
    command: resolution.path,
    args: ["server"],
    transport: TransportKind.stdio,
    options: { cwd: workspaceFolder(), env: { ...process.env } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      { scheme: "file", language: "python" },
      { scheme: "untitled", language: "python" },
    ],
    initializationOptions: initializationOptions(currentSettings()),
    outputChannel: output,
    traceOutputChannel: output,
    middleware: {
      workspace: {
        // A server that pulls `workspace/configuration` gets the same mapped section.
        configuration: async (params, token, next) => {
          const answers = await next(params, token);
          if (!Array.isArray(answers)) {
            return answers;
          }
          const settings = currentSettings();
          return params.items.map((item, i) => configurationItem(item.section, settings) ?? answers[i]);
        },
      },
    },
  };

  const newClient = new LanguageClient(CLIENT_ID, CLIENT_NAME, serverOptions, clientOptions);
  client = newClient;
  try {
    await newClient.start();
  } catch (err) {
    // The language client has already shown an error with a "Go to output" button.
    log(`the server (${resolution.path}) failed to start: ${String(err)}`);
  }
}

async function stopClient(): Promise<void> {
  const old = client;
  client = undefined;
  if (old === undefined) {
    return;
  }
  try {
    if (old.isRunning()) {
      await old.stop();
    }
  } catch (err) {
    log(`stopping the server: ${String(err)}`);
  }
  try {
    await old.dispose();
  } catch {
    // already stopped
  }
}

function enqueue(task: () => Promise<void>): Promise<void> {
  queue = queue.then(task, task);
  return queue;
}

function restart(): Promise<void> {
  return enqueue(async () => {
    await stopClient();
    await startClient();
  });
}

/** Another interpreter was selected: restart when that changes which binary is found. */
function onInterpreterChanged(): Promise<void> {
  return enqueue(async () => {
    if (configuredPath().length > 0) {
      return; // jax-lsp.path decides, whatever the interpreter
    }
    const resolution = await resolveBinary();
    if (outcome(resolution) === lastOutcome) {
      log("the selected Python interpreter changed; the server binary did not");
      return;
    }
    log("the selected Python interpreter changed; restarting the server");
    await stopClient();
    await startClient(resolution);
  });
}

async function notifySettings(): Promise<void> {
  const running = client;
  if (running === undefined || !running.isRunning()) {
    return;
  }
  const params = didChangeConfigurationParams(currentSettings());
  await running.sendNotification(DidChangeConfigurationNotification.type, params);
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionPath = context.extensionPath;
  subscriptions = context.subscriptions;
  output = vscode.window.createOutputChannel("jax-lsp");
  context.subscriptions.push(
    output,
    vscode.commands.registerCommand("jax-lsp.restart", () => restart()),
    vscode.commands.registerCommand("jax-lsp.showOutput", () => output?.show(true)),
    vscode.workspace.onDidChangeConfiguration((event) => {
      switch (changeAction((s) => event.affectsConfiguration(s))) {
        case "restart":
          void restart();
          break;
        case "notify":
          void enqueue(notifySettings);
          break;
        case "none":
          break;
      }
    }),
  );
  await enqueue(() => startClient());
}

export function deactivate(): Promise<void> {
  return enqueue(stopClient);
}
