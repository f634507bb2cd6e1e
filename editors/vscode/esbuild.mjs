// Bundles the extension into dist/extension.js (one file, `vscode` external), and with
// `--tests` the unit tests into out/test/*.test.js for `node --test`.
import * as esbuild from "esbuild";
import * as fs from "node:fs";
import * as path from "node:path";

const tests = process.argv.includes("--tests");
const production = process.argv.includes("--production");

if (tests) {
  const dir = "test";
  const entryPoints = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".test.ts"))
    .map((f) => path.join(dir, f));
  fs.rmSync("out", { recursive: true, force: true });
  await esbuild.build({
    entryPoints,
    outdir: "out/test",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node18",
    sourcemap: "inline",
    external: ["vscode"],
    logLevel: "warning",
  });
} else {
  await esbuild.build({
    entryPoints: ["src/extension.ts"],
    outfile: "dist/extension.js",
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node18",
    external: ["vscode"],
    minify: production,
    sourcemap: !production,
    logLevel: "warning",
  });
}
