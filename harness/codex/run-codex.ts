/**
 * runCodex: the real `codex exec`, offline, driven by the scripted mock model's Responses API in a
 * fresh isolated temp dir — and the run's Trace, the same shape a Claude Code run gives.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { codexDialect } from "../../src/effects/dialect.js";
import type { TraceSource } from "../../src/trace/types.js";
import type { ResponsesMockRun } from "../../mock-model/responses/run-state.js";
import { runAgentProcess, startScriptedRun } from "../run/lifecycle.js";
import { checkSpecEnv } from "../run/env.js";
import type { AgentRunResult } from "../run/result.js";
import { prepareRunDirs } from "../workdir/prepare.js";
import { resolveCodexBinary } from "./binary.js";
import { buildCodexArgs, readMcpServers, DEFAULT_CODEX_MODEL, DEFAULT_CODEX_SANDBOX } from "./config.js";
import { buildCodexEnv, ownedCodexVariables } from "./env.js";
import { parseCodexEvents } from "./events.js";
import { CODEX_FAILURES } from "./failure.js";
import { mergeModelCalls } from "./merge.js";
import { validateCodexSpec, type CodexSpec } from "./spec.js";
import { buildCodexTrace } from "./trace.js";

/** What a Codex run produced: its trace holds Codex's JSON events merged with every call the mock saw. */
export interface CodexResult extends AgentRunResult<CodexResult> {
  /** The mock's view: every request, the tools offered, every item answered, script errors. */
  readonly mockRun: ResponsesMockRun;
}

export const DEFAULT_CODEX_TIMEOUT_MS = 30_000;

function refuseOwnedEnv(spec: CodexSpec): void {
  const owned = ownedCodexVariables(spec.env);
  if (owned.length > 0) {
    throw new InvalidInputError("INVALID_INPUT", `runCodex: spec.env sets ${owned.join(", ")}, which the harness owns (the mock model's endpoint and key, the isolated HOME and CODEX_HOME)`, {
      detail: "  drop them: every Codex run talks to the mock model only, with its own temp HOME; Codex settings go in spec.config",
    });
  }
  checkSpecEnv("runCodex", spec.env, spec.unsafeEnv);
}

/** What the trace's source can say that the JSON stream doesn't. */
function sourceOf(spec: CodexSpec, run: ResponsesMockRun, workDir: string, mcpServers: readonly string[]): Omit<TraceSource, "kind" | "sessionId"> {
  const version = /codex_\w+\/(\d[\w.-]*)/.exec(run.userAgent ?? "")?.[1];
  const offered = run.offered.map((t) => t.name);
  return {
    ...(version ? { agentVersion: version } : {}),
    model: run.model ?? spec.model ?? DEFAULT_CODEX_MODEL,
    cwd: workDir,
    permissionMode: spec.sandbox ?? DEFAULT_CODEX_SANDBOX,
    ...(offered.length ? { tools: offered } : {}),
    ...(mcpServers.length
      ? { mcpServers: mcpServers.map((name) => ({ name, status: offered.some((t) => t === `mcp__${name}` || t.startsWith(`mcp__${name}__`)) ? "connected" : "not offered" })) }
      : {}),
  };
}

/**
 * Run the real codex binary against a scripted mock model in a fresh temp work dir, and return
 * its Trace. Rejects with a HarnessError when the run failed (unless `reject: false`).
 */
export async function runCodex(spec: CodexSpec): Promise<CodexResult> {
  validateCodexSpec(spec);
  refuseOwnedEnv(spec);
  const mcpServers = readMcpServers(spec, path.resolve(spec.cwd ?? process.cwd()));
  const resolveBinary = (cwd: string) => resolveCodexBinary({ codexPath: spec.codexPath, cwd });
  const { cwd, mock, apiKey, run } = await startScriptedRun(spec, CODEX_FAILURES, resolveBinary, (mock, script, apiKey) => mock.addResponsesRun(script, { apiKey }));
  return runAgentProcess<CodexResult, ResponsesMockRun>({
    ...run,
    timeoutMs: spec.timeoutMs ?? DEFAULT_CODEX_TIMEOUT_MS,
    prepare() {
      const dirs = prepareRunDirs({ ...(spec.files ? { files: spec.files } : {}), ...(spec.fixture === undefined ? {} : { fixture: spec.fixture }) }, cwd, "runCodex");
      const codexHome = path.join(dirs.home, ".codex");
      mkdirSync(codexHome, { recursive: true });
      const env = buildCodexEnv(process.env, spec.env, { home: dirs.home, tmp: dirs.tmpDir, codexHome, apiKey });
      return { dirs, args: buildCodexArgs(spec, { baseUrl: mock.url, mcpServers }), env };
    },
    readTrace(proc, dirs, mockRun) {
      const shellTool = mockRun.offered.find((t) => codexDialect.shellTools.includes(t.name))?.name;
      const events = parseCodexEvents(proc.stdout, { cwd: dirs.workDir, ...(shellTool ? { shellTool } : {}) });
      const entries = mergeModelCalls(events.entries, mockRun.answered, (id) => mockRun.outputOf(id), dirs.workDir);
      return buildCodexTrace(events, entries, { source: sourceOf(spec, mockRun, dirs.workDir, Object.keys(mcpServers)), turns: mockRun.requests.length, durationMs: proc.durationMs });
    },
  });
}
