/**
 * runCodex: the real `codex exec`, offline, driven by the scripted mock model's Responses API in a
 * fresh isolated temp dir — and the run's Trace, the same shape a Claude Code run gives.
 */
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";
import { ProctorError, isProctorError } from "../../src/errors/proctor-error.js";
import { codexDialect } from "../../src/effects/dialect.js";
import type { RunError, Trace, TraceSource } from "../../src/trace/types.js";
import { loadScript } from "../../mock-model/script/schema.js";
import type { ResponsesMockRun } from "../../mock-model/responses/run-state.js";
import { HarnessError, quoteArg } from "../run/failure.js";
import { chooseFailureReason, describeFailure } from "../run/reason.js";
import { useSharedMock } from "../claude/run-harness.js";
import { runProcess } from "../process/run-process.js";
import { diffSnapshots, takeSnapshot } from "../workdir/snapshot.js";
import { keepRunDirs, prepareRunDirs, removeRunDirs, type RunDirs } from "../workdir/prepare.js";
import { resolveCodexBinary } from "./binary.js";
import { buildCodexArgs, readMcpServers, DEFAULT_CODEX_MODEL, DEFAULT_CODEX_SANDBOX } from "./config.js";
import { buildCodexEnv, ownedCodexVariables } from "./env.js";
import { parseCodexEvents } from "./events.js";
import { CODEX_FAILURES } from "./failure.js";
import { mergeModelCalls } from "./merge.js";
import { validateCodexSpec, type CodexSpec } from "./spec.js";
import { buildCodexTrace } from "./trace.js";

/** What a Codex run produced. */
export interface CodexResult {
  /** The run's Trace: Codex's JSON events merged with every call the mock saw, files from the snapshot, model requests from the mock. */
  readonly trace: Trace;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The raw `codex exec --json` output. */
  readonly stdout: string;
  readonly stderr: string;
  /** The agent's cwd; exists until `cleanup()` (or for good with `keep`). */
  readonly workDir: string;
  /** The argv the binary was run with. */
  readonly command: readonly string[];
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** The mock's view: every request, the tools offered, every item answered, script errors. */
  readonly mockRun: ResponsesMockRun;
  /** Why the run failed (only with `reject: false`; otherwise it was thrown). */
  readonly failure?: HarnessError<CodexResult>;
  /** Remove the temp dirs (a no-op with `keep`). */
  cleanup(): Promise<void>;
}

export const DEFAULT_CODEX_TIMEOUT_MS = 30_000;

function refuseOwnedEnv(spec: CodexSpec): void {
  const owned = ownedCodexVariables(spec.env);
  if (owned.length > 0) {
    throw new ProctorError("INVALID_INPUT", `runCodex: spec.env sets ${owned.join(", ")}, which the harness owns (the mock model's endpoint and key, the isolated HOME and CODEX_HOME)`, {
      detail: "  drop them: every Codex run talks to the mock model only, with its own temp HOME; Codex settings go in spec.config",
    });
  }
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
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const script = typeof spec.script === "string" ? loadScript(path.resolve(cwd, spec.script)) : spec.script;
  const mcpServers = readMcpServers(spec, cwd);
  const timeoutMs = spec.timeoutMs ?? DEFAULT_CODEX_TIMEOUT_MS;
  const reject = spec.reject ?? true;

  let binary: string;
  try {
    binary = resolveCodexBinary({ codexPath: spec.codexPath, cwd });
  } catch (error) {
    if (!isProctorError(error)) throw error;
    throw new HarnessError({ reason: "binary-missing", command: "codex exec …", stderrTail: "", exitCode: null, signal: null, timedOut: false, durationMs: 0 }, "could not start", {
      cause: error,
      extra: [`  ${error.message.replace(/\n/g, "\n  ")}`],
      agent: "codex",
    });
  }

  const mock = spec.mock ?? (await useSharedMock());
  const mockRun = mock.addResponsesRun(script);
  let dirs: RunDirs;
  try {
    if (spec.fixture) validateCodexFixture(path.resolve(cwd, spec.fixture));
    dirs = prepareRunDirs({ prompt: spec.prompt, script, files: spec.files, fixture: spec.fixture }, cwd);
  } catch (error) {
    mockRun.remove();
    throw error;
  }
  const codexHome = path.join(dirs.home, ".codex");
  mkdirSync(codexHome, { recursive: true });
  const args = buildCodexArgs(spec, { baseUrl: mock.url, mcpServers });
  const command = [binary, ...args].map(quoteArg).join(" ") + ` <<< ${quoteArg(spec.prompt.length > 80 ? `${spec.prompt.slice(0, 79)}…` : spec.prompt)}`;
  const env = buildCodexEnv(process.env, spec.env, { home: dirs.home, codexHome, apiKey: mockRun.apiKey });

  try {
    const before = takeSnapshot(dirs.workDir);
    const proc = await runProcess(binary, args, { cwd: dirs.workDir, env, input: spec.prompt, timeoutMs, signal: spec.signal });
    const files = diffSnapshots(dirs.workDir, before, takeSnapshot(dirs.workDir));
    const shellTool = mockRun.offered.find((t) => codexDialect.shellTools.includes(t.name))?.name;
    const events = parseCodexEvents(proc.stdout, { cwd: dirs.workDir, ...(shellTool ? { shellTool } : {}) });
    const entries = mergeModelCalls(events.entries, mockRun.answered, (id) => mockRun.outputOf(id), dirs.workDir);
    const built = buildCodexTrace(events, entries, { source: sourceOf(spec, mockRun, dirs.workDir, Object.keys(mcpServers)), turns: mockRun.requests.length, durationMs: proc.durationMs });
    const extra: RunError[] = mockRun.errors.map((e) => ({ kind: e.kind, message: e.message }));
    if (proc.timedOut) extra.push({ kind: "timeout", message: `the run was killed after ${timeoutMs} ms (timeoutMs); the trace holds what it did until then` });
    else if (proc.aborted) extra.push({ kind: "killed", message: "the run was aborted; the trace holds what it did until then" });
    const trace: Trace = { ...built, files, modelRequests: [...mockRun.requests], errors: [...built.errors, ...extra] };
    const reason = chooseFailureReason(proc, trace, CODEX_FAILURES, mockRun);

    // With keep, cleanup() has nothing to do; otherwise it removes the temp root once.
    let cleaned = spec.keep === true;
    const result: CodexResult & { failure?: HarnessError<CodexResult> } = {
      trace,
      exitCode: proc.exitCode,
      signal: proc.signal,
      stdout: proc.stdout,
      stderr: proc.stderr,
      workDir: dirs.workDir,
      command: [binary, ...args],
      durationMs: proc.durationMs,
      timedOut: proc.timedOut,
      mockRun,
      async cleanup() {
        if (!cleaned) removeRunDirs(dirs.root);
        cleaned = true;
      },
    };
    if (spec.keep) keepRunDirs(dirs.root);
    if (reason === undefined) return result;
    const failure = new HarnessError<CodexResult>(
      {
        reason,
        command,
        workDir: dirs.workDir,
        stderrTail: proc.stderr.slice(-4000),
        lastRequest: mockRun.describeLastRequest(),
        exitCode: proc.exitCode,
        signal: proc.signal,
        timedOut: proc.timedOut,
        durationMs: proc.durationMs,
      },
      describeFailure(reason, CODEX_FAILURES, proc, timeoutMs, trace, mockRun),
      {
        result,
        agent: "codex",
        extra: [
          ...(trace.errors.length ? [`  trace errors:\n${trace.errors.map((e) => `    ${e.kind}: ${e.message}`).join("\n")}`] : []),
          ...(reject && !spec.keep ? ["  the temp dirs are removed; pass keep: true to keep them for inspection"] : []),
        ],
      },
    );
    result.failure = failure;
    if (!reject) return result;
    await result.cleanup();
    throw failure;
  } catch (error) {
    if (!(error instanceof HarnessError) && !spec.keep) removeRunDirs(dirs.root);
    throw error;
  } finally {
    mockRun.remove();
  }
}

function validateCodexFixture(dir: string): void {
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir) throw new ProctorError("INVALID_INPUT", `runCodex: spec.fixture ${dir} is not a directory`);
}
