/**
 * Running a child in its own process group, so a timeout, an abort or the parent's exit kills
 * the whole tree (the CLI, its tools, hooks and MCP servers), never just the top process.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";

export interface ProcessOptions {
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly input?: string;
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** Keep at most this many characters of stderr (the tail). @default 65536 */
  readonly stderrLimit?: number;
}

export interface ProcessResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
  /** Aborted through `signal`. */
  readonly aborted: boolean;
  readonly durationMs: number;
  /** The spawn itself failed (ENOENT, EACCES …). */
  readonly spawnError?: Error;
}

/** Runs still alive (group leader pid → tag), killed if the parent exits first. */
const live = new Map<number, string>();
let exitHookInstalled = false;

function killGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once("exit", () => {
    for (const [pid, tag] of live) {
      killGroup(pid, "SIGKILL");
      killTagged(tag);
    }
  });
}

/** The variable every process of a run inherits, so strays that left its group can still be found. */
export const RUN_TAG_VAR = "PROCTOR_RUN_TAG";

/**
 * Kill every process whose environment carries this run's tag (Linux: /proc). Catches what a
 * group kill misses: tool commands the CLI starts in their own session, backgrounded jobs and
 * servers reparented to init once their parent exited.
 */
export function killTagged(tag: string): number {
  const needle = Buffer.from(`${RUN_TAG_VAR}=${tag}\0`);
  let killed = 0;
  for (let pass = 0; pass < 3; pass++) {
    let names: string[];
    try {
      names = readdirSync("/proc");
    } catch {
      return killed; // no /proc: the group kill is all there is
    }
    let found = 0;
    for (const name of names) {
      if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
      let environ: Buffer;
      try {
        environ = readFileSync(`/proc/${name}/environ`);
      } catch {
        continue;
      }
      if (!environ.includes(needle)) continue;
      try {
        process.kill(Number(name), "SIGKILL");
        found++;
      } catch {
        // already gone
      }
    }
    killed += found;
    if (found === 0) break;
  }
  return killed;
}

/** Grace between SIGTERM and SIGKILL when a tree is killed. */
const KILL_GRACE_MS = 1_000;

/** Run a command to completion or until the timeout, then make sure no process it started is left. */
export function runProcess(command: string, args: readonly string[], options: ProcessOptions): Promise<ProcessResult> {
  installExitHook();
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
    if (pid !== undefined) live.set(pid, tag);

    const terminate = () => {
      if (pid === undefined) return;
      killGroup(pid, "SIGTERM");
      setTimeout(() => killGroup(pid, "SIGKILL"), KILL_GRACE_MS).unref();
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

    const finish = (exitCode: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
      if (pid !== undefined) {
        // Anything the run left behind (background commands, servers) goes with it.
        killGroup(pid, "SIGKILL");
        live.delete(pid);
      }
      killTagged(tag);
      resolve({
        exitCode,
        signal,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: stderr.slice(-limit),
        timedOut,
        aborted,
        durationMs: performance.now() - started,
        ...(spawnError ? { spawnError } : {}),
      });
    };
    child.once("error", (error) => {
      spawnError = error;
      finish(null, null);
    });
    child.once("exit", (code, signal) => {
      // Grandchildren may still hold the pipes open; give the streams a moment, then stop waiting.
      const fallback = setTimeout(() => finish(code, signal), 500);
      child.once("close", () => {
        clearTimeout(fallback);
        finish(code, signal);
      });
    });
  });
}
