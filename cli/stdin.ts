/**
 * All of stdin, within a size cap and a deadline, for a command that runs once per tool call
 * (`proctor gate`): a hook's payload is already waiting when the process starts, so it is read
 * synchronously where that cannot block, and nothing of Node's stream stack is loaded for it
 * (`process.stdin` costs ~6 ms of module loading before the first byte; a hook runs before every
 * tool call).
 *
 * - A regular file is read straight through: it cannot block.
 * - A pipe or a socket (Claude Code gives hooks a socket) is switched to non-blocking mode and read
 *   until it would block; then it is polled on a timer, so the deadline still fires. Blocking
 *   reads are never made on a pipe: a writer that never closes would hang the process past any
 *   deadline, and a hook that hangs until its caller's timeout lets the call through.
 * - Anything else (a terminal, a character device), or a Node without the handle this needs, goes
 *   through `process.stdin`, as any Node program reads it.
 */
import { fstatSync, readSync } from "node:fs";

/** Why the read stopped short: the caller words the error for its own input. */
export type StdinFailure = { kind: "too-large" } | { kind: "timeout" } | { kind: "tty" } | { kind: "error"; message: string };

export type StdinOutcome = { data: Buffer } | { failure: StdinFailure };

const CHUNK = 64 * 1024;
/** The longest pause between two polls of a pipe whose writer is slow. */
const MAX_POLL_MS = 20;

/** All of stdin, or why not: more than `maxBytes`, no end within `deadlineMs`, a terminal, a read error. */
export function readStdinWithin(maxBytes: number, deadlineMs: number): Promise<StdinOutcome> {
  let kind: "file" | "pipe" | "other";
  try {
    const stat = fstatSync(0);
    kind = stat.isFile() ? "file" : stat.isFIFO() || stat.isSocket() ? "pipe" : "other";
  } catch {
    kind = "other"; // No stdin at all (closed): process.stdin says what Node makes of that.
  }
  if (kind === "file") return Promise.resolve(readFile(maxBytes));
  if (kind === "pipe" && setNonBlocking()) return pollPipe(maxBytes, deadlineMs);
  return readStream(maxBytes, deadlineMs);
}

function readFile(maxBytes: number): StdinOutcome {
  const reader = new Collector(maxBytes);
  for (;;) {
    let outcome: StdinOutcome | "more";
    try {
      outcome = reader.readOnce();
    } catch (error) {
      return { failure: { kind: "error", message: (error as Error).message } };
    }
    if (outcome !== "more") return outcome;
  }
}

/** Reads whatever is there at each poll; the first poll runs at once, so a waiting payload costs no timer. */
function pollPipe(maxBytes: number, deadlineMs: number): Promise<StdinOutcome> {
  const reader = new Collector(maxBytes);
  const started = Date.now();
  return new Promise((resolve) => {
    let pause = 1;
    const poll = () => {
      for (;;) {
        let outcome: StdinOutcome | "more";
        try {
          outcome = reader.readOnce();
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === "EAGAIN" || code === "EWOULDBLOCK" || code === "EINTR") break;
          resolve({ failure: { kind: "error", message: (error as Error).message } });
          return;
        }
        if (outcome !== "more") {
          resolve(outcome);
          return;
        }
        // Data came: the writer is at work, so the next poll is soon (a big payload through a
        // 64 KiB pipe is 128 polls; at the longest pause that would be 2.5 s).
        pause = 1;
      }
      const left = deadlineMs - (Date.now() - started);
      if (left <= 0) {
        resolve({ failure: { kind: "timeout" } });
        return;
      }
      setTimeout(poll, Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_POLL_MS);
    };
    poll();
  });
}

/** Chunks read so far, within the cap. */
class Collector {
  private readonly chunks: Buffer[] = [];
  private size = 0;
  private buffer = Buffer.allocUnsafe(CHUNK);
  constructor(private readonly maxBytes: number) {}

  /** One read(2) of fd 0: the whole input at its end, a failure past the cap, else "more". Throws what read(2) throws. */
  readOnce(): StdinOutcome | "more" {
    const n = readSync(0, this.buffer, 0, this.buffer.length, null);
    if (n === 0) return { data: this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks, this.size) };
    this.size += n;
    if (this.size > this.maxBytes) return { failure: { kind: "too-large" } };
    this.chunks.push(this.buffer.subarray(0, n));
    this.buffer = this.buffer.subarray(n);
    if (this.buffer.length === 0) this.buffer = Buffer.allocUnsafe(CHUNK);
    return "more";
  }
}

/**
 * Puts stdin in non-blocking mode through the handle Node's own `net` opens pipes with (libuv's
 * `uv_pipe_open` sets O_NONBLOCK; Node restores the flag at exit). Node has no public call for the
 * flag alone, and loading `net` for it would cost what this module is here to save; where the
 * handle is not to be had, `false`, and stdin is read as a stream.
 */
function setNonBlocking(): boolean {
  try {
    type PipeWrap = { Pipe?: new (type: number) => { open(fd: number): number }; constants?: { SOCKET?: unknown } };
    // `process.binding` is deprecated (DEP0111): under --pending-deprecation it warns on stderr,
    // and with --throw-deprecation too the warning is thrown on the next tick, after the answer
    // (exit 1, which lets the call through). Asked quietly; the warning is about this line, not
    // the user's code.
    const quiet = process.noDeprecation;
    process.noDeprecation = true;
    let binding: PipeWrap | undefined;
    try {
      binding = (process as unknown as { binding?: (name: string) => PipeWrap }).binding?.("pipe_wrap");
    } finally {
      if (quiet === undefined) delete process.noDeprecation;
      else process.noDeprecation = quiet;
    }
    if (typeof binding?.Pipe !== "function" || typeof binding.constants?.SOCKET !== "number") return false;
    const handle = new binding.Pipe(binding.constants.SOCKET);
    if (handle.open(0) !== 0) return false;
    // Kept for the process's life: closing it would close fd 0.
    keptHandles.push(handle);
    return true;
  } catch {
    return false;
  }
}
const keptHandles: unknown[] = [];

/** `process.stdin` as a stream, within the cap and the deadline. */
function readStream(maxBytes: number, deadlineMs: number): Promise<StdinOutcome> {
  if (process.stdin.isTTY) return Promise.resolve({ failure: { kind: "tty" } });
  const stdin = process.stdin;
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (outcome: StdinOutcome) => {
      clearTimeout(timer);
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      stdin.off("error", onError);
      // Stop reading: whatever is still coming is not looked at, and the process may exit.
      if ("failure" in outcome) stdin.destroy();
      resolve(outcome);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) done({ failure: { kind: "too-large" } });
      else chunks.push(chunk);
    };
    const onEnd = () => done({ data: Buffer.concat(chunks, size) });
    const onError = (error: Error) => done({ failure: { kind: "error", message: error.message } });
    const timer = setTimeout(() => done({ failure: { kind: "timeout" } }), deadlineMs);
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    stdin.once("error", onError);
  });
}
