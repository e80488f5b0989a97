/**
 * Records the stream-json claude writes for the runs the run-health table tests judge: healthy runs
 * that look unusual (async hooks, hooks cancelled at session end, background tasks) and hooks that
 * did not run as designed. Runs the real binaries on the mock model; keeps each recording small
 * (the init line trimmed to what a Trace reads) and free of machine paths and ids.
 *
 *   npx tsx test/health/recordings/record.ts [pinned|latest|both] [scenario…]
 *
 * `latest` is PROCTOR_CLAUDE, else /work/claude-latest/node_modules/.bin/claude.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { resolveClaudeBinary } from "../../../harness/claude/binary.js";
import { runHarness } from "../../../harness/index.js";
import { parseTranscript } from "../../../src/trace/transcript.js";
import { makeTypoPlugin, SCENARIOS, type Scenario } from "./scenarios.js";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const LATEST = process.env.PROCTOR_CLAUDE ?? "/work/claude-latest/node_modules/.bin/claude";

const INIT_KEYS = ["type", "subtype", "cwd", "session_id", "tools", "mcp_servers", "model", "permissionMode", "skills", "agents", "plugins", "claude_code_version", "uuid"];
const RESULT_KEYS = ["type", "subtype", "is_error", "api_error_status", "result", "num_turns", "stop_reason", "terminal_reason", "session_id", "total_cost_usd", "duration_ms", "permission_denials", "errors", "usage", "uuid"];
const USAGE_KEYS = ["input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"];

function keepOnly(object: Record<string, unknown>, keys: readonly string[]): void {
  for (const key of Object.keys(object)) if (!keys.includes(key)) delete object[key];
}

/** The init line keeps what a Trace reads of it; ids, times and this machine's paths become placeholders. */
export function scrub(stdout: string, trialRoot: string): string {
  const ids = new Map<string, string>();
  const stable = (kind: string, value: string) => {
    if (!ids.has(value)) ids.set(value, `${kind}-${ids.size + 1}`);
    return ids.get(value) as string;
  };
  const out: string[] = [];
  for (const raw of stdout.split("\n")) {
    if (!raw.trim()) continue;
    const line = JSON.parse(raw) as Record<string, unknown>;
    if (line.type === "system" && line.subtype === "init") keepOnly(line, INIT_KEYS);
    if (line.type === "result") {
      keepOnly(line, RESULT_KEYS);
      if (typeof line.usage === "object" && line.usage !== null) keepOnly(line.usage as Record<string, unknown>, USAGE_KEYS);
    }
    let text = JSON.stringify(line);
    text = text.replaceAll(trialRoot, "/tmp/proctor-run-TRIAL").replaceAll(os.homedir(), "/home/user");
    // claude names its per-project folders after the path, dashes for slashes.
    text = text.replace(/proctor-run-[A-Za-z0-9]{6}/g, "proctor-run-TRIAL");
    text = text.replace(/"(uuid|session_id|hook_id|task_id|run_id|parent_uuid)":"([^"]+)"/g, (_m, k: string, v: string) => `"${k}":"${stable(k, v)}"`);
    text = text.replace(/"(timestamp|end_time|start_time)":("[^"]*"|\d+)/g, (_m, k: string) => `"${k}":0`);
    text = text.replace(/(\/home\/user)?\/[\w./-]*\/bin\/python3(\.\d+)?/g, "/usr/bin/python3");
    out.push(text);
  }
  return `${out.join("\n")}\n`;
}

async function record(version: "pinned" | "latest", name: string, spec: Scenario): Promise<void> {
  const result = await runHarness({ reject: false, timeoutMs: 120_000, ...(version === "latest" ? { claudePath: LATEST } : {}), ...spec });
  const root = path.dirname(result.workDir);
  // The binary's own word: a run killed early may have written no init line to name it.
  const v = /\d+\.\d+\.\d+/.exec(execFileSync(version === "latest" ? LATEST : resolveClaudeBinary(), ["--version"], { encoding: "utf8" }))?.[0] ?? version;
  const dir = path.join(HERE, v);
  mkdirSync(dir, { recursive: true });
  const stream = scrub(result.stdout, root);
  writeFileSync(path.join(dir, `${name}.jsonl`), stream);
  // What the harness held the run to, and the errors it found beyond the stream (a plugin claude dropped, the time limit).
  const fromStream = new Set(parseTranscript(stream, { sourceKind: "harness" }).errors.map((e) => e.kind));
  const held = { expected: result.trace.health?.expected ?? {}, errors: result.trace.errors.filter((e) => !fromStream.has(e.kind)) };
  writeFileSync(path.join(dir, `${name}.held.json`), `${scrub(JSON.stringify(held), root).trim()}\n`);
  process.stdout.write(`${v} ${name}: ${result.trace.health?.ok ? "healthy" : `unhealthy (${result.trace.health?.items.filter((i) => i.status === "failed").map((i) => i.name).join(", ")})`}\n`);
  await result.cleanup();
}

const [which = "both", ...only] = process.argv.slice(2);
makeTypoPlugin();
const versions: ("pinned" | "latest")[] = which === "both" ? ["pinned", "latest"] : [which as "pinned" | "latest"];
for (const version of versions) {
  for (const [name, spec] of Object.entries(SCENARIOS)) {
    if (only.length && !only.includes(name)) continue;
    await record(version, name, spec);
  }
}
