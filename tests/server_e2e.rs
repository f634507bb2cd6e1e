//! End-to-end tests of `jax-lsp server` over stdio, against the built binary.

use serde_json::{json, Value};
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

const TIMEOUT: Duration = Duration::from_secs(20);

// ---------------------------------------------------------------------------
// A small JSON-RPC client.

fn write_frame(out: &mut impl Write, msg: &Value) {
    let body = serde_json::to_string(msg).unwrap();
    write!(out, "Content-Length: {}\r\n\r\n{}", body.len(), body).unwrap();
    out.flush().unwrap();
}

fn read_frame(input: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if input.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(v) = line.strip_prefix("Content-Length:") {
            length = v.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    input.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// `shutdown` and `exit` take no params: a `null` is sent as none.
fn params_absent(msg: &Value) -> bool {
    msg["params"].is_null()
}

struct Lsp {
    child: Child,
    stdin: Arc<Mutex<ChildStdin>>,
    rx: Receiver<Value>,
    backlog: VecDeque<Value>,
    next_id: i64,
    stderr: Arc<Mutex<String>>,
    /// What the client answers to `workspace/configuration`, by `scopeUri`
    /// (`""` for an unscoped item); missing: `null`.
    configuration: Arc<Mutex<HashMap<String, Value>>>,
}

impl Lsp {
    fn spawn(envs: &[(&str, &str)]) -> Lsp {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_jax-lsp"));
        cmd.args(["server", "--stdio"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .env("JAX_LSP_LOG", "debug");
        for (k, v) in envs {
            cmd.env(k, v);
        }
        let mut child = cmd.spawn().expect("start jax-lsp server");
        let stdin = Arc::new(Mutex::new(child.stdin.take().unwrap()));
        let stdout = child.stdout.take().unwrap();
        let stderr_pipe = child.stderr.take().unwrap();
        let stderr = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = channel();
        let answer = stdin.clone();
        let configuration: Arc<Mutex<HashMap<String, Value>>> = Arc::default();
        let configured = configuration.clone();
        std::thread::spawn(move || {
            let mut input = BufReader::new(stdout);
            while let Some(msg) = read_frame(&mut input) {
                // Requests from the server are answered at once.
                if let (Some(id), Some(method)) =
                    (msg.get("id"), msg.get("method").and_then(Value::as_str))
                {
                    let result = match method {
                        "workspace/configuration" => {
                            let answers = configured.lock().unwrap();
                            let items = msg["params"]["items"].as_array().cloned();
                            let items = items.unwrap_or_default();
                            let values = items.iter().map(|item| {
                                let scope = item["scopeUri"].as_str().unwrap_or("");
                                answers.get(scope).cloned().unwrap_or(Value::Null)
                            });
                            Value::Array(values.collect())
                        }
                        _ => Value::Null,
                    };
                    let reply = json!({"jsonrpc": "2.0", "id": id, "result": result});
                    write_frame(&mut *answer.lock().unwrap(), &reply);
                }
                if tx.send(msg).is_err() {
                    break;
                }
            }
        });
        let log = stderr.clone();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut line = String::new();
            while reader.read_line(&mut line).map(|n| n > 0).unwrap_or(false) {
                log.lock().unwrap().push_str(&line);
                line.clear();
            }
        });
        Lsp {
            child,
            stdin,
            rx,
            backlog: VecDeque::new(),
            next_id: 1,
            stderr,
            configuration,
        }
    }

    fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    fn send(&mut self, msg: Value) {
        write_frame(&mut *self.stdin.lock().unwrap(), &msg);
    }

    fn send_raw(&mut self, bytes: &[u8]) {
        let mut stdin = self.stdin.lock().unwrap();
        stdin.write_all(bytes).unwrap();
        stdin.flush().unwrap();
    }

    fn notify(&mut self, method: &str, params: Value) {
        let mut msg = json!({"jsonrpc": "2.0", "method": method, "params": params});
        if params_absent(&msg) {
            msg.as_object_mut().unwrap().remove("params");
        }
        self.send(msg);
    }

    fn request_id(&mut self, method: &str, params: Value) -> i64 {
        let id = self.next_id;
        self.next_id += 1;
        let mut msg = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        if params_absent(&msg) {
            msg.as_object_mut().unwrap().remove("params");
        }
        self.send(msg);
        id
    }

    /// The whole response (with `result` or `error`).
    fn request_full(&mut self, method: &str, params: Value) -> Value {
        let id = self.request_id(method, params);
        self.wait_for(&format!("response to {method} #{id}"), |m| {
            m.get("method").is_none() && m["id"] == json!(id)
        })
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let response = self.request_full(method, params);
        assert!(
            response.get("error").is_none(),
            "{method} failed: {response}\n--- server stderr ---\n{}",
            self.stderr()
        );
        response["result"].clone()
    }

    /// The first message (buffered or new) matching `pred`; others are kept.
    fn wait_for(&mut self, what: &str, pred: impl Fn(&Value) -> bool) -> Value {
        if let Some(i) = self.backlog.iter().position(&pred) {
            return self.backlog.remove(i).unwrap();
        }
        let deadline = Instant::now() + TIMEOUT;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left) {
                Ok(msg) if pred(&msg) => return msg,
                Ok(msg) => self.backlog.push_back(msg),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "timed out waiting for {what}\n--- server stderr ---\n{}",
                        self.stderr()
                    )
                }
            }
        }
    }

    /// Everything that arrives within `window` (after the backlog).
    fn drain(&mut self, window: Duration) -> Vec<Value> {
        let mut out: Vec<Value> = self.backlog.drain(..).collect();
        let deadline = Instant::now() + window;
        while let Ok(msg) = self
            .rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            out.push(msg);
        }
        out
    }

    fn initialize(&mut self, capabilities: Value, options: Value) -> Value {
        let result = self.request(
            "initialize",
            json!({"processId": null, "rootUri": null, "capabilities": capabilities, "initializationOptions": options}),
        );
        self.notify("initialized", json!({}));
        result
    }

    /// The next `publishDiagnostics` for `uri` satisfying `pred`.
    fn published(&mut self, uri: &str, pred: impl Fn(&Value) -> bool) -> Value {
        self.wait_for(&format!("publishDiagnostics for {uri}"), |m| {
            m["method"] == "textDocument/publishDiagnostics"
                && m["params"]["uri"] == uri
                && pred(&m["params"])
        })["params"]
            .clone()
    }

    fn open(&mut self, uri: &str, text: &str) {
        self.notify(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": text}}),
        );
    }

    fn pull(&mut self, uri: &str) -> Value {
        self.request(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": uri}}),
        )
    }

    /// Replaces `span` of `text` by `new` and sends that as a ranged change
    /// of `uri` at `version`.
    fn change(
        &mut self,
        uri: &str,
        version: i64,
        text: &mut String,
        span: std::ops::Range<usize>,
        new: &str,
        enc: Enc,
    ) {
        let change = json!({"range": range(text, span.start, span.end, enc), "text": new});
        text.replace_range(span, new);
        self.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}),
        );
    }

    fn shutdown(mut self) {
        self.request("shutdown", Value::Null);
        self.notify("exit", Value::Null);
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("server did not exit after `exit`");
    }
}

impl Drop for Lsp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------
// Positions, computed independently of the crate.

#[derive(Clone, Copy, Debug, PartialEq)]
enum Enc {
    Utf8,
    Utf16,
    Utf32,
}

impl Enc {
    fn name(self) -> &'static str {
        match self {
            Enc::Utf8 => "utf-8",
            Enc::Utf16 => "utf-16",
            Enc::Utf32 => "utf-32",
        }
    }

    fn width(self, s: &str) -> usize {
        match self {
            Enc::Utf8 => s.len(),
            Enc::Utf16 => s.encode_utf16().count(),
            Enc::Utf32 => s.chars().count(),
        }
    }
}

/// Where lines start: after \n, \r\n or a lone \r (LSP's line ends).
fn line_starts(text: &str) -> Vec<usize> {
    let bytes = text.as_bytes();
    let mut starts = vec![0];
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' || (b == b'\r' && bytes.get(i + 1) != Some(&b'\n')) {
            starts.push(i + 1);
        }
    }
    starts
}

fn position(text: &str, offset: usize, enc: Enc) -> Value {
    let starts = line_starts(text);
    let line = starts.partition_point(|&s| s <= offset) - 1;
    json!({"line": line, "character": enc.width(&text[starts[line]..offset])})
}

fn offset(text: &str, pos: &Value, enc: Enc) -> usize {
    let line = pos["line"].as_u64().unwrap() as usize;
    let col = pos["character"].as_u64().unwrap() as usize;
    let Some(&line_start) = line_starts(text).get(line) else {
        return text.len();
    };
    let mut units = 0;
    for (i, ch) in text[line_start..].char_indices() {
        if units >= col || ch == '\n' || ch == '\r' {
            return line_start + i;
        }
        units += enc.width(ch.encode_utf8(&mut [0; 4]));
    }
    text.len()
}

fn range(text: &str, start: usize, end: usize, enc: Enc) -> Value {
    json!({"start": position(text, start, enc), "end": position(text, end, enc)})
}

/// The text edits of a WorkspaceEdit for `uri`, in either form.
fn edits_of(edit: &Value, uri: &str) -> Vec<Value> {
    if let Some(changes) = edit["documentChanges"].as_array() {
        return changes
            .iter()
            .filter(|c| c["textDocument"]["uri"] == uri)
            .flat_map(|c| c["edits"].as_array().cloned().unwrap_or_default())
            .collect();
    }
    edit["changes"][uri].as_array().cloned().unwrap_or_default()
}

/// Applies edits to `text` like a client, returning the new text and the
/// content changes to send (last edit first, so every range stays valid).
fn apply_client_side(text: &str, edits: &[Value], enc: Enc) -> (String, Vec<Value>) {
    let mut sorted: Vec<(usize, usize, Value)> = edits
        .iter()
        .map(|e| {
            (
                offset(text, &e["range"]["start"], enc),
                offset(text, &e["range"]["end"], enc),
                e.clone(),
            )
        })
        .collect();
    sorted.sort_by_key(|(s, e, _)| (std::cmp::Reverse(*s), std::cmp::Reverse(*e)));
    let mut out = text.to_owned();
    let mut changes = Vec::new();
    for (start, end, e) in sorted {
        out.replace_range(start..end, e["newText"].as_str().unwrap());
        changes.push(json!({"range": e["range"], "text": e["newText"]}));
    }
    (out, changes)
}

// ---------------------------------------------------------------------------
// Fixtures.

static COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A directory for one test's workspace, removed when the test ends.
struct TestDir(PathBuf);

impl std::ops::Deref for TestDir {
    type Target = PathBuf;
    fn deref(&self) -> &PathBuf {
        &self.0
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for TestDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn temp_dir(name: &str) -> TestDir {
    let dir = std::env::temp_dir().join(format!(
        "jax-lsp-e2e-{}-{}-{name}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    TestDir(dir)
}

fn file_uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

const HEADER: &str = "import jax
import jax.numpy as jnp
from jax.sharding import AbstractMesh, NamedSharding, PartitionSpec as P
mesh = AbstractMesh((8,), (\"data\",))
f = jax.jit(lambda x: x * 2, in_shardings=NamedSharding(mesh, P(\"data\")))
";

/// JP003, on a line whose columns differ in bytes, utf-16 and utf-32.
fn jp003_text() -> String {
    format!("{HEADER}s = \"# 日本 😀\"; lowered = f.trace(jax.ShapeDtypeStruct((64, 32), jnp.float32)).lower()\n")
}

const JP003_MESSAGE_START: &str = "Passing lowering_platforms via jax.export";

fn capabilities(enc: Enc, pull: bool, document_changes: bool) -> Value {
    let mut caps = json!({
        "general": {"positionEncodings": [enc.name()]},
        "textDocument": {
            "hover": {"contentFormat": ["markdown", "plaintext"]},
            "codeAction": {"codeActionLiteralSupport": {"codeActionKind": {"valueSet": ["quickfix", "source.fixAll"]}}},
            "publishDiagnostics": {"relatedInformation": true, "versionSupport": true}
        },
        "workspace": {"workspaceEdit": {"documentChanges": document_changes}}
    });
    if pull {
        caps["textDocument"]["diagnostic"] =
            json!({"dynamicRegistration": false, "relatedDocumentSupport": false});
        caps["workspace"]["diagnostics"] = json!({"refreshSupport": true});
    }
    caps
}

/// Diagnostics for the document at `version` (push: the publish for that
/// version; pull: a `textDocument/diagnostic` request).
fn diagnostics(lsp: &mut Lsp, uri: &str, version: i64, pull: bool) -> Vec<Value> {
    if pull {
        let report = lsp.pull(uri);
        assert_eq!(report["kind"], "full", "{report}");
        report["items"].as_array().cloned().unwrap()
    } else {
        let params = lsp.published(uri, |p| p["version"] == json!(version));
        params["diagnostics"].as_array().cloned().unwrap()
    }
}

// ---------------------------------------------------------------------------
// The main flow: open -> diagnostic -> hover -> code action -> apply -> gone.

fn full_flow(enc: Enc, pull: bool, document_changes: bool) {
    let dir = temp_dir("flow");
    let uri = file_uri(&dir.join("model.py"));
    let mut lsp = Lsp::spawn(&[]);
    let init = lsp.initialize(capabilities(enc, pull, document_changes), Value::Null);
    assert_eq!(
        init["capabilities"]["positionEncoding"],
        enc.name(),
        "{init}"
    );
    assert_eq!(init["capabilities"]["textDocumentSync"]["change"], 2);
    assert_eq!(
        init["capabilities"]["diagnosticProvider"].is_object(),
        pull,
        "{init}"
    );

    let text = jp003_text();
    lsp.open(&uri, &text);
    let diags = diagnostics(&mut lsp, &uri, 1, pull);
    assert_eq!(diags.len(), 1, "{diags:?}");
    let diag = &diags[0];
    assert_eq!(diag["code"], "JP003");
    assert_eq!(diag["source"], "jax-lsp");
    assert_eq!(diag["severity"], 1);
    assert!(
        diag["message"]
            .as_str()
            .unwrap()
            .starts_with(JP003_MESSAGE_START),
        "{diag}"
    );
    assert!(
        diag["codeDescription"]["href"]
            .as_str()
            .unwrap()
            .contains("jp003"),
        "{diag}"
    );
    // The range is `lower` on the last line, in the negotiated encoding.
    let lower = text.rfind("lower()").unwrap();
    assert_eq!(
        diag["range"]["start"],
        position(&text, lower, enc),
        "{enc:?}: {diag}"
    );
    let line = &text[text[..lower].rfind('\n').unwrap() + 1..lower];
    let expected_col = match enc {
        Enc::Utf8 => line.len(),
        Enc::Utf16 => line.encode_utf16().count(),
        Enc::Utf32 => line.chars().count(),
    };
    assert_eq!(diag["range"]["start"]["character"], json!(expected_col));
    assert_ne!(line.len(), line.encode_utf16().count());
    assert_ne!(line.chars().count(), line.encode_utf16().count());

    // Hover on the diagnostic: the filled message, then the explanation.
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position(&text, lower + 2, enc)}),
    );
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.starts_with("**JP003**: Passing lowering_platforms"),
        "{markdown}"
    );
    assert!(markdown.contains("# JP003"), "{markdown}");
    assert_eq!(hover["range"], diag["range"]);

    // Code actions for the diagnostic.
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}}),
    );
    let actions = actions.as_array().unwrap();
    let preferred: Vec<&Value> = actions
        .iter()
        .filter(|a| a["isPreferred"] == true)
        .collect();
    assert_eq!(preferred.len(), 1, "{actions:?}");
    let fix = preferred[0];
    assert_eq!(fix["kind"], "quickfix");
    assert!(
        fix["title"]
            .as_str()
            .unwrap()
            .starts_with("jax-lsp (JP003): "),
        "{fix}"
    );
    assert!(
        actions
            .iter()
            .any(|a| a["title"] == "jax-lsp (JP003): Disable for this line"),
        "{actions:?}"
    );
    if document_changes {
        assert_eq!(
            fix["edit"]["documentChanges"][0]["textDocument"]["version"], 1,
            "{fix}"
        );
    } else {
        assert!(fix["edit"]["changes"].is_object(), "{fix}");
    }

    // Apply it like an editor and tell the server.
    let edits = edits_of(&fix["edit"], &uri);
    let (fixed, changes) = apply_client_side(&text, &edits, enc);
    assert!(
        fixed.contains(".lower(lowering_platforms=(\"cpu\",))"),
        "{fixed}"
    );
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}),
    );
    let diags = diagnostics(&mut lsp, &uri, 2, pull);
    assert!(diags.is_empty(), "{diags:?}");
    // No hover on the fixed line any more.
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position(&fixed, lower + 2, enc)}),
    );
    assert!(hover.is_null(), "{hover}");
    lsp.shutdown();
}

#[test]
fn push_utf16_flow() {
    full_flow(Enc::Utf16, false, true);
}

#[test]
fn pull_utf8_flow() {
    full_flow(Enc::Utf8, true, true);
}

#[test]
fn push_utf8_flow_without_document_changes() {
    full_flow(Enc::Utf8, false, false);
}

#[test]
fn pull_utf16_flow_without_document_changes() {
    full_flow(Enc::Utf16, true, false);
}

#[test]
fn push_utf32_flow() {
    full_flow(Enc::Utf32, false, true);
}

#[test]
fn utf8_is_preferred_and_utf16_is_the_default() {
    let mut lsp = Lsp::spawn(&[]);
    let init = lsp.initialize(
        json!({"general": {"positionEncodings": ["utf-16", "utf-8"]}}),
        Value::Null,
    );
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-8");
    lsp.shutdown();
    let mut lsp = Lsp::spawn(&[]);
    let init = lsp.initialize(json!({}), Value::Null);
    assert_eq!(init["capabilities"]["positionEncoding"], "utf-16");
    lsp.shutdown();
}

// ---------------------------------------------------------------------------

/// 200 incremental edits sent at once: the diagnostics that arrive last are
/// those of the final text (and far fewer than 200 analyses are published).
#[test]
fn burst_of_edits_ends_with_the_final_diagnostics() {
    let enc = Enc::Utf16;
    let dir = temp_dir("burst");
    let uri = file_uri(&dir.join("burst.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    let mut text = jp003_text();
    lsp.open(&uri, &text);
    let first = lsp.published(&uri, |p| p["version"] == 1);
    assert_eq!(first["diagnostics"].as_array().unwrap().len(), 1);

    // Type a comment line at the top, character by character (multi-byte
    // ones included), then fix the finding, then break it again, then type
    // more: 200 edits in all.
    let typed: Vec<char> = "# 日本語のコメント 😀 é — 数字 123 "
        .chars()
        .cycle()
        .take(150)
        .collect();
    let mut version = 1;
    let mut send = |lsp: &mut Lsp, text: &mut String, start: usize, end: usize, new: &str| {
        version += 1;
        lsp.change(&uri, version, text, start..end, new, enc);
    };
    let mut at = 0;
    for ch in &typed {
        let s = ch.to_string();
        send(&mut lsp, &mut text, at, at, &s);
        at += s.len();
    }
    send(&mut lsp, &mut text, at, at, "\n");
    const KW: &str = "lowering_platforms=(\"cpu\",)";
    for i in 0..47 {
        // Toggle the fix on and off; the last toggle leaves it on.
        let call = text.rfind(".lower(").unwrap() + ".lower(".len();
        if i % 2 == 0 {
            send(&mut lsp, &mut text, call, call, KW);
        } else {
            send(&mut lsp, &mut text, call, call + KW.len(), "");
        }
    }
    // Two more: a line with CJK before the finding, on the finding's line.
    let line_start = text.rfind("s = ").unwrap();
    send(
        &mut lsp,
        &mut text,
        line_start,
        line_start,
        "t = '漢字😀'; ",
    );
    let end = text.len();
    send(&mut lsp, &mut text, end, end, "# done 😀\n");
    assert_eq!(version, 201);
    assert!(
        text.contains(".lower(lowering_platforms=(\"cpu\",))"),
        "{text}"
    );
    // The final text is fixed: so the final diagnostics are empty...
    let last = lsp.published(&uri, |p| p["version"] == 201);
    assert!(last["diagnostics"].as_array().unwrap().is_empty(), "{last}");
    // Debounced: intermediate versions were (almost all) never published.
    let intermediate = lsp
        .backlog
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .count();
    assert!(intermediate < 20, "{intermediate} intermediate publishes");
    // ...and nothing stale arrives after them.
    let later = lsp.drain(Duration::from_millis(400));
    let publishes: Vec<&Value> = later
        .iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics")
        .collect();
    assert!(publishes.is_empty(), "{publishes:?}");
    // Break it once more to check the ranges in the final text.
    let call = text.rfind(".lower(").unwrap() + ".lower(".len();
    let change = json!({"range": range(&text, call, call + KW.len(), enc), "text": ""});
    text.replace_range(call..call + KW.len(), "");
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 202}, "contentChanges": [change]}),
    );
    let broken = lsp.published(&uri, |p| p["version"] == 202);
    let diags = broken["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{broken}");
    let lower = text.rfind("lower()").unwrap();
    assert_eq!(diags[0]["range"]["start"], position(&text, lower, enc));
    lsp.shutdown();
}

#[test]
fn stale_and_unknown_changes_are_ignored() {
    let enc = Enc::Utf16;
    let dir = temp_dir("stale");
    let uri = file_uri(&dir.join("stale.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    let text = jp003_text();
    lsp.open(&uri, &text);
    lsp.published(&uri, |p| p["version"] == 1);
    // An older version, an unknown document, a range far outside the text.
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 0}, "contentChanges": [{"text": "garbage"}]}),
    );
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "file:///nowhere/x.py", "version": 5}, "contentChanges": [{"text": "x"}]}),
    );
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 999, "character": 5}, "end": {"line": 1000, "character": 0}}, "text": "# end\n"}
        ]}),
    );
    let params = lsp.published(&uri, |p| p["version"] == 2);
    assert_eq!(
        params["diagnostics"].as_array().unwrap().len(),
        1,
        "{params}"
    );
    // The text is the original plus the clamped insertion at the end.
    let expected = format!("{text}# end\n");
    let lower = expected.rfind("lower()").unwrap();
    assert_eq!(
        params["diagnostics"][0]["range"]["start"],
        position(&expected, lower, enc)
    );
    let stderr = lsp.stderr();
    assert!(stderr.contains("ignored"), "{stderr}");
    assert!(stderr.contains("clamped"), "{stderr}");
    lsp.shutdown();
}

#[test]
fn malformed_messages_get_errors_and_the_server_keeps_answering() {
    let mut lsp = Lsp::spawn(&[]);
    // Before initialize: an error, not a crash.
    let early = lsp.request_full(
        "textDocument/hover",
        json!({"textDocument": {"uri": "file:///a.py"}, "position": {"line": 0, "character": 0}}),
    );
    assert_eq!(early["error"]["code"], -32002, "{early}");
    lsp.initialize(capabilities(Enc::Utf16, false, true), Value::Null);
    // Malformed params.
    let bad = lsp.request_full("textDocument/hover", json!({"textDocument": 42}));
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    let bad = lsp.request_full("textDocument/codeAction", json!("nope"));
    assert!(bad.get("error").is_some(), "{bad}");
    // An unknown method.
    let unknown = lsp.request_full("jax/doesNotExist", json!({}));
    assert_eq!(unknown["error"]["code"], -32601, "{unknown}");
    // A frame that is not JSON.
    lsp.send_raw(b"Content-Length: 9\r\n\r\n{not json");
    // Malformed notifications are dropped.
    lsp.notify("textDocument/didOpen", json!({"textDocument": {"uri": 7}}));
    lsp.notify("textDocument/didChange", json!({"contentChanges": "x"}));
    // Still serving.
    let dir = temp_dir("malformed");
    let uri = file_uri(&dir.join("ok.py"));
    let text = jp003_text();
    lsp.open(&uri, &text);
    let params = lsp.published(&uri, |p| p["version"] == 1);
    assert_eq!(params["diagnostics"].as_array().unwrap().len(), 1);
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 9999, "character": 9999}}),
    );
    assert!(hover.is_null(), "{hover}");
    lsp.shutdown();
}

#[test]
fn a_panic_in_analysis_is_caught_and_the_server_keeps_serving() {
    let dir = temp_dir("panic");
    let bad_uri = file_uri(&dir.join("bad.py"));
    let good_uri = file_uri(&dir.join("good.py"));
    let mut lsp = Lsp::spawn(&[("JAX_LSP_TEST_PANIC_MARKER", "PLEASE_PANIC")]);
    lsp.initialize(capabilities(Enc::Utf16, false, true), Value::Null);
    lsp.open(&bad_uri, &format!("# PLEASE_PANIC\n{}", jp003_text()));
    let params = lsp.published(&bad_uri, |p| p["version"] == 1);
    assert!(params["diagnostics"].as_array().unwrap().is_empty());
    // The log line is written by another thread: wait for it (up to 10 s).
    // (Not for "version 1" alone: the debug line of the open holds that too,
    // and a loaded machine read stderr before the panic's line was in.)
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let mut stderr = lsp.stderr();
    while !stderr.contains("analysis panicked") && std::time::Instant::now() < deadline {
        std::thread::sleep(std::time::Duration::from_millis(20));
        stderr = lsp.stderr();
    }
    assert!(
        stderr.contains("analysis panicked")
            && stderr.contains("bad.py")
            && stderr.contains("version 1"),
        "{stderr}"
    );
    lsp.open(&good_uri, &jp003_text());
    let params = lsp.published(&good_uri, |p| p["version"] == 1);
    assert_eq!(params["diagnostics"].as_array().unwrap().len(), 1);
    lsp.shutdown();
}

// ---------------------------------------------------------------------------
// Hover on noqa codes and upstream ids; disable-for-line; fix-all; close.

#[test]
fn hover_on_noqa_codes_and_upstream_ids() {
    let dir = temp_dir("hover");
    let uri = file_uri(&dir.join("hover.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(Enc::Utf16, false, true), Value::Null);
    let text = "x = 1  # noqa: JP001, JP002\n# JAX raised 1bdcdc8192178bcd here\nmsg = \"id 1bdcdc8192178bcd\"\n";
    lsp.open(&uri, text);
    lsp.published(&uri, |p| p["version"] == 1);
    let at = text.find("JP002").unwrap() + 1;
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position(text, at, Enc::Utf16)}),
    );
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("# JP002"),
        "{hover}"
    );
    assert_eq!(hover["range"], range(text, at - 1, at + 4, Enc::Utf16));
    for at in [
        text.find("1bdcdc").unwrap() + 4,
        text.rfind("1bdcdc").unwrap(),
    ] {
        let hover = lsp.request(
            "textDocument/hover",
            json!({"textDocument": {"uri": uri}, "position": position(text, at, Enc::Utf16)}),
        );
        let value = hover["contents"]["value"].as_str().unwrap_or_default();
        assert!(
            value.contains("1bdcdc8192178bcd") && value.contains("JP002"),
            "{hover}"
        );
    }
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 0, "character": 1}}),
    );
    assert!(hover.is_null(), "{hover}");
    lsp.shutdown();
}

#[test]
fn disable_for_line_fix_all_and_close() {
    let enc = Enc::Utf16;
    let dir = temp_dir("actions");
    let uri = file_uri(&dir.join("actions.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    let text = jp003_text();
    lsp.open(&uri, &text);
    let diag = lsp.published(&uri, |p| p["version"] == 1)["diagnostics"][0].clone();

    // Disable for this line: appends a noqa comment; the finding goes away.
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag]}}),
    );
    let disable = actions
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["title"] == "jax-lsp (JP003): Disable for this line")
        .unwrap()
        .clone();
    let (noqa, changes) = apply_client_side(&text, &edits_of(&disable["edit"], &uri), enc);
    assert!(noqa.contains(".lower()  # noqa: JP003\n"), "{noqa}");
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": changes}),
    );
    assert!(lsp.published(&uri, |p| p["version"] == 2)["diagnostics"]
        .as_array()
        .unwrap()
        .is_empty());

    // Back to the original (a full-text change), then fix-all.
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 3}, "contentChanges": [{"text": text}]}),
    );
    assert_eq!(
        lsp.published(&uri, |p| p["version"] == 3)["diagnostics"]
            .as_array()
            .unwrap()
            .len(),
        1
    );
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": range(&text, 0, 0, enc),
               "context": {"diagnostics": [], "only": ["source.fixAll"]}}),
    );
    let actions = actions.as_array().unwrap();
    assert_eq!(actions.len(), 1, "{actions:?}");
    assert_eq!(actions[0]["kind"], "source.fixAll.jax-lsp");
    let (fixed, changes) = apply_client_side(&text, &edits_of(&actions[0]["edit"], &uri), enc);
    assert!(fixed.contains("lowering_platforms=(\"cpu\",)"), "{fixed}");
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 4}, "contentChanges": changes}),
    );
    assert!(lsp.published(&uri, |p| p["version"] == 4)["diagnostics"]
        .as_array()
        .unwrap()
        .is_empty());

    // Quick fixes found without client-sent diagnostics; stale data is not used.
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 5}, "contentChanges": [{"text": text}]}),
    );
    lsp.published(&uri, |p| p["version"] == 5);
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": []}}),
    );
    assert!(
        actions
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["isPreferred"] == true),
        "{actions}"
    );
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": diag["range"], "context": {"diagnostics": [diag], "only": ["quickfix"]}}),
    );
    // `diag` carries version 1's fixes: only "disable" is offered.
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(titles, vec!["jax-lsp (JP003): Disable for this line"]);

    // Closing clears the diagnostics.
    lsp.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    let cleared = lsp.published(&uri, |p| {
        p["diagnostics"].as_array().is_some_and(Vec::is_empty) && p["version"].is_null()
    });
    assert!(cleared["diagnostics"].as_array().unwrap().is_empty());
    lsp.shutdown();
}

// ---------------------------------------------------------------------------
// Configuration.

#[test]
fn client_settings_select_and_ignore_rules() {
    let dir = temp_dir("settings");
    let uri = file_uri(&dir.join("cfg.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(
        capabilities(Enc::Utf16, false, true),
        json!({"ignore": ["JP003"]}),
    );
    lsp.open(&uri, &jp003_text());
    assert!(lsp.published(&uri, |p| p["version"] == 1)["diagnostics"]
        .as_array()
        .unwrap()
        .is_empty());
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"jax-lsp": {"ignore": []}}}),
    );
    let params = lsp.published(&uri, |p| !p["diagnostics"].as_array().unwrap().is_empty());
    assert_eq!(params["diagnostics"][0]["code"], "JP003");
    // A broken client setting: an error message naming the key; defaults apply.
    lsp.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"jax-lsp": {"select": ["JP9"]}}}),
    );
    let shown = lsp.wait_for("showMessage", |m| m["method"] == "window/showMessage");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(
        message.contains("select") && message.contains("JP9"),
        "{message}"
    );
    assert_eq!(shown["params"]["type"], 1);
    lsp.shutdown();
}

#[test]
fn pyproject_config_broken_then_fixed_via_watched_files() {
    let dir = temp_dir("pyproject");
    let pyproject = dir.join("pyproject.toml");
    std::fs::write(&pyproject, "[tool.jax-lsp]\nselekt = [\"JP003\"]\n").unwrap();
    let uri = file_uri(&dir.join("m.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(Enc::Utf16, true, true), Value::Null);
    lsp.open(&uri, &jp003_text());
    // Broken: the defaults apply, and the user is told which file and key.
    let report = lsp.pull(&uri);
    assert_eq!(report["items"].as_array().unwrap().len(), 1, "{report}");
    let shown = lsp.wait_for("showMessage", |m| m["method"] == "window/showMessage");
    let message = shown["params"]["message"].as_str().unwrap();
    assert!(
        message.contains(pyproject.to_str().unwrap()) && message.contains("selekt"),
        "{message}"
    );
    assert_eq!(shown["params"]["type"], 1);
    // Fixed to ignore JP003: a watched-file change reloads it; pull clients get a refresh.
    std::fs::write(&pyproject, "[tool.jax-lsp]\nignore = [\"JP003\"]\n").unwrap();
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&pyproject), "type": 2}]}),
    );
    lsp.wait_for("workspace/diagnostic/refresh", |m| {
        m["method"] == "workspace/diagnostic/refresh"
    });
    let report = lsp.pull(&uri);
    assert!(report["items"].as_array().unwrap().is_empty(), "{report}");
    lsp.shutdown();
}

#[test]
fn unchanged_pull_reports_reuse_the_result_id() {
    let dir = temp_dir("resultid");
    let uri = file_uri(&dir.join("r.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(Enc::Utf8, true, true), Value::Null);
    lsp.open(&uri, &jp003_text());
    let report = lsp.pull(&uri);
    let id = report["resultId"].clone();
    assert!(id.is_string(), "{report}");
    let again = lsp.request(
        "textDocument/diagnostic",
        json!({"textDocument": {"uri": uri}, "previousResultId": id}),
    );
    assert_eq!(again["kind"], "unchanged", "{again}");
    lsp.shutdown();
}

// ---------------------------------------------------------------------------
// Across files.

const KERNELS: &str = "import jax
import jax.experimental.pallas as pl
from jax.experimental.pallas import tpu as pltpu


def add_kernel(x_ref, o_ref):
    o_ref[...] = x_ref[...] + 1


def add(x):
    return pl.pallas_call(
        add_kernel,
        out_shape=jax.ShapeDtypeStruct(x.shape, x.dtype),
        compiler_params=pltpu.CompilerParams(dimension_semantics=(\"parallel\",)),
    )(x)
";

const MAIN: &str = "import jax
import jax.numpy as jnp
from kernels import add

x = jax.ShapeDtypeStruct((8, 128), jnp.float32)
lowered = jax.jit(add).trace(x).lower(lowering_platforms=(\"cuda\",))
";

#[test]
fn editing_an_imported_module_rechecks_its_importers() {
    let enc = Enc::Utf16;
    let dir = temp_dir("xfile");
    std::fs::write(dir.join("kernels.py"), KERNELS).unwrap();
    let kernels_uri = file_uri(&dir.join("kernels.py"));
    let main_uri = file_uri(&dir.join("main.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    lsp.open(&main_uri, MAIN);
    let params = lsp.published(&main_uri, |p| p["version"] == 1);
    let diags = params["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{params}");
    assert_eq!(diags[0]["code"], "JP002");
    // Related information points into kernels.py.
    let related = diags[0]["relatedInformation"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(
        related.iter().any(|r| r["location"]["uri"] == kernels_uri),
        "{related:?}"
    );

    // Open kernels.py and remove the TPU compiler params in the buffer only.
    lsp.open(&kernels_uri, KERNELS);
    lsp.published(&kernels_uri, |p| p["version"] == 1);
    let start = KERNELS.find("        compiler_params").unwrap();
    let end = start + KERNELS[start..].find('\n').unwrap() + 1;
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": kernels_uri, "version": 2},
               "contentChanges": [{"range": range(KERNELS, start, end, enc), "text": ""}]}),
    );
    let params = lsp.published(&main_uri, |p| {
        p["diagnostics"].as_array().unwrap().is_empty()
    });
    assert_eq!(params["version"], 1);
    // Closing kernels.py: main.py reads it from disk again (TPU params back).
    // (Every earlier publish has arrived by now: forget them.)
    lsp.backlog.clear();
    lsp.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": kernels_uri}}),
    );
    let params = lsp.published(&main_uri, |p| {
        !p["diagnostics"].as_array().unwrap().is_empty()
    });
    assert_eq!(params["diagnostics"][0]["code"], "JP002");
    lsp.shutdown();
}

const AOT: &str = "import jax


def export_for(fn, spec, platform):
    return jax.jit(fn).trace(spec).lower(lowering_platforms=(platform,))
";

// No lowering of its own: it passes the prefilter by calling `export_for`.
const CALLER: &str = "import jax
import jax.numpy as jnp
from aot import export_for


def step(x):
    jax.debug.print(\"x={}\", x)
    return x * 2


def main():
    spec = jax.ShapeDtypeStruct((4,), jnp.float32)
    export_for(step, spec, \"cuda\")
";

#[test]
fn a_lowering_helper_of_another_module_is_checked_at_its_call() {
    let enc = Enc::Utf16;
    let dir = temp_dir("xhelper");
    std::fs::write(dir.join("aot.py"), AOT).unwrap();
    let main_uri = file_uri(&dir.join("main.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    lsp.open(&main_uri, CALLER);
    let params = lsp.published(&main_uri, |p| p["version"] == 1);
    let diags = params["diagnostics"].as_array().unwrap();
    assert_eq!(diags.len(), 1, "{params}");
    assert_eq!(diags[0]["code"], "JP001");
    let line = CALLER[..CALLER.find("export_for(step").unwrap()]
        .matches('\n')
        .count();
    assert_eq!(diags[0]["range"]["start"]["line"], line, "{params}");
    // Lowered for the host's own platform instead: nothing to report.
    let start = CALLER.find("\"cuda\"").unwrap();
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": main_uri, "version": 2},
               "contentChanges": [{"range": range(CALLER, start, start + 6, enc), "text": "\"cpu\""}]}),
    );
    let params = lsp.published(&main_uri, |p| p["version"] == 2);
    assert!(
        params["diagnostics"].as_array().unwrap().is_empty(),
        "{params}"
    );
    lsp.shutdown();
}

#[test]
fn large_files_are_not_analyzed() {
    let dir = temp_dir("large");
    let uri = file_uri(&dir.join("big.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(Enc::Utf16, false, true), Value::Null);
    let mut text = jp003_text();
    let filler =
        "# filler line to make the file large ...........................................\n";
    while text.len() <= 5 * 1024 * 1024 {
        text.push_str(filler);
    }
    lsp.open(&uri, &text);
    let shown = lsp.wait_for("showMessage", |m| m["method"] == "window/showMessage");
    assert!(
        shown["params"]["message"]
            .as_str()
            .unwrap()
            .contains("5 MB"),
        "{shown}"
    );
    let params = lsp.published(&uri, |p| p["version"] == 1);
    assert!(params["diagnostics"].as_array().unwrap().is_empty());
    lsp.shutdown();
}

#[test]
fn pull_clients_get_a_refresh_when_an_imported_module_changes() {
    let enc = Enc::Utf8;
    let dir = temp_dir("xfile-pull");
    std::fs::write(dir.join("kernels.py"), KERNELS).unwrap();
    let kernels_uri = file_uri(&dir.join("kernels.py"));
    let main_uri = file_uri(&dir.join("main.py"));
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(enc, true, true), Value::Null);
    lsp.open(&main_uri, MAIN);
    assert_eq!(lsp.pull(&main_uri)["items"].as_array().unwrap().len(), 1);
    lsp.open(&kernels_uri, KERNELS);
    let start = KERNELS.find("        compiler_params").unwrap();
    let end = start + KERNELS[start..].find('\n').unwrap() + 1;
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": kernels_uri, "version": 2},
               "contentChanges": [{"range": range(KERNELS, start, end, enc), "text": ""}]}),
    );
    lsp.wait_for("workspace/diagnostic/refresh", |m| {
        m["method"] == "workspace/diagnostic/refresh"
    });
    assert!(lsp.pull(&main_uri)["items"].as_array().unwrap().is_empty());
    lsp.shutdown();
}

#[test]
fn each_workspace_folder_gets_its_own_client_settings() {
    let root = temp_dir("multiroot");
    let (a, b) = (root.join("a"), root.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    let (uri_a, uri_b) = (file_uri(&a.join("m.py")), file_uri(&b.join("m.py")));
    let folder = |p: &Path| format!("{}/", file_uri(p));
    let mut lsp = Lsp::spawn(&[]);
    // Folder `a` ignores JP003; `b` answers with the workspace-wide value.
    lsp.configuration
        .lock()
        .unwrap()
        .insert(folder(&a), json!({"ignore": ["JP003"]}));
    let mut caps = capabilities(Enc::Utf16, false, true);
    caps["workspace"]["configuration"] = json!(true);
    caps["workspace"]["workspaceFolders"] = json!(true);
    lsp.request(
        "initialize",
        json!({"processId": null, "capabilities": caps, "workspaceFolders": [
            {"uri": file_uri(&a), "name": "a"}, {"uri": file_uri(&b), "name": "b"}
        ]}),
    );
    lsp.notify("initialized", json!({}));
    // The scoped answer arrives after `initialized`: wait for the re-check
    // it causes before opening (a publish for no document is not sent).
    lsp.wait_for("the scoped configuration request", |m| {
        m["method"] == "workspace/configuration"
            && m["params"]["items"]
                .as_array()
                .is_some_and(|i| i.len() == 3)
    });
    std::thread::sleep(Duration::from_millis(300));
    lsp.open(&uri_a, &jp003_text());
    lsp.open(&uri_b, &jp003_text());
    let in_a = lsp.published(&uri_a, |p| p["version"] == 1);
    let in_b = lsp.published(&uri_b, |p| p["version"] == 1);
    assert!(in_a["diagnostics"].as_array().unwrap().is_empty(), "{in_a}");
    assert_eq!(in_b["diagnostics"][0]["code"], "JP003", "{in_b}");
    // Folder `a` leaves the workspace: its file falls back to the
    // workspace-wide settings, and JP003 appears.
    lsp.configuration.lock().unwrap().clear();
    lsp.notify(
        "workspace/didChangeWorkspaceFolders",
        json!({"event": {"added": [], "removed": [{"uri": file_uri(&a), "name": "a"}]}}),
    );
    let in_a = lsp.published(&uri_a, |p| !p["diagnostics"].as_array().unwrap().is_empty());
    assert_eq!(in_a["diagnostics"][0]["code"], "JP003", "{in_a}");
    lsp.shutdown();
}

#[test]
fn a_large_module_is_parsed_in_sections_and_edits_follow() {
    let enc = Enc::Utf16;
    let dir = temp_dir("sections");
    let uri = file_uri(&dir.join("layers.py"));
    // Four threads whatever the machine has: the first parse spreads the
    // sections over them.
    let mut lsp = Lsp::spawn(&[("RAYON_NUM_THREADS", "4")]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    // `f` (jitted with an AbstractMesh sharding) is used by every layer, so
    // one unit of statements spans all the sections.
    let broken = [3, 600, 1199];
    let mut text = HEADER.to_owned();
    for i in 0..1200 {
        let lower = if broken.contains(&i) {
            ".lower()".to_owned()
        } else {
            ".lower(lowering_platforms=(\"tpu\",))".to_owned()
        };
        text.push_str(&format!(
            "\ndef layer_{i}(x):\n    # layer {i}: 日本 😀, scaled and lowered for export\n    y = x * {i}\n    return f.trace(y){lower}\n"
        ));
    }
    assert!(text.len() > 4 * 32 * 1024, "{} bytes", text.len());
    let lines_of = |text: &str, diags: &[Value]| -> Vec<String> {
        diags
            .iter()
            .map(|d| {
                let start = offset(text, &d["range"]["start"], enc);
                let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
                text[line_start..].lines().next().unwrap_or("").to_owned()
            })
            .collect()
    };
    let layer_line = |i: usize| format!("    return f.trace(y).lower()  # {i}");
    // Mark the broken lines so that the expected lines differ per layer.
    for i in broken {
        let needle = format!("y = x * {i}\n    return f.trace(y).lower()");
        let marked = format!("y = x * {i}\n{}", layer_line(i));
        assert!(text.contains(&needle));
        text = text.replacen(&needle, &marked, 1);
    }
    lsp.open(&uri, &text);
    let first = lsp.published(&uri, |p| p["version"] == 1);
    let diags = first["diagnostics"].as_array().cloned().unwrap();
    assert_eq!(
        lines_of(&text, &diags),
        broken.map(layer_line).to_vec(),
        "{first}"
    );
    assert!(
        lsp.stderr().contains("version 1: parsed in 1201 sections"),
        "{}",
        lsp.stderr()
    );
    // Fix layer 600.
    let mut version = 1;
    let mut edit = |lsp: &mut Lsp, text: &mut String, from: &str, to: &str| {
        version += 1;
        let start = text.find(from).unwrap();
        lsp.change(&uri, version, text, start..start + from.len(), to, enc);
        version
    };
    let v = edit(
        &mut lsp,
        &mut text,
        &layer_line(600),
        "    return f.trace(y).lower(lowering_platforms=(\"tpu\",))",
    );
    let second = lsp.published(&uri, |p| p["version"] == v);
    let diags = second["diagnostics"].as_array().cloned().unwrap();
    assert_eq!(
        lines_of(&text, &diags),
        vec![layer_line(3), layer_line(1199)]
    );
    // Break layer 100 (CJK on the line before it).
    let v = edit(
        &mut lsp,
        &mut text,
        "y = x * 100\n    return f.trace(y).lower(lowering_platforms=(\"tpu\",))",
        "y = x * 100\n    return f.trace(y).lower()  # 100",
    );
    let third = lsp.published(&uri, |p| p["version"] == v);
    let diags = third["diagnostics"].as_array().cloned().unwrap();
    assert_eq!(
        lines_of(&text, &diags),
        vec![layer_line(3), layer_line(100), layer_line(1199)]
    );
    let log = lsp.stderr();
    // Later versions reparse the sections they touch: never the whole text again.
    assert_eq!(log.matches("parsed in 1201 sections").count(), 1, "{log}");
    lsp.shutdown();
}

#[test]
fn a_tree_parsed_before_a_reopen_is_not_given_to_the_new_document() {
    // A large text is opened, closed and reopened with other text at once,
    // so the first text's analysis finishes after the reopen. Its tree must
    // not become the new document's: a later re-check would then read the
    // new text through the old tree (a finding the new text does not have).
    let enc = Enc::Utf16;
    let dir = temp_dir("reopen");
    let uri = file_uri(&dir.join("layers.py"));
    let pyproject = dir.join("pyproject.toml");
    std::fs::write(&pyproject, "[tool.jax-lsp]\n").unwrap();
    // One thread: the whole text is parsed, slowly enough.
    let mut lsp = Lsp::spawn(&[("RAYON_NUM_THREADS", "1")]);
    lsp.initialize(capabilities(enc, false, true), Value::Null);
    let layers = |broken: Option<usize>| {
        let mut text = HEADER.to_owned();
        for i in 0..6000 {
            let fixed = ".lower(lowering_platforms=(\"tpu\",))";
            // The same length either way: the texts differ only there.
            let lower = if Some(i) == broken {
                format!("{:<w$}", ".lower()", w = fixed.len())
            } else {
                fixed.to_owned()
            };
            text.push_str(&format!(
                "\ndef layer_{i}(x):\n    y = x * {i}\n    return f.trace(y){lower}\n"
            ));
        }
        text
    };
    let first = layers(Some(3000));
    let second = layers(None);
    assert_eq!(first.len(), second.len());
    lsp.open(&uri, &first);
    // Its analysis (about half a second) under way before the close.
    std::thread::sleep(Duration::from_millis(100));
    lsp.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": uri}}),
    );
    lsp.open(&uri, &second);
    let opened = lsp.published(&uri, |p| {
        p["version"] == 1 && p["diagnostics"].as_array().is_some_and(|d| d.is_empty())
    });
    assert!(opened["diagnostics"].as_array().unwrap().is_empty());
    // Let the first text's analysis finish, then re-check everything.
    let log_has_both = || lsp.stderr().matches("analyzed ").count() >= 2;
    let deadline = Instant::now() + TIMEOUT;
    while !log_has_both() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(log_has_both(), "{}", lsp.stderr());
    lsp.drain(Duration::from_millis(50));
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&pyproject), "type": 2}]}),
    );
    let rechecked = lsp.published(&uri, |_| true);
    assert!(
        rechecked["diagnostics"].as_array().unwrap().is_empty(),
        "{rechecked}"
    );
    lsp.shutdown();
}

// ---------------------------------------------------------------------------
// The protocol as the spec says, for every client: each request answered,
// shutdown with any params, exit codes, hover format, preferred fixes.

fn exit_code(mut lsp: Lsp) -> Option<i32> {
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(status)) = lsp.child.try_wait() {
            return status.code();
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

#[test]
fn every_request_is_answered_and_shutdown_takes_any_params() {
    for params in [None, Some(Value::Null), Some(json!({}))] {
        let mut lsp = Lsp::spawn(&[]);
        lsp.initialize(capabilities(Enc::Utf16, true, true), Value::Null);
        // A `$/` request: MethodNotFound. A notification with an id: an error.
        lsp.send(json!({"jsonrpc": "2.0", "id": 100, "method": "$/unknown", "params": {}}));
        let answer = lsp.wait_for("$/unknown answer", |m| m["id"] == 100);
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        lsp.send(json!({"jsonrpc": "2.0", "id": 101, "method": "$/setTrace", "params": {"value": "off"}}));
        let answer = lsp.wait_for("$/setTrace answer", |m| m["id"] == 101);
        assert!(answer.get("error").is_some(), "{answer}");
        lsp.send(
            json!({"jsonrpc": "2.0", "id": 102, "method": "textDocument/didSave",
            "params": {"textDocument": {"uri": "file:///nowhere.py"}}}),
        );
        let answer = lsp.wait_for("didSave-with-id answer", |m| m["id"] == 102);
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        // An unknown request (not `$/`): MethodNotFound from tower-lsp.
        let answer = lsp.request_full("jax/unknown", json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{answer}");
        let mut shutdown = json!({"jsonrpc": "2.0", "id": 103, "method": "shutdown"});
        if let Some(p) = &params {
            shutdown["params"] = p.clone();
        }
        lsp.send(shutdown);
        let answer = lsp.wait_for("shutdown answer", |m| m["id"] == 103);
        assert_eq!(
            answer.get("error"),
            None,
            "shutdown with {params:?}: {answer}"
        );
        assert_eq!(answer["result"], Value::Null);
        // After shutdown every request is refused, and exit (with params) is clean.
        let answer = lsp.request_full(
            "textDocument/diagnostic",
            json!({"textDocument": {"uri": "file:///x.py"}}),
        );
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        lsp.send(json!({"jsonrpc": "2.0", "method": "exit", "params": params.clone().unwrap_or(Value::Null)}));
        assert_eq!(
            exit_code(lsp),
            Some(0),
            "exit after shutdown with {params:?}"
        );
    }
    // exit before shutdown: code 1.
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(Enc::Utf16, true, true), Value::Null);
    lsp.notify("exit", Value::Null);
    assert_eq!(exit_code(lsp), Some(1));
}

#[test]
fn hover_is_plain_text_when_the_client_asks_and_safe_fixes_come_first() {
    let dir = temp_dir("plain");
    let uri = file_uri(&dir.join("plain.py"));
    let mut lsp = Lsp::spawn(&[]);
    let mut caps = capabilities(Enc::Utf16, false, true);
    caps["textDocument"]["hover"]["contentFormat"] = json!(["plaintext"]);
    lsp.initialize(caps, Value::Null);
    let text = "import jax\n\ndef f(x):\n    return x\n\nlowered = jax.jit(f).trace(1.0).lower(lowering_platforms=\"cpu\")\n";
    lsp.open(&uri, text);
    let params = lsp.published(&uri, |p| p["version"] == 1);
    let diags = params["diagnostics"].as_array().cloned().unwrap();
    assert_eq!(diags.len(), 1, "{params}");
    let at = text.find("\"cpu\"").unwrap() + 1;
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": position(text, at, Enc::Utf16)}),
    );
    assert_eq!(hover["contents"]["kind"], "plaintext", "{hover}");
    let value = hover["contents"]["value"].as_str().unwrap();
    assert!(
        value.contains("JP005") && !value.contains("**") && !value.contains('`'),
        "{value}"
    );
    let actions = lsp.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri}, "range": diags[0]["range"], "context": {"diagnostics": diags}}),
    );
    let actions = actions.as_array().cloned().unwrap();
    let preferred: Vec<&Value> = actions
        .iter()
        .filter(|a| a["isPreferred"] == true)
        .collect();
    assert_eq!(preferred.len(), 1, "{actions:?}");
    assert_eq!(
        actions[0]["isPreferred"], true,
        "the preferred fix comes first"
    );
    for action in &actions {
        let title = action["title"].as_str().unwrap();
        assert!(
            title.starts_with("jax-lsp (JP005): ") || title.starts_with("jax-lsp: Fix all"),
            "one title style: {title}"
        );
    }
    lsp.shutdown();
}

#[test]
fn lone_carriage_returns_are_line_ends_in_every_encoding() {
    let dir = temp_dir("eol");
    for enc in [Enc::Utf8, Enc::Utf16, Enc::Utf32] {
        let mut lsp = Lsp::spawn(&[]);
        lsp.initialize(capabilities(enc, true, true), Value::Null);
        // \r\n, \n and lone \r mixed; astral text before the finding.
        let mut text = "import jax\r\n# 😀 日本\rdef f(x):\n    return x\r\r\nlowered = jax.jit(f).trace(1.0).lower(lowering_platforms=\"cpu\")  # 😀\r".to_owned();
        let uri = file_uri(&dir.join(format!("eol_{}.py", enc.name())));
        lsp.open(&uri, &text);
        let check = |lsp: &mut Lsp, text: &str| {
            let report = lsp.pull(&uri);
            let items = report["items"].as_array().cloned().unwrap();
            assert_eq!(items.len(), 1, "{report}");
            let start = offset(text, &items[0]["range"]["start"], enc);
            let end = offset(text, &items[0]["range"]["end"], enc);
            assert_eq!(&text[start..end], "\"cpu\"", "{} {report}", enc.name());
        };
        check(&mut lsp, &text);
        // Delete the \n of a \r\n pair (leaving a lone \r), then edit a
        // later line by its LSP position: the server must follow.
        let mut version = 1;
        for (from, to) in [
            ("import jax\r\n", "import jax\r"),
            ("return x", "return x + 1"),
        ] {
            version += 1;
            let at = text.find(from).unwrap();
            // A position cannot fall between \r and \n: a client replaces
            // the pair to delete its \n.
            let mut common = from
                .chars()
                .zip(to.chars())
                .take_while(|(a, b)| a == b)
                .count();
            if from[..common].ends_with('\r') {
                common -= 1;
            }
            let span = at + common..at + from.len();
            let new = &to[common..];
            lsp.change(&uri, version, &mut text, span, new, enc);
            check(&mut lsp, &text);
        }
        // The same as a fresh open of that text.
        let fresh = file_uri(&dir.join(format!("eol_fresh_{}.py", enc.name())));
        lsp.open(&fresh, &text);
        let a = lsp.pull(&uri)["items"].clone();
        let b = lsp.pull(&fresh)["items"].clone();
        assert_eq!(a[0]["range"], b[0]["range"]);
        lsp.shutdown();
    }
}

#[test]
fn the_first_publish_on_open_equals_a_check_of_each_file() {
    // What a newly opened module shows first (sections parsed in parallel,
    // units of statements, the prefilter per unit) must be what a full
    // `check` of the same file finds: every fixture, and a module large
    // enough to be parsed in parallel.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&fixtures)
        .unwrap()
        .flatten()
        .filter(|d| d.path().is_dir())
        .flat_map(|d| std::fs::read_dir(d.path()).unwrap().flatten())
        .map(|f| f.path())
        .filter(|p| p.extension().is_some_and(|e| e == "py"))
        .collect();
    files.sort();
    assert!(files.len() > 100, "{} fixtures", files.len());
    let dir = temp_dir("first-publish");
    let large = dir.join("layers.py");
    let mut text = HEADER.to_owned();
    for i in 0..1500 {
        let platforms = if i % 300 == 7 {
            "(\"tpu\",)"
        } else {
            "(\"cpu\",)"
        };
        text.push_str(&format!(
            "\ndef layer_{i}(x):\n    jax.debug.print(\"{{}}\", x)\n    return x * {i}\n\n\
             def lower_{i}(spec):\n    return jax.jit(layer_{i}).trace(spec).lower(lowering_platforms={platforms})\n"
        ));
    }
    std::fs::write(&large, &text).unwrap();
    files.push(large);

    type Key = (String, u64, u64, String);
    let out = Command::new(env!("CARGO_BIN_EXE_jax-lsp"))
        .args(["check", "--output-format", "json", "--exit-zero"])
        .args(&files)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut expected: HashMap<PathBuf, Vec<Key>> = HashMap::new();
    for f in report.as_array().unwrap() {
        expected
            .entry(PathBuf::from(f["filename"].as_str().unwrap()))
            .or_default()
            .push((
                f["code"].as_str().unwrap().to_owned(),
                f["location"]["row"].as_u64().unwrap(),
                f["location"]["column"].as_u64().unwrap(),
                f["message"].as_str().unwrap().to_owned(),
            ));
    }
    assert!(expected
        .get(files.last().unwrap())
        .is_some_and(|f| f.len() == 5));

    let mut lsp = Lsp::spawn(&[]);
    // utf-32: columns count characters, as `check` does.
    lsp.initialize(capabilities(Enc::Utf32, false, true), Value::Null);
    for file in &files {
        let uri = file_uri(file);
        lsp.open(&uri, &std::fs::read_to_string(file).unwrap());
        let published = lsp.published(&uri, |p| p["version"] == 1);
        let mut got: Vec<Key> = published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| {
                (
                    d["code"].as_str().unwrap().to_owned(),
                    d["range"]["start"]["line"].as_u64().unwrap() + 1,
                    d["range"]["start"]["character"].as_u64().unwrap() + 1,
                    d["message"].as_str().unwrap().to_owned(),
                )
            })
            .collect();
        let mut want = expected.remove(file).unwrap_or_default();
        got.sort();
        want.sort();
        assert_eq!(got, want, "{}", file.display());
        lsp.notify(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        );
    }
}

/// The contract fixture package copied to `dir`.
fn copy_contract_package(dir: &Path) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/contracts");
    let mut stack = vec![src.clone()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap().flatten() {
            let path = entry.path();
            let target = dir.join(path.strip_prefix(&src).unwrap());
            if path.is_dir() {
                std::fs::create_dir_all(&target).unwrap();
                stack.push(path);
            } else {
                std::fs::copy(&path, &target).unwrap();
            }
        }
    }
}

#[test]
fn contracts_report_reload_on_watched_changes_and_bad_ones_are_shown() {
    let dir = temp_dir("contracts");
    copy_contract_package(&dir);
    let pyproject = dir.join("pyproject.toml");
    let good = std::fs::read_to_string(&pyproject).unwrap();
    let main = dir.join("lower_for_cuda.py");
    let uri = file_uri(&main);
    let text = std::fs::read_to_string(&main).unwrap();
    let mut lsp = Lsp::spawn(&[]);
    lsp.initialize(capabilities(Enc::Utf16, false, true), Value::Null);
    lsp.open(&uri, &text);
    // The cross-module mistake, at the lowering, with the kernel in
    // mylib/kernels/tpu.py as related information.
    let published = lsp.published(&uri, |p| !p["diagnostics"].as_array().unwrap().is_empty());
    let diag = &published["diagnostics"][0];
    assert_eq!(diag["code"], "TPU001", "{published}");
    assert_eq!(diag["range"]["start"]["line"], 16, "{published}");
    let related = diag["relatedInformation"].to_string();
    assert!(related.contains("mylib/kernels/tpu.py"), "{related}");
    // Hover over the finding shows the contract.
    let hover = lsp.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": uri}, "position": {"line": 16, "character": 13}}),
    );
    let value = hover["contents"]["value"].as_str().unwrap_or_default();
    assert!(
        value.contains("tpu-only-kernels") && value.contains("# noqa: TPU001"),
        "{hover}"
    );
    // The contract allows cuda now: a watched-file change reloads it.
    std::fs::write(
        &pyproject,
        good.replace("platforms = [\"tpu\"]", "platforms = [\"tpu\", \"cuda\"]"),
    )
    .unwrap();
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&pyproject), "type": 2}]}),
    );
    lsp.published(&uri, |p| p["diagnostics"].as_array().unwrap().is_empty());
    // A broken contract: shown, a diagnostic on pyproject.toml at its line,
    // and the other rules keep running (JP005 on an added line).
    std::fs::write(
        &pyproject,
        good.replace(
            "severity = \"error\"",
            "severity = \"error\"\ncolour = \"red\"",
        ),
    )
    .unwrap();
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&pyproject), "type": 2}]}),
    );
    let shown = lsp.wait_for("showMessage", |m| {
        m["method"] == "window/showMessage"
            && m["params"]["message"]
                .as_str()
                .is_some_and(|s| s.contains("colour"))
    });
    assert_eq!(shown["params"]["type"], 1);
    let on_config = lsp.published(&file_uri(&pyproject), |p| {
        !p["diagnostics"].as_array().unwrap().is_empty()
    });
    assert_eq!(
        on_config["diagnostics"][0]["range"]["start"]["line"], 11,
        "{on_config}"
    );
    let edited = format!("{text}\njax.jit(forward).trace(x).lower(lowering_platforms=\"cpu\")\n");
    lsp.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2}, "contentChanges": [{"text": edited}]}),
    );
    let published = lsp.published(&uri, |p| {
        p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "JP005")
    });
    assert!(
        published["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .all(|d| d["code"] != "TPU001"),
        "{published}"
    );
    // Fixed: the diagnostic on pyproject.toml is cleared and TPU001 is back.
    std::fs::write(&pyproject, &good).unwrap();
    lsp.notify(
        "workspace/didChangeWatchedFiles",
        json!({"changes": [{"uri": file_uri(&pyproject), "type": 2}]}),
    );
    lsp.published(&file_uri(&pyproject), |p| {
        p["diagnostics"].as_array().unwrap().is_empty()
    });
    lsp.published(&uri, |p| {
        p["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["code"] == "TPU001")
    });
    lsp.shutdown();
}
