// Codex figures: runCodex wall time ÷ a bare `codex exec` against the same mock with the same
// script (interleaved, medians), and what Codex's WebSocket attempt costs: the built-in provider
// pointed at the mock (which answers the upgrade with 426) and at a server that answers it with
// 404 (Codex retries ~5 times before falling back to HTTP). Prints figures, never asserts.
// Run: npm run build && node bench/codex.mjs   (BENCH_ROUNDS=N for more rounds; default 5)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer, request } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { resolveCodexBinary, runCodex } from "../dist/harness/index.js";
import { startMockModel } from "../dist/mock-model/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const script = {
  turns: [
    { tools: [{ name: "exec_command", input: { cmd: "echo one > one.txt" } }] },
    { tools: [{ name: "exec_command", input: { cmd: "cat one.txt" } }] },
    { text: "Done." },
  ],
};
const mock = await startMockModel();
const binary = resolveCodexBinary();

/** A server that refuses WebSocket upgrades with 404 and passes HTTP on to the mock. */
const refuse404 = createServer((req, res) => {
  const upstream = request(`${mock.url}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
    res.writeHead(r.statusCode ?? 502, r.headers);
    r.pipe(res);
  });
  req.pipe(upstream);
});
refuse404.on("upgrade", (_req, socket) => socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n"));
await new Promise((r) => refuse404.listen(0, "127.0.0.1", r));
const refuse404Url = `http://127.0.0.1:${refuse404.address().port}`;

/** A bare `codex exec`: a fresh HOME/CODEX_HOME and cwd, the given provider arguments, nothing else. */
async function bareRun(providerArgs, keyVar) {
  const run = mock.addResponsesRun(script);
  const root = mkdtempSync(path.join(tmpdir(), "proctor-bench-"));
  const env = { PATH: process.env.PATH, HOME: root, CODEX_HOME: root, [keyVar]: run.apiKey };
  const started = performance.now();
  const code = await new Promise((resolve) => {
    const child = spawn(binary, ["exec", "--json", "--skip-git-repo-check", "--sandbox", "workspace-write", "-m", "gpt-5.5", ...providerArgs, "bench"], { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
    child.stdout.resume();
    child.stderr.resume();
    child.on("close", resolve);
  });
  const ms = performance.now() - started;
  const ok = code === 0 && run.errors.length === 0 && run.requests.length === 3;
  run.remove();
  rmSync(root, { recursive: true, force: true });
  if (!ok) throw new Error(`bare codex exec failed (exit ${code}, ${run.requests.length} requests)`);
  return ms;
}

const customProvider = () =>
  bareRun(["-c", 'model_provider="m"', "-c", `model_providers.m={name="m", base_url="${mock.url}/v1", env_key="MOCK_KEY", wire_api="responses", supports_websockets=false}`], "MOCK_KEY");
const builtIn = (url) => () => bareRun(["-c", `openai_base_url="${url}/v1"`], "CODEX_API_KEY");

async function codexRun() {
  const started = performance.now();
  const result = await runCodex({ mock, prompt: "bench", script });
  await result.cleanup();
  return performance.now() - started;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const times = { runCodex: [], bare: [], builtIn426: [] };
await codexRun(); // warm the page cache
for (let i = 0; i < ROUNDS; i++) {
  times.runCodex.push(await codexRun());
  times.bare.push(await customProvider());
  times.builtIn426.push(await builtIn(mock.url)());
}
const ws404 = await builtIn(refuse404Url)();

const fmt = (ms) => `${Math.round(ms)} ms`;
console.log(`3-turn script (2 commands and a reply), ${ROUNDS} interleaved rounds, medians:`);
console.log(`  runCodex                                       ${fmt(median(times.runCodex))}`);
console.log(`  bare codex exec, custom provider, no WebSocket ${fmt(median(times.bare))}`);
console.log(`  runCodex ÷ bare                                ${(median(times.runCodex) / median(times.bare)).toFixed(2)}`);
console.log(`figure: runCodex / bare codex exec = ${(median(times.runCodex) / median(times.bare)).toFixed(2)} (goal ≤ 1.05)`);
console.log(`  built-in provider, mock answers upgrade 426    ${fmt(median(times.builtIn426))}`);
console.log(`  built-in provider, upgrade refused with 404    ${fmt(ws404)} (one run: Codex retries the WebSocket before falling back)`);
await mock.close();
refuse404.close();
