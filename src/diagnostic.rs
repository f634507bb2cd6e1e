//! Findings: what a rule reports, independent of any front end.

use crate::fix::Fix;
use crate::syntax::Span;
use serde::Serialize;
use std::path::PathBuf;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
        }
    }
}

/// Another place that explains a finding: the lowering call, the params, the callback.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Related {
    /// `None`: the file of the finding.
    pub file: Option<PathBuf>,
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub code: &'static str,
    pub severity: Severity,
    pub message: String,
    pub span: Span,
    pub related: Vec<Related>,
    pub fixes: Vec<Fix>,
}
