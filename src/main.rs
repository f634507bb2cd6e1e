use clap::{Parser, Subcommand};
use jax_lsp::check::{self, CheckOptions, OutputFormat};
use jax_lsp::explain;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum RulesFormat {
    Text,
    Json,
    Markdown,
}

/// Finds JAX/Pallas platform-consistency mistakes before JAX lowers the program.
#[derive(Parser)]
#[command(name = "jax-lsp", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Check Python files and directories (exit 0 clean, 1 findings, 2 error).
    Check {
        /// Files or directories (default: the current directory).
        paths: Vec<PathBuf>,
        #[arg(long, value_enum, default_value_t = OutputFormat::Text)]
        output_format: OutputFormat,
        /// Only these rule codes or prefixes (comma-separated).
        #[arg(long, value_delimiter = ',')]
        select: Option<Vec<String>>,
        /// Skip these rule codes or prefixes (comma-separated).
        #[arg(long, value_delimiter = ',')]
        ignore: Vec<String>,
        /// Platforms the code runs on (overrides `target-platforms`).
        #[arg(long, value_delimiter = ',')]
        target_platforms: Option<Vec<String>>,
        /// Apply safe fixes.
        #[arg(long)]
        fix: bool,
        /// Apply unsafe fixes too (with --fix or --diff).
        #[arg(long)]
        unsafe_fixes: bool,
        /// Print the fixes as a diff instead of writing them.
        #[arg(long)]
        diff: bool,
        /// Print counts per rule.
        #[arg(long)]
        statistics: bool,
        /// Exit 0 even with findings.
        #[arg(long)]
        exit_zero: bool,
        /// Ignore pyproject.toml configuration.
        #[arg(long)]
        isolated: bool,
    },
    /// Explain a rule: a code (JP002), an upstream error id, or a pasted JAX error.
    Explain {
        /// Code, id or message (several words are joined).
        #[arg(required = true, num_args = 1..)]
        query: Vec<String>,
    },
    /// Run the language server on stdin/stdout.
    Server {
        /// Use stdio (the only transport; accepted for editor clients).
        #[arg(long)]
        stdio: bool,
    },
    /// Print what the model sees in a file: each lowering scenario with its
    /// platforms, how sure it is, and what it reaches (for maintainers).
    #[command(hide = true)]
    DebugLowerings { file: PathBuf },
    /// List the rules.
    Rules {
        /// Same as --format json.
        #[arg(long)]
        json: bool,
        #[arg(long, value_enum, default_value_t = RulesFormat::Text)]
        format: RulesFormat,
    },
}

/// Writes to stdout, ignoring a closed pipe (`jax-lsp explain JP003 | head`).
fn print_out(text: &str) {
    use std::io::Write;
    let _ = std::io::stdout().lock().write_all(text.as_bytes());
}

/// The allocator the binary uses (see `jax_lsp::alloc`).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    jax_lsp::alloc::install_for_tree_sitter();
    jax_lsp::alloc::no_transparent_huge_pages();
    jax_lsp::init_thread_pool();
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check {
            paths,
            output_format,
            select,
            ignore,
            target_platforms,
            fix,
            unsafe_fixes,
            diff,
            statistics,
            exit_zero,
            isolated,
        } => {
            if let Some(platforms) = &target_platforms {
                if let Some(bad) = platforms
                    .iter()
                    .find(|p| !jax_lsp::semantic::names::KNOWN_PLATFORMS.contains(&p.as_str()))
                {
                    eprintln!("error: --target-platforms: unknown platform `{bad}` (expected one of cpu, cuda, rocm, tpu, oneapi)");
                    return ExitCode::from(2);
                }
            }
            let paths = if paths.is_empty() {
                vec![PathBuf::from(".")]
            } else {
                paths
            };
            check::main(CheckOptions {
                paths,
                format: output_format,
                select,
                ignore,
                target_platforms,
                fix,
                unsafe_fixes,
                diff,
                statistics,
                exit_zero,
                isolated,
            })
        }
        Command::Explain { query } => {
            let query = query.join(" ");
            match explain::find(&query) {
                Some(rule) => {
                    print_out(&format!("{}\n", explain::render_with_query(rule)));
                    0
                }
                None => {
                    eprintln!("error: no rule matches `{query}` (try a code like JP002, see `jax-lsp rules`)");
                    2
                }
            }
        }
        Command::Server { stdio: _ } => jax_lsp::server::run(),
        Command::DebugLowerings { file } => match std::fs::read_to_string(&file) {
            Ok(text) => {
                print_out(&jax_lsp::analysis::debug_lowerings(&text, &file));
                0
            }
            Err(e) => {
                eprintln!("error: {}: {e}", file.display());
                2
            }
        },
        Command::Rules { json, format } => {
            match (json, format) {
                (true, _) | (_, RulesFormat::Json) => {
                    print_out(&format!("{}\n", explain::rules_table(true)))
                }
                (_, RulesFormat::Markdown) => print_out(&explain::rules_markdown()),
                (_, RulesFormat::Text) => print_out(&explain::rules_table(false)),
            }
            0
        }
    };
    ExitCode::from(code as u8)
}
