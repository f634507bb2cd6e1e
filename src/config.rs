//! `[tool.jax-lsp]` in pyproject.toml, and rule selection.

use crate::rules;
use globset::{Glob, GlobMatcher};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Settings for checking files, after reading config and command-line flags.
#[derive(Clone, Debug, Default)]
pub struct Settings {
    /// Code prefixes to enable (`None`: all rules).
    pub select: Option<Vec<String>>,
    pub ignore: Vec<String>,
    pub per_file_ignores: Vec<(GlobMatcher, Vec<String>)>,
    /// Where the project's code runs (`["tpu"]`): used where JAX would take the
    /// host's platform.
    pub target_platforms: Vec<String>,
    /// The directory the config was found in (per-file-ignores are relative to it).
    pub root: Option<PathBuf>,
    /// The project's platform contracts (`[[tool.jax-lsp.contract]]`), and
    /// the mistakes in them (a broken contract is left out alone).
    pub contracts: std::sync::Arc<crate::contracts::Contracts>,
}

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawConfig {
    pub select: Option<Vec<String>>,
    pub ignore: Option<Vec<String>>,
    pub per_file_ignores: Option<std::collections::BTreeMap<String, Vec<String>>>,
    pub target_platforms: Option<Vec<String>>,
    /// Read apart, with positions (`crate::contracts`).
    pub contract: Option<toml::Value>,
}

#[derive(Debug)]
pub struct ConfigError(pub String);

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ConfigError {}

impl Settings {
    /// The module scope the model needs to find this project's contract
    /// sites in `file`.
    pub fn contract_scope(&self, file: &Path) -> crate::semantic::contract::ContractScope {
        crate::semantic::contract::scope_for(file, self.contracts.matcher.clone())
    }

    /// Is `code` enabled for `file`?
    pub fn enabled(&self, code: &str, file: &Path) -> bool {
        let selected = match &self.select {
            None => true,
            Some(select) => select.iter().any(|p| code.starts_with(p.as_str())),
        };
        if !selected || self.ignore.iter().any(|p| code.starts_with(p.as_str())) {
            return false;
        }
        if !self.per_file_ignores.is_empty() {
            let canonical;
            let rel = match self.root.as_deref() {
                Some(root) => match file.strip_prefix(root) {
                    Ok(rel) => rel,
                    Err(_) => {
                        canonical =
                            std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
                        canonical.strip_prefix(root).unwrap_or(file)
                    }
                },
                None => file,
            };
            for (glob, codes) in &self.per_file_ignores {
                if (glob.is_match(rel) || glob.is_match(file))
                    && codes.iter().any(|p| code.starts_with(p.as_str()))
                {
                    return false;
                }
            }
        }
        true
    }

    /// Builds settings from a parsed `[tool.jax-lsp]` table.
    pub fn from_raw(
        raw: RawConfig,
        source: &str,
        root: Option<PathBuf>,
    ) -> Result<Settings, ConfigError> {
        Self::from_raw_with(raw, source, root, Default::default())
    }

    /// `from_raw` with the file's contracts, whose codes `select` and
    /// `ignore` may name too.
    pub fn from_raw_with(
        raw: RawConfig,
        source: &str,
        root: Option<PathBuf>,
        contracts: crate::contracts::Contracts,
    ) -> Result<Settings, ConfigError> {
        let check_codes = |key: &str, codes: &[String]| -> Result<(), ConfigError> {
            for code in codes {
                let known = rules::all()
                    .iter()
                    .any(|r| r.meta().code.starts_with(code.as_str()))
                    || contracts
                        .list
                        .iter()
                        .any(|c| c.code.starts_with(code.as_str()));
                if !known || code.is_empty() {
                    return Err(ConfigError(format!(
                        "{source}: `{key}`: unknown rule code or prefix `{code}`"
                    )));
                }
            }
            Ok(())
        };
        if let Some(select) = &raw.select {
            check_codes("select", select)?;
        }
        let ignore = raw.ignore.unwrap_or_default();
        check_codes("ignore", &ignore)?;
        let mut per_file_ignores = Vec::new();
        for (pattern, codes) in raw.per_file_ignores.unwrap_or_default() {
            check_codes(&format!("per-file-ignores.\"{pattern}\""), &codes)?;
            let glob = Glob::new(&pattern).map_err(|e| {
                ConfigError(format!(
                    "{source}: `per-file-ignores`: bad pattern `{pattern}`: {e}"
                ))
            })?;
            per_file_ignores.push((glob.compile_matcher(), codes));
        }
        let target_platforms = raw.target_platforms.unwrap_or_default();
        for platform in &target_platforms {
            if !crate::semantic::names::KNOWN_PLATFORMS.contains(&platform.as_str()) {
                return Err(ConfigError(format!(
                    "{source}: `target-platforms`: unknown platform `{platform}` (expected one of cpu, cuda, rocm, tpu, oneapi)"
                )));
            }
        }
        Ok(Settings {
            select: raw.select,
            ignore,
            per_file_ignores,
            target_platforms,
            root,
            contracts: std::sync::Arc::new(contracts),
        })
    }

    /// Reads `[tool.jax-lsp]` from a pyproject.toml; `Ok(None)` if it has none.
    pub fn from_pyproject(path: &Path) -> Result<Option<Settings>, ConfigError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| ConfigError(format!("{}: {e}", path.display())))?;
        Self::from_pyproject_text(&text, path)
    }

    pub fn from_pyproject_text(text: &str, path: &Path) -> Result<Option<Settings>, ConfigError> {
        let source = path.display().to_string();
        let doc: toml::Table = toml::from_str(text)
            .map_err(|e| ConfigError(format!("{source}: invalid TOML: {e}")))?;
        let Some(section) = doc.get("tool").and_then(|t| t.get("jax-lsp")) else {
            return Ok(None);
        };
        let raw: RawConfig = section.clone().try_into().map_err(|e: toml::de::Error| {
            ConfigError(format!("{source}: [tool.jax-lsp]: {}", e.message()))
        })?;
        let contracts = crate::contracts::parse(text, path);
        Self::from_raw_with(
            raw,
            &source,
            path.parent().map(Path::to_path_buf),
            contracts,
        )
        .map(Some)
    }

    /// The nearest pyproject.toml with a `[tool.jax-lsp]` table above `dir`.
    pub fn discover(dir: &Path) -> Result<Option<Settings>, ConfigError> {
        for ancestor in dir.ancestors() {
            let candidate = ancestor.join("pyproject.toml");
            if candidate.is_file() {
                if let Some(settings) = Self::from_pyproject(&candidate)? {
                    return Ok(Some(settings));
                }
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_and_codes_are_errors_naming_them() {
        let p = Path::new("/p/pyproject.toml");
        let err =
            Settings::from_pyproject_text("[tool.jax-lsp]\nselekt = [\"JP001\"]\n", p).unwrap_err();
        assert!(
            err.0.contains("selekt") && err.0.contains("/p/pyproject.toml"),
            "{err}"
        );
        let err =
            Settings::from_pyproject_text("[tool.jax-lsp]\nignore = [\"XX9\"]\n", p).unwrap_err();
        assert!(err.0.contains("XX9"), "{err}");
        let err =
            Settings::from_pyproject_text("[tool.jax-lsp]\ntarget-platforms = [\"gpu\"]\n", p)
                .unwrap_err();
        assert!(err.0.contains("gpu"), "{err}");
        assert!(Settings::from_pyproject_text("[project]\nname = 'x'\n", p)
            .unwrap()
            .is_none());
    }

    #[test]
    fn selection_and_per_file_ignores() {
        let p = Path::new("/p/pyproject.toml");
        let s = Settings::from_pyproject_text(
            "[tool.jax-lsp]\nselect = [\"JP00\"]\nignore = [\"JP004\"]\nper-file-ignores = { \"tests/*.py\" = [\"JP002\"] }\n",
            p,
        )
        .unwrap()
        .unwrap();
        assert!(s.enabled("JP001", Path::new("/p/a.py")));
        assert!(!s.enabled("JP004", Path::new("/p/a.py")));
        assert!(!s.enabled("JP002", Path::new("/p/tests/t.py")));
        assert!(s.enabled("JP002", Path::new("/p/src/t.py")));
    }
}
