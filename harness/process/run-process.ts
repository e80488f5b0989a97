/**
 * Running a child in its own process group, so a timeout, an abort or the parent's end kills
 * the whole tree (the CLI, its tools, hooks and MCP servers), never just the top process.
 * Hand-written rather than execa: execa's `cleanup` and `forceKillAfterDelay` signal the child's
 * pid only (and `cleanup` is off for detached children), while a run must kill its whole group
 * and the tagged processes that left it.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { RUN_TAG_VAR, killRunNow, startTimeOf, terminateRun, type RunProcesses } from "./group.js";
import { dyingOfSignal, trackRun, untrackRun } from "./live.js";


export interface ProcessOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly input?: string | undefined;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal | undefined;
  /** Keep at most this many characters of stderr (the tail). @default 65536 */
  readonly stderrLimit?: number;
  /**
   * Called once, in the same tick as the spawn (before the child can have done anything this
   * process sees): work that must hold before the child talks to us but need not delay its start.
   * `false` kills the child's processes at once; the result then says so only through its exit.
   */
  readonly onSpawn?: (() => boolean) | undefined;
}

export interface ProcessResult {
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Aborted through `signal`. */
  readonly aborted: boolean;
  readonly durationMs: number;
  /** The spawn itself failed (ENOENT, EACCES …). */
  readonly spawnError?: Error;
}

/** Run a command to completion or until the timeout, then make sure no process it started is left. */
export function runProcess(command: string, args: readonly string[], options: ProcessOptions): Promise<ProcessResult> {
  const started = performance.now();
  const limit = options.stderrLimit ?? 65_536;
  return new Promise((resolve) => {
    const tag = randomBytes(8).toString("hex");
    const child = spawn(command, args, { cwd: options.cwd, env: { ...options.env, [RUN_TAG_VAR]: tag }, detached: true, stdio: ["pipe", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    let stderr = "";
    let timedOut = false;
    let aborted = false;
    let spawnError: Error | undefined;
    let settled = false;
    const pid = child.pid;
    // The leader's start time, read now while it is certainly there, lets the sweeps after the run skip every older process.
    const group: RunProcesses | undefined = pid === undefined ? undefined : { pgid: pid, tag, since: startTimeOf(pid) };
    if (group) trackRun(group);
    if (options.onSpawn?.() === false && group) killRunNow(group);

    let terminating: Promise<void> | undefined;
    const terminate = () => {
      if (group) terminating ??= terminateRun(group);
    };
    const timer = setTimeout(() => {
      timedOut = true;
      terminate();
    }, options.timeoutMs);
    const onAbort = () => {
      aborted = true;
      terminate();
    };
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (d: Buffer) => stdout.push(d));
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString("utf8");
      if (stderr.length > limit * 2) stderr = stderr.slice(-limit);
    });
    child.stdin.on("error", () => undefined); // the child may exit before reading its input
    child.stdin.end(options.input ?? "");

    const finish = async (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      const durationMs = performance.now() - started;
      if (group) {
        // Anything the run left behind (background commands, servers) goes with it: SIGTERM, then SIGKILL.
        await (terminating ?? terminateRun(group));
        untrackRun(group.pgid);
      }
      // The process is about to die of a signal: settling would only race its death with a rejection.
      if (dyingOfSignal()) return;
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: stderr.slice(-limit),
        timedOut,
        aborted,
        durationMs,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    child.once("error", (error) => {
      spawnError = error;
      void finish(null, null);
    });
    child.once("exit", (code, signal) => {
      // Grandchildren may still hold the pipes open; give the streams a moment, then stop waiting.
      const fallback = setTimeout(() => void finish(code, signal), 500);
      child.once("close", () => {
        clearTimeout(fallback);
        void finish(code, signal);
      });
    });
  });
}
