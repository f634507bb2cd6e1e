//! Client settings (`initializationOptions`, `workspace/didChangeConfiguration`,
//! section `jax-lsp`) merged over `[tool.jax-lsp]` from pyproject.toml.

use super::log::Level;
use crate::config::{RawConfig, Settings};
use dashmap::DashMap;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, RwLock};

/// What the client set; `None`: not set (the file's value, or the default, applies).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ClientSettings {
    pub select: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    pub target_platforms: Option<Vec<String>>,
    pub log_level: Option<Level>,
}

pub const CLIENT_SOURCE: &str = "client settings (jax-lsp)";

impl ClientSettings {
    /// Reads settings from the JSON a client sends: either `{"jax-lsp": {...}}`
    /// or the section itself. `Ok(None)`: nothing for us in it.
    pub fn from_json(value: &Value) -> Result<Option<ClientSettings>, String> {
        let section = match value {
            Value::Null => return Ok(None),
            Value::Object(map) => match map.get("jax-lsp").or_else(|| map.get("jax_lsp")) {
                Some(Value::Null) => return Ok(None),
                Some(inner) => inner,
                None => value,
            },
            Value::Array(items) if items.is_empty() => value,
            _ => return Err(format!("{CLIENT_SOURCE}: expected an object")),
        };
        // Lua clients (Neovim) send an empty table, `{}` to the user, as `[]`.
        let empty = serde_json::Map::new();
        let map = match section {
            Value::Object(map) => map,
            Value::Array(items) if items.is_empty() => &empty,
            _ => return Err(format!("{CLIENT_SOURCE}: expected an object")),
        };
        const KEYS: &[&str] = &[
            "select",
            "ignore",
            "targetPlatforms",
            "target-platforms",
            "target_platforms",
            "logLevel",
            "log-level",
        ];
        if std::ptr::eq(section, value) && !KEYS.iter().any(|k| map.contains_key(*k)) {
            // Not our section (another tool's settings, or `{}`).
            return Ok(None);
        }
        let list = |keys: &[&str]| -> Result<Option<Vec<String>>, String> {
            let Some((key, v)) = keys.iter().find_map(|k| map.get(*k).map(|v| (*k, v))) else {
                return Ok(None);
            };
            match v {
                Value::Null => Ok(None),
                Value::Array(items) => items
                    .iter()
                    .map(|i| {
                        i.as_str().map(str::to_owned).ok_or_else(|| {
                            format!("{CLIENT_SOURCE}: `{key}`: expected a list of strings")
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()
                    .map(Some),
                _ => Err(format!(
                    "{CLIENT_SOURCE}: `{key}`: expected a list of strings"
                )),
            }
        };
        let log_level = match map.get("logLevel").or_else(|| map.get("log-level")) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(
                Level::parse(s)
                    .ok_or_else(|| format!("{CLIENT_SOURCE}: `logLevel`: unknown level `{s}`"))?,
            ),
            Some(_) => return Err(format!("{CLIENT_SOURCE}: `logLevel`: expected a string")),
        };
        let settings = ClientSettings {
            select: list(&["select"])?,
            ignore: list(&["ignore"])?,
            target_platforms: list(&["targetPlatforms", "target-platforms", "target_platforms"])?,
            log_level,
        };
        // The same checks as for the file (codes and platform names).
        let raw = RawConfig {
            select: settings.select.clone(),
            ignore: settings.ignore.clone(),
            per_file_ignores: None,
            target_platforms: settings.target_platforms.clone(),
            contract: None,
        };
        Settings::from_raw(raw, CLIENT_SOURCE, None).map_err(|e| e.0)?;
        Ok(Some(settings))
    }

    /// `file` with every key the client set replaced.
    pub fn apply(&self, mut file: Settings) -> Settings {
        if let Some(select) = &self.select {
            file.select = Some(select.clone());
        }
        if let Some(ignore) = &self.ignore {
            file.ignore = ignore.clone();
        }
        if let Some(platforms) = &self.target_platforms {
            file.target_platforms = platforms.clone();
        }
        file
    }
}

/// Effective settings per directory, cached until the configuration changes.
#[derive(Default)]
pub struct SettingsStore {
    client: RwLock<ClientSettings>,
    /// The workspace folders, and the client settings scoped to each
    /// (`workspace/configuration` with a `scopeUri`): a multi-root workspace
    /// may configure each folder differently.
    folders: RwLock<Vec<PathBuf>>,
    folder_client: RwLock<Vec<(PathBuf, ClientSettings)>>,
    by_dir: DashMap<PathBuf, Arc<Settings>>,
    /// Config errors already shown (each once, until the config changes).
    shown: Mutex<Vec<String>>,
}

impl SettingsStore {
    pub fn set_client(&self, settings: ClientSettings) {
        *self.client.write().unwrap_or_else(|e| e.into_inner()) = settings;
        self.invalidate();
    }

    pub fn client(&self) -> ClientSettings {
        self.client
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    pub fn set_folders(&self, folders: Vec<PathBuf>) {
        *self.folders.write().unwrap_or_else(|e| e.into_inner()) = folders;
        self.folder_client
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .clear();
        self.invalidate();
    }

    pub fn folders(&self) -> Vec<PathBuf> {
        self.folders
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// Client settings for one workspace folder (`None`: the folder has none
    /// of its own; the workspace-wide ones apply).
    pub fn set_folder_client(&self, folder: &Path, settings: Option<ClientSettings>) {
        {
            let mut scoped = self
                .folder_client
                .write()
                .unwrap_or_else(|e| e.into_inner());
            scoped.retain(|(f, _)| f != folder);
            if let Some(settings) = settings {
                scoped.push((folder.to_path_buf(), settings));
            }
        }
        self.invalidate();
    }

    /// The innermost workspace folder holding `file`.
    fn folder_of(&self, file: &Path) -> Option<PathBuf> {
        self.folders
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .filter(|folder| file.starts_with(folder))
            .max_by_key(|folder| folder.components().count())
            .cloned()
    }

    /// The client settings that apply to `file`: its folder's, else the
    /// workspace-wide ones.
    fn client_for(&self, file: &Path) -> ClientSettings {
        if let Some(folder) = self.folder_of(file) {
            let scoped = self.folder_client.read().unwrap_or_else(|e| e.into_inner());
            if let Some((_, settings)) = scoped.iter().find(|(f, _)| *f == folder) {
                return settings.clone();
            }
        }
        self.client()
    }

    /// Forgets cached settings (pyproject.toml or client settings changed).
    pub fn invalidate(&self) {
        self.by_dir.clear();
        self.shown.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// Settings for a file; `on_error` is called once per distinct config
    /// error (the defaults are used instead of the broken file).
    pub fn for_file(&self, file: &Path, on_error: &dyn Fn(&str)) -> Arc<Settings> {
        let dir = file.parent().unwrap_or(Path::new("/")).to_path_buf();
        if let Some(cached) = self.by_dir.get(&dir) {
            return cached.clone();
        }
        let from_file = match Settings::discover(&dir) {
            Ok(found) => found.unwrap_or_default(),
            Err(err) => {
                let mut shown = self.shown.lock().unwrap_or_else(|e| e.into_inner());
                if !shown.contains(&err.0) {
                    shown.push(err.0.clone());
                    drop(shown);
                    on_error(&err.0);
                }
                Settings::default()
            }
        };
        let settings = Arc::new(self.client_for(file).apply(from_file));
        self.by_dir.insert(dir, settings.clone());
        settings
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn reads_sections_and_rejects_bad_values_naming_the_key() {
        let s = ClientSettings::from_json(
            &json!({"jax-lsp": {"select": ["JP00"], "targetPlatforms": ["tpu"]}}),
        )
        .unwrap()
        .unwrap();
        assert_eq!(s.select, Some(vec!["JP00".to_owned()]));
        assert_eq!(s.target_platforms, Some(vec!["tpu".to_owned()]));
        assert_eq!(
            ClientSettings::from_json(&json!({"ignore": ["JP003"]}))
                .unwrap()
                .unwrap()
                .ignore,
            Some(vec!["JP003".to_owned()])
        );
        assert_eq!(ClientSettings::from_json(&Value::Null).unwrap(), None);
        assert_eq!(
            ClientSettings::from_json(&json!({"python": {}})).unwrap(),
            None
        );
        assert_eq!(
            ClientSettings::from_json(&json!({"jax-lsp": {}})).unwrap(),
            Some(ClientSettings::default())
        );
        let err = ClientSettings::from_json(&json!({"select": "JP001"})).unwrap_err();
        assert!(err.contains("`select`"), "{err}");
        let err = ClientSettings::from_json(&json!({"targetPlatforms": ["gpu"]})).unwrap_err();
        assert!(err.contains("gpu"), "{err}");
    }

    #[test]
    fn client_keys_override_the_file() {
        let file = Settings {
            select: Some(vec!["JP001".into()]),
            ignore: vec!["JP002".into()],
            ..Default::default()
        };
        let client = ClientSettings {
            ignore: Some(vec![]),
            ..Default::default()
        };
        let merged = client.apply(file);
        assert_eq!(merged.select, Some(vec!["JP001".to_owned()]));
        assert!(merged.ignore.is_empty());
    }
}
