/**
 * runHarness: the real `claude` binary, offline, driven by a scripted mock model, in a fresh
 * isolated temp dir — and the run's Trace, with exact file changes and every model request.
 */
import path from "node:path";
import { ProctorError, isProctorError } from "../../src/errors/proctor-error.js";
import { parseTranscript } from "../../src/trace/transcript.js";
import type { RunError, Trace } from "../../src/trace/types.js";
import { loadScript } from "../../mock-model/script/schema.js";
import { startMockModel, type MockModel } from "../../mock-model/server/start.js";
import type { MockRun } from "../../mock-model/run/mock-run.js";
import { runProcess } from "../process/run-process.js";
import { diffSnapshots, takeSnapshot } from "../workdir/snapshot.js";
import { keepRunDirs, prepareRunDirs, removeRunDirs, type RunDirs } from "../workdir/prepare.js";
import { resolveClaudeBinary } from "./binary.js";
import { buildChildEnv, ownedVariables } from "./env.js";
import { HarnessError, quoteArg } from "../run/failure.js";
import { chooseFailureReason, describeFailure } from "../run/reason.js";
import { CLAUDE_FAILURES } from "./failure.js";
import { validateSpec, type HarnessSpec } from "./spec.js";

/** What a harness run produced. */
export interface HarnessResult {
  /** The run's Trace: parsed from the CLI's stream-json, files from the snapshot, model requests from the mock. */
  readonly trace: Trace;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** The raw stream-json transcript. */
  readonly stdout: string;
  readonly stderr: string;
  /** The agent's cwd; exists until `cleanup()` (or for good with `keep`). */
  readonly workDir: string;
  /** The argv the binary was run with. */
  readonly command: readonly string[];
  readonly durationMs: number;
  readonly timedOut: boolean;
  /** The mock's view: every request, side requests, script errors, unused turns. */
  readonly mockRun: MockRun;
  /** Why the run failed (only with `reject: false`; otherwise it was thrown). */
  readonly failure?: HarnessError<HarnessResult>;
  /** Remove the temp dirs (a no-op with `keep`). */
  cleanup(): Promise<void>;
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_PERMISSION_MODE = "acceptEdits";
const DEFAULT_MAX_RETRIES = 2;

let sharedMock: Promise<MockModel> | undefined;

/** The process-wide mock server runs share (each under its own API key); it never keeps the process alive. */
export function useSharedMock(): Promise<MockModel> {
  sharedMock ??= startMockModel({ unref: true });
  return sharedMock;
}

/** The CLI arguments for a spec (the prompt goes on stdin). */
export function buildArgs(spec: HarnessSpec, dirs: RunDirs, cwd: string): string[] {
  const args = ["-p", "--output-format", "stream-json", "--verbose", "--include-hook-events", "--permission-mode", spec.permissionMode ?? DEFAULT_PERMISSION_MODE];
  if (dirs.settingsFile) args.push("--settings", dirs.settingsFile);
  for (const p of spec.plugins ?? []) args.push("--plugin-dir", path.resolve(cwd, p));
  if (dirs.mcpConfigFile) args.push("--mcp-config", dirs.mcpConfigFile);
  const allowed = spec.allowedTools ?? ["Skill", ...dirs.mcpServers.map((s) => `mcp__${s}`)];
  if (allowed.length > 0) args.push(`--allowedTools=${allowed.join(",")}`);
  if (spec.disallowedTools?.length) args.push(`--disallowedTools=${spec.disallowedTools.join(",")}`);
  if (spec.maxTurns !== undefined) args.push("--max-turns", String(spec.maxTurns));
  if (spec.model) args.push("--model", spec.model);
  args.push(...(spec.args ?? []));
  return args;
}

function refuseRootBypass(spec: HarnessSpec): void {
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  if (root && spec.permissionMode === "bypassPermissions" && spec.env?.IS_SANDBOX !== "1") {
    throw new ProctorError("INVALID_INPUT", "runHarness: permissionMode bypassPermissions is refused by claude when running as root", {
      detail: '  use the default (acceptEdits) plus allowedTools, or declare a sandbox with env: { IS_SANDBOX: "1" }',
    });
  }
  const owned = ownedVariables(spec.env);
  if (owned.length > 0) {
    throw new ProctorError("INVALID_INPUT", `runHarness: spec.env sets ${owned.join(", ")}, which the harness owns (the mock model's endpoint and key, the isolated HOME and config dir)`, {
      detail: "  drop them: every harness run talks to the mock model only, with its own temp HOME",
    });
  }
}

function merge(trace: Trace, files: Trace["files"], requests: MockRun["requests"], extra: RunError[]): Trace {
  return { ...trace, ...(files ? { files } : {}), modelRequests: [...requests], errors: [...trace.errors, ...extra] };
}

/**
 * Run the real claude binary against a scripted mock model in a fresh temp work dir, and return
 * its Trace. Rejects with a HarnessError when the run failed (unless `reject: false`).
 */
export async function runHarness(spec: HarnessSpec): Promise<HarnessResult> {
  validateSpec(spec);
  refuseRootBypass(spec);
  const cwd = path.resolve(spec.cwd ?? process.cwd());
  const script = typeof spec.script === "string" ? loadScript(path.resolve(cwd, spec.script)) : spec.script;
  const timeoutMs = spec.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const reject = spec.reject ?? true;

  let binary: string;
  try {
    binary = resolveClaudeBinary({ claudePath: spec.claudePath, cwd });
  } catch (error) {
    if (!isProctorError(error)) throw error;
    throw new HarnessError({ reason: "binary-missing", command: "claude -p …", stderrTail: "", exitCode: null, signal: null, timedOut: false, durationMs: 0 }, "could not start", {
      cause: error,
      extra: [`  ${error.message.replace(/\n/g, "\n  ")}`],
    });
  }

  const mock = spec.mock ?? (await useSharedMock());
  const mockRun = mock.addRun(script);
  let dirs: RunDirs;
  try {
    dirs = prepareRunDirs(spec, cwd);
  } catch (error) {
    mockRun.remove();
    throw error;
  }
  const args = buildArgs(spec, dirs, cwd);
  const command = [binary, ...args].map(quoteArg).join(" ") + ` <<< ${quoteArg(spec.prompt.length > 80 ? `${spec.prompt.slice(0, 79)}…` : spec.prompt)}`;
  const env = buildChildEnv(process.env, spec.env, { home: dirs.home, configDir: dirs.configDir, baseUrl: mock.url, apiKey: mockRun.apiKey, maxRetries: spec.maxRetries ?? DEFAULT_MAX_RETRIES });

  try {
    const before = takeSnapshot(dirs.workDir);
    const proc = await runProcess(binary, args, { cwd: dirs.workDir, env, input: spec.prompt, timeoutMs, signal: spec.signal });
    const files = diffSnapshots(dirs.workDir, before, takeSnapshot(dirs.workDir));
    const parsed = parseTranscript(proc.stdout, { sourceKind: "harness" });
    const extra: RunError[] = mockRun.errors.map((e) => ({ kind: e.kind, message: e.message }));
    if (proc.timedOut) extra.push({ kind: "timeout", message: `the run was killed after ${timeoutMs} ms (timeoutMs); the trace holds what it did until then` });
    else if (proc.aborted) extra.push({ kind: "killed", message: "the run was aborted; the trace holds what it did until then" });
    const trace = merge(parsed, files, mockRun.requests, extra);
    const reason = chooseFailureReason(proc, trace, CLAUDE_FAILURES, mockRun);

    // With keep, cleanup() has nothing to do; otherwise it removes the temp root once.
    let cleaned = spec.keep === true;
    const result: HarnessResult & { failure?: HarnessError<HarnessResult> } = {
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
    const failure = new HarnessError<HarnessResult>(
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
      describeFailure(reason, CLAUDE_FAILURES, proc, timeoutMs, trace, mockRun),
      {
        result,
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
