/** Run the built CLI as a user would (a real process), for CLI tests. */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { execa } from "execa";

/** The bin as package.json declares it: the file `npx proctor` runs. */
export const CLI = new URL(`../../${(JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { bin: { proctor: string } }).bin.proctor}`, import.meta.url).pathname;

export async function proctor(args: string[], options: { input?: string; cwd?: string; env?: Record<string, string> } = {}) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first (npm test does)`);
  return execa("node", [CLI, ...args], {
    reject: false,
    ...(options.input === undefined ? {} : { input: options.input }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
  });
}

/** A finished process's exit code, signal and whole output. */
export interface ProcessOutcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Collects `child`'s stdout and stderr until it closes. */
export function collectOutput(child: ChildProcess): Promise<ProcessOutcome> {
  return new Promise((resolve) => {
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d) => (stdout += d));
    child.stderr?.on("data", (d) => (stderr += d));
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * The built CLI run with `args`, a socket for stdin (Node's "pipe"), `pieces` written to it with
 * `pauseMs` between them, then closed: how Claude Code feeds a hook.
 */
export async function overSocket(args: readonly string[], pieces: readonly (string | Buffer)[], pauseMs: number, options: { preload?: readonly string[]; env?: NodeJS.ProcessEnv } = {}): Promise<ProcessOutcome> {
  const child = spawn(process.execPath, [...(options.preload ?? []), CLI, ...args], { stdio: ["pipe", "pipe", "pipe"], env: options.env ?? process.env });
  const done = collectOutput(child);
  child.stdin.on("error", () => undefined);
  for (const [i, piece] of pieces.entries()) {
    if (i > 0 && pauseMs > 0) await new Promise((r) => setTimeout(r, pauseMs));
    child.stdin.write(piece);
  }
  child.stdin.end();
  return done;
}
