// Mapping VS Code settings (`jax-lsp.*`) to what the server reads. Pure logic: no `vscode`
// import, so it is unit-tested with `node --test`.
//
// The server reads section `jax-lsp` with keys `select`, `ignore`, `targetPlatforms` (and
// `logLevel`), from `initializationOptions` and from `workspace/didChangeConfiguration`
// (`{ settings: { "jax-lsp": { ... } } }`). A key that is `null` is "not set": the value from
// `[tool.jax-lsp]` in pyproject.toml (or the default) applies. A key that is set replaces the
// file's value.

export const SECTION = "jax-lsp";

export const KNOWN_PLATFORMS = ["cpu", "cuda", "rocm", "tpu", "oneapi"] as const;
export const LOG_LEVELS = ["off", "error", "warn", "info", "debug", "trace"] as const;

/** What the server receives under section `jax-lsp`. */
export interface ServerSettings {
  select: string[] | null;
  ignore: string[] | null;
  targetPlatforms: string[] | null;
  logLevel: string | null;
}

/** Reads one setting below `jax-lsp.` (e.g. `get("select")`); undefined when absent. */
export type SettingGetter = (key: string) => unknown;

/** Problems found while reading the settings, worded for the user. */
export interface MappedSettings {
  settings: ServerSettings;
  warnings: string[];
}

function stringList(
  key: string,
  value: unknown,
  warnings: string[],
  normalise: (s: string) => string,
): string[] | null {
  if (value === undefined || value === null) {
    return null;
  }
  let items: unknown[];
  if (typeof value === "string") {
    // Tolerate "JP001, JP002" typed into a settings.json string.
    items = value.split(",");
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    warnings.push(`jax-lsp.${key}: expected a list of strings; ignoring it.`);
    return null;
  }
  const out: string[] = [];
  for (const item of items) {
    if (typeof item !== "string") {
      warnings.push(`jax-lsp.${key}: ${JSON.stringify(item)} is not a string; skipping it.`);
      continue;
    }
    const s = normalise(item.trim());
    if (s.length > 0 && !out.includes(s)) {
      out.push(s);
    }
  }
  return out;
}

/** Turns the `jax-lsp.*` settings into the server's section. */
export function toServerSettings(get: SettingGetter): MappedSettings {
  const warnings: string[] = [];
  const select = stringList("select", get("select"), warnings, (s) => s.toUpperCase());
  const ignore = stringList("ignore", get("ignore"), warnings, (s) => s.toUpperCase());
  let targetPlatforms = stringList("targetPlatforms", get("targetPlatforms"), warnings, (s) => s.toLowerCase());
  if (targetPlatforms !== null) {
    const unknown = targetPlatforms.filter((p) => !(KNOWN_PLATFORMS as readonly string[]).includes(p));
    if (unknown.length > 0) {
      warnings.push(
        `jax-lsp.targetPlatforms: unknown platform ${unknown.map((p) => `"${p}"`).join(", ")} ` +
          `(expected ${KNOWN_PLATFORMS.join(", ")}); ignoring it.`,
      );
      targetPlatforms = targetPlatforms.filter((p) => !unknown.includes(p));
    }
  }
  let logLevel: string | null = null;
  const rawLevel = get("logLevel");
  if (typeof rawLevel === "string" && rawLevel.trim().length > 0) {
    const level = rawLevel.trim().toLowerCase();
    if ((LOG_LEVELS as readonly string[]).includes(level)) {
      logLevel = level;
    } else {
      warnings.push(`jax-lsp.logLevel: unknown level "${rawLevel}" (expected ${LOG_LEVELS.join(", ")}).`);
    }
  }
  return { settings: { select, ignore, targetPlatforms, logLevel }, warnings };
}

/** `initializationOptions` for the `initialize` request. */
export function initializationOptions(settings: ServerSettings): { [SECTION]: ServerSettings } {
  return { [SECTION]: settings };
}

/** Params of a `workspace/didChangeConfiguration` notification. */
export function didChangeConfigurationParams(settings: ServerSettings): { settings: { [SECTION]: ServerSettings } } {
  return { settings: { [SECTION]: settings } };
}

/**
 * Answers a `workspace/configuration` item: the server's section for `jax-lsp` (or no
 * section), the plain VS Code value otherwise (`undefined`: let the default handler answer).
 */
export function configurationItem(section: string | undefined, settings: ServerSettings): ServerSettings | undefined {
  if (section === undefined || section === SECTION) {
    return settings;
  }
  return undefined;
}

/** What a configuration change needs. */
export type ChangeAction = "restart" | "notify" | "none";

/**
 * Decides what to do when settings change. `affects(key)` tells whether `jax-lsp.<key>` (or
 * `jax-lsp` for the whole section) changed, like `ConfigurationChangeEvent.affectsConfiguration`.
 * `trace.server` is handled by the language client itself.
 */
export function changeAction(affects: (section: string) => boolean): ChangeAction {
  if (!affects(SECTION)) {
    return "none";
  }
  if (affects(`${SECTION}.path`)) {
    return "restart";
  }
  if (["select", "ignore", "targetPlatforms", "logLevel"].some((k) => affects(`${SECTION}.${k}`))) {
    return "notify";
  }
  return "none";
}
