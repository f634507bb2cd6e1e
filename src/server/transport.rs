//! stdio framing in front of tower-lsp.
//!
//! tower-lsp stops reading its input at the first frame it cannot decode (a
//! body that is not JSON, a missing `Content-Length`): the server would quit.
//! So frames are read here first; only frames tower-lsp can decode are passed
//! on, the others are answered with a JSON-RPC error. All output goes through
//! one writer, whole frames at a time. After `exit` the input is closed, so the
//! server stops without waiting for the client to close stdin.

use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use tokio::io::{
    AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader,
};
use tokio::sync::mpsc;
use tower_lsp::jsonrpc::{Request, Response};
use tower_lsp::{LspService, Server};

/// One frame from the input, or why there is none.
enum Frame {
    Body(Vec<u8>),
    /// Headers without a usable `Content-Length` (the frame is skipped).
    BadHeader(String),
}

/// Reads the next frame; `None` at the end of the input.
async fn read_frame<R: AsyncBufRead + Unpin>(input: &mut R) -> std::io::Result<Option<Frame>> {
    let mut length: Option<Result<usize, String>> = None;
    let mut saw_header = false;
    let mut line = Vec::new();
    loop {
        line.clear();
        if input.read_until(b'\n', &mut line).await? == 0 {
            return Ok(if saw_header {
                Some(Frame::BadHeader(
                    "input ended inside a message header".into(),
                ))
            } else {
                None
            });
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !saw_header {
                continue; // stray blank line between frames
            }
            break;
        }
        saw_header = true;
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") {
                length = Some(
                    value
                        .trim()
                        .parse::<usize>()
                        .map_err(|e| format!("bad Content-Length `{}`: {e}", value.trim())),
                );
            }
        }
    }
    match length {
        Some(Ok(n)) => {
            let mut body = vec![0; n];
            input.read_exact(&mut body).await?;
            Ok(Some(Frame::Body(body)))
        }
        Some(Err(e)) => Ok(Some(Frame::BadHeader(e))),
        None => Ok(Some(Frame::BadHeader(
            "message header without Content-Length".into(),
        ))),
    }
}

fn frame_bytes(body: &[u8]) -> Vec<u8> {
    let mut out = format!("Content-Length: {}\r\n\r\n", body.len()).into_bytes();
    out.extend_from_slice(body);
    out
}

fn error_frame(id: Value, code: i64, message: &str) -> Vec<u8> {
    let body = json!({"jsonrpc": "2.0", "error": {"code": code, "message": message}, "id": id});
    frame_bytes(body.to_string().as_bytes())
}

/// The notifications of LSP 3.17 (client to server). Sent with an `id`, one
/// is a request nobody answers: the transport answers it with an error.
const NOTIFICATIONS: &[&str] = &[
    "initialized",
    "exit",
    "$/cancelRequest",
    "$/setTrace",
    "$/progress",
    "textDocument/didOpen",
    "textDocument/didChange",
    "textDocument/didClose",
    "textDocument/didSave",
    "textDocument/willSave",
    "notebookDocument/didOpen",
    "notebookDocument/didChange",
    "notebookDocument/didSave",
    "notebookDocument/didClose",
    "workspace/didChangeConfiguration",
    "workspace/didChangeWatchedFiles",
    "workspace/didChangeWorkspaceFolders",
    "workspace/didCreateFiles",
    "workspace/didRenameFiles",
    "workspace/didDeleteFiles",
    "window/workDoneProgress/cancel",
];

/// A frame to pass on to tower-lsp: its body, possibly rewritten, and the
/// method if it is a request or notification.
#[derive(Debug)]
struct Pass {
    body: Vec<u8>,
    method: Option<String>,
}

/// What to do with a frame body: pass it on, or answer it with an error.
///
/// Besides bodies tower-lsp cannot decode, this answers what tower-lsp would
/// leave unanswered: a request whose method starts with `$/` (LSP: answer
/// `MethodNotFound`) and a notification sent with an `id`. `shutdown` and
/// `exit` lose their `params` (`null` or `{}` from Helix and eglot; tower-lsp
/// would refuse them, and the client would never see its shutdown done).
fn check(body: &[u8]) -> Result<Pass, Vec<u8>> {
    // In tower-lsp's order: a response first, then a request.
    if serde_json::from_slice::<Response>(body).is_ok() {
        return Ok(Pass {
            body: body.to_vec(),
            method: None,
        });
    }
    if let Ok(request) = serde_json::from_slice::<Request>(body) {
        let method = request.method().to_owned();
        let id = request
            .id()
            .map(|id| serde_json::to_value(id).unwrap_or(Value::Null));
        // A notification sent with `"id": null`, and `exit` with any id: the
        // client meant the notification; passing it on keeps the document
        // (or the process) as the client believes it is.
        let meant_notification = NOTIFICATIONS.contains(&method.as_str())
            && (id == Some(Value::Null) || (method == "exit" && id.is_some()));
        if meant_notification {
            if let Ok(Value::Object(mut message)) = serde_json::from_slice::<Value>(body) {
                message.remove("id");
                if method == "exit" {
                    message.remove("params");
                }
                return Ok(Pass {
                    body: Value::Object(message).to_string().into_bytes(),
                    method: Some(method),
                });
            }
        }
        if let Some(id) = id {
            if method.starts_with("$/") {
                return Err(error_frame(
                    id,
                    -32601,
                    &format!("Method not found: {method}"),
                ));
            }
            if NOTIFICATIONS.contains(&method.as_str()) {
                return Err(error_frame(
                    id,
                    -32600,
                    &format!("Invalid request: {method} is a notification, sent with an id"),
                ));
            }
        }
        if matches!(method.as_str(), "shutdown" | "exit") && request.params().is_some() {
            if let Ok(Value::Object(mut message)) = serde_json::from_slice::<Value>(body) {
                message.remove("params");
                return Ok(Pass {
                    body: Value::Object(message).to_string().into_bytes(),
                    method: Some(method),
                });
            }
        }
        if request.method() == "initialize" {
            // lsp-types 0.94 reads `workspace.diagnostic`; the spec (and
            // VS Code) say `workspace.diagnostics`: look at the raw message.
            let plural = request
                .params()
                .and_then(|p| p.pointer("/capabilities/workspace/diagnostics/refreshSupport"))
                .and_then(Value::as_bool)
                .unwrap_or(false);
            super::RAW_DIAGNOSTICS_REFRESH.store(plural, Ordering::Relaxed);
        }
        return Ok(Pass {
            body: body.to_vec(),
            method: Some(method),
        });
    }
    Err(match serde_json::from_slice::<Value>(body) {
        Err(e) => error_frame(Value::Null, -32700, &format!("Parse error: {e}")),
        Ok(value) => {
            let id = value
                .get("id")
                .cloned()
                .filter(|id| id.is_number() || id.is_string())
                .unwrap_or(Value::Null);
            error_frame(id, -32600, "Invalid request")
        }
    })
}

/// Passes valid frames from `input` to `to_server`, answers the others via
/// `out`; stops after `exit` or at the end of the input.
async fn filter_input<R, W>(
    input: R,
    mut to_server: W,
    out: mpsc::UnboundedSender<Vec<u8>>,
    shutdown_seen: Arc<AtomicBool>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut input = BufReader::with_capacity(1 << 16, input);
    loop {
        let frame = match read_frame(&mut input).await {
            Ok(Some(frame)) => frame,
            Ok(None) => break,
            Err(e) => {
                eprintln!("[jax-lsp ERROR] reading stdin: {e}");
                break;
            }
        };
        match frame {
            Frame::BadHeader(why) => {
                eprintln!("[jax-lsp WARN] skipping a malformed message: {why}");
                let _ = out.send(error_frame(
                    Value::Null,
                    -32700,
                    &format!("Parse error: {why}"),
                ));
            }
            Frame::Body(body) => match check(&body) {
                Ok(Pass { body, method }) => {
                    if to_server.write_all(&frame_bytes(&body)).await.is_err() {
                        break;
                    }
                    let _ = to_server.flush().await;
                    match method.as_deref() {
                        Some("shutdown") => shutdown_seen.store(true, Ordering::Relaxed),
                        Some("exit") => break,
                        _ => {}
                    }
                }
                Err(reply) => {
                    eprintln!(
                        "[jax-lsp WARN] answering a malformed or unknown message with an error"
                    );
                    let _ = out.send(reply);
                }
            },
        }
    }
    let _ = to_server.shutdown().await;
}

/// Copies whole frames from the server's output to `out`.
async fn forward_output<R: AsyncRead + Unpin>(from_server: R, out: mpsc::UnboundedSender<Vec<u8>>) {
    let mut input = BufReader::with_capacity(1 << 16, from_server);
    while let Ok(Some(frame)) = read_frame(&mut input).await {
        if let Frame::Body(body) = frame {
            if out.send(frame_bytes(&body)).is_err() {
                break;
            }
        }
    }
}

async fn write_output<W: AsyncWrite + Unpin>(
    mut rx: mpsc::UnboundedReceiver<Vec<u8>>,
    mut stdout: W,
) {
    while let Some(frame) = rx.recv().await {
        if stdout.write_all(&frame).await.is_err() {
            break;
        }
        // Flush once the queue is drained.
        if rx.is_empty() && stdout.flush().await.is_err() {
            break;
        }
    }
    let _ = stdout.flush().await;
}

/// Serves `service` over `input`/`output`. Returns true if `shutdown` came before the end.
pub async fn serve<R, W, S>(input: R, output: W, build: S) -> bool
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
    S: FnOnce() -> (LspService<super::Backend>, tower_lsp::ClientSocket),
{
    let (to_server, server_in) = tokio::io::duplex(1 << 16);
    let (server_out, from_server) = tokio::io::duplex(1 << 16);
    let (tx, rx) = mpsc::unbounded_channel();
    let shutdown_seen = Arc::new(AtomicBool::new(false));
    let writer = tokio::spawn(write_output(rx, output));
    let forward = tokio::spawn(forward_output(from_server, tx.clone()));
    let filter = tokio::spawn(filter_input(input, to_server, tx, shutdown_seen.clone()));
    let (service, socket) = build();
    Server::new(server_in, server_out, socket)
        .serve(service)
        .await;
    // The server's output is closed now: let the last frames out.
    let _ = forward.await;
    filter.abort();
    let _ = filter.await;
    let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    shutdown_seen.load(Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn reads_frames_and_reports_bad_headers() {
        let data: &[u8] = b"Content-Length: 2\r\n\r\n{}X-Nothing: 1\r\n\r\nContent-Length: abc\r\n\r\n\r\nContent-Length: 4\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\nnull";
        let mut input = BufReader::new(data);
        let mut frames = Vec::new();
        while let Some(frame) = read_frame(&mut input).await.unwrap() {
            frames.push(match frame {
                Frame::Body(b) => String::from_utf8(b).unwrap(),
                Frame::BadHeader(why) => format!("bad: {why}"),
            });
        }
        assert_eq!(frames.len(), 4, "{frames:?}");
        assert_eq!(frames[0], "{}");
        assert!(frames[1].starts_with("bad: message header without"));
        assert!(frames[2].starts_with("bad: bad Content-Length"));
        assert_eq!(frames[3], "null");
    }

    fn method(body: &[u8]) -> Option<String> {
        check(body).unwrap().method
    }

    fn refused(body: &[u8]) -> String {
        String::from_utf8(check(body).unwrap_err()).unwrap()
    }

    #[test]
    fn checks_bodies_like_tower_lsp() {
        assert_eq!(
            method(br#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}"#).as_deref(),
            Some("initialize")
        );
        assert_eq!(
            method(br#"{"jsonrpc":"2.0","method":"exit"}"#).as_deref(),
            Some("exit")
        );
        assert_eq!(method(br#"{"jsonrpc":"2.0","id":3,"result":null}"#), None);
        assert!(refused(b"{not json").contains("-32700"));
        let reply = refused(br#"{"id":7,"foo":1}"#);
        assert!(
            reply.contains("-32600") && reply.contains("\"id\":7"),
            "{reply}"
        );
    }

    #[test]
    fn answers_what_tower_lsp_leaves_unanswered() {
        let reply = refused(br#"{"jsonrpc":"2.0","id":"a","method":"$/unknown"}"#);
        assert!(
            reply.contains("-32601") && reply.contains("\"id\":\"a\""),
            "{reply}"
        );
        // A `$/` notification is passed on (tower-lsp handles cancels).
        assert_eq!(
            method(br#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":1}}"#).as_deref(),
            Some("$/cancelRequest")
        );
        let reply =
            refused(br#"{"jsonrpc":"2.0","id":4,"method":"textDocument/didSave","params":{}}"#);
        assert!(
            reply.contains("-32600") && reply.contains("\"id\":4"),
            "{reply}"
        );
    }

    #[test]
    fn notifications_with_a_null_id_and_exit_with_an_id_are_passed_on_as_notifications() {
        let pass = check(
            br#"{"jsonrpc":"2.0","id":null,"method":"textDocument/didClose","params":{"textDocument":{"uri":"file:///a.py"}}}"#,
        )
        .unwrap();
        assert_eq!(pass.method.as_deref(), Some("textDocument/didClose"));
        let value: Value = serde_json::from_slice(&pass.body).unwrap();
        assert!(value.get("id").is_none(), "{value}");
        let pass = check(br#"{"jsonrpc":"2.0","id":5,"method":"exit","params":null}"#).unwrap();
        assert_eq!(pass.method.as_deref(), Some("exit"));
        let value: Value = serde_json::from_slice(&pass.body).unwrap();
        assert_eq!(value, json!({"jsonrpc": "2.0", "method": "exit"}));
    }

    #[test]
    fn shutdown_and_exit_lose_their_params() {
        for params in ["null", "{}"] {
            let body =
                format!(r#"{{"jsonrpc":"2.0","id":9,"method":"shutdown","params":{params}}}"#);
            let pass = check(body.as_bytes()).unwrap();
            assert_eq!(pass.method.as_deref(), Some("shutdown"));
            let value: Value = serde_json::from_slice(&pass.body).unwrap();
            assert_eq!(
                value,
                json!({"jsonrpc": "2.0", "id": 9, "method": "shutdown"})
            );
        }
        let pass = check(br#"{"jsonrpc":"2.0","method":"exit","params":[1]}"#).unwrap();
        let value: Value = serde_json::from_slice(&pass.body).unwrap();
        assert_eq!(value, json!({"jsonrpc": "2.0", "method": "exit"}));
    }
}
