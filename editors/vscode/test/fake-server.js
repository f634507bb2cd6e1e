#!/usr/bin/env node
// A stand-in LSP server for client.test.ts: appends every message it receives (and its argv,
// and the answers to its own requests) to $FAKE_SERVER_LOG, one JSON object a line.
const fs = require("node:fs");
const log = process.env.FAKE_SERVER_LOG;
const record = (entry) => fs.appendFileSync(log, JSON.stringify(entry) + "\n");
record({ argv: process.argv.slice(2) });

function send(message) {
  const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", ...message }));
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
}

let buffer = Buffer.alloc(0);
process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: *(\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const message = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    record(message);
    if (message.method === "initialize") {
      send({ id: message.id, result: { capabilities: { textDocumentSync: 2 }, serverInfo: { name: "fake" } } });
    } else if (message.method === "initialized") {
      // Pull the settings like jax-lsp does.
      send({ id: "cfg-1", method: "workspace/configuration", params: { items: [{ section: "jax-lsp" }] } });
    } else if (message.method === "shutdown") {
      send({ id: message.id, result: null });
    } else if (message.method === "exit") {
      process.exit(0);
    } else if (message.method !== undefined && message.id !== undefined) {
      send({ id: message.id, result: null });
    }
  }
});
process.stdin.on("end", () => process.exit(0));
