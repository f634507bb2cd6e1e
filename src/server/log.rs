//! Logging to stderr and to the client (`window/logMessage`).
//!
//! The level comes from `JAX_LSP_LOG` (which wins) or the client setting
//! `logLevel`; the default is `info`.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU8, Ordering};
use tower_lsp::lsp_types::MessageType;
use tower_lsp::Client;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum Level {
    Off = 0,
    Error = 1,
    Warn = 2,
    Info = 3,
    Debug = 4,
    Trace = 5,
}

impl Level {
    pub fn parse(s: &str) -> Option<Level> {
        Some(match s.trim().to_ascii_lowercase().as_str() {
            "off" | "none" | "0" => Level::Off,
            "error" => Level::Error,
            "warn" | "warning" => Level::Warn,
            "info" => Level::Info,
            "debug" => Level::Debug,
            "trace" | "verbose" => Level::Trace,
            _ => return None,
        })
    }

    fn from_u8(v: u8) -> Level {
        match v {
            0 => Level::Off,
            1 => Level::Error,
            2 => Level::Warn,
            3 => Level::Info,
            4 => Level::Debug,
            _ => Level::Trace,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Level::Off => "off",
            Level::Error => "ERROR",
            Level::Warn => "WARN",
            Level::Info => "INFO",
            Level::Debug => "DEBUG",
            Level::Trace => "TRACE",
        }
    }
}

pub struct Logger {
    client: Option<Client>,
    level: AtomicU8,
    /// `JAX_LSP_LOG` was set: client settings do not change the level.
    from_env: bool,
    /// Sending to the client is possible (after `initialize`).
    to_client: AtomicBool,
}

impl Logger {
    pub fn new(client: Option<Client>) -> Logger {
        let env = std::env::var("JAX_LSP_LOG")
            .ok()
            .and_then(|v| Level::parse(&v));
        Logger {
            client,
            level: AtomicU8::new(env.unwrap_or(Level::Info) as u8),
            from_env: env.is_some(),
            to_client: AtomicBool::new(false),
        }
    }

    /// The level from client settings (ignored when `JAX_LSP_LOG` is set).
    pub fn set_level_from_settings(&self, level: Level) {
        if !self.from_env {
            self.level.store(level as u8, Ordering::Relaxed);
        }
    }

    pub fn enable_client(&self) {
        self.to_client.store(true, Ordering::Relaxed);
    }

    pub fn enabled(&self, level: Level) -> bool {
        level != Level::Off && level <= Level::from_u8(self.level.load(Ordering::Relaxed))
    }

    pub fn log(&self, level: Level, args: fmt::Arguments<'_>) {
        if !self.enabled(level) {
            return;
        }
        let message = args.to_string();
        eprintln!("[jax-lsp {}] {message}", level.name());
        if !self.to_client.load(Ordering::Relaxed) {
            return;
        }
        let (Some(client), Ok(handle)) =
            (self.client.clone(), tokio::runtime::Handle::try_current())
        else {
            return;
        };
        let typ = match level {
            Level::Error => MessageType::ERROR,
            Level::Warn => MessageType::WARNING,
            Level::Info => MessageType::INFO,
            _ => MessageType::LOG,
        };
        handle.spawn(async move { client.log_message(typ, message).await });
    }

    pub fn error(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Error, args)
    }
    pub fn warn(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Warn, args)
    }
    pub fn info(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Info, args)
    }
    pub fn debug(&self, args: fmt::Arguments<'_>) {
        self.log(Level::Debug, args)
    }
}
