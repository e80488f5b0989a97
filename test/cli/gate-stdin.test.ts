/**
 * `proctor gate` reads its payload from whatever stdin it is given, as a hook's caller gives it:
 * a socket (Claude Code, and any Node parent), an anonymous pipe (a shell pipeline), a FIFO, a
 * regular file — whole at once, in pieces with pauses between them, or through the stream path a
 * Node without the non-blocking handle takes. Each gets the same answer as the payload given at
 * once; a writer that never closes still ends in a deny at the deadline, and the descriptor's
 * blocking mode is as it was once the gate has exited.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { mkdtempSync, openSync, closeSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { CLI, collectOutput, overSocket as socketRun, type ProcessOutcome } from "../helpers/cli.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-gate-stdin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A preload that takes `process.binding` away, as a Node without it would be: stdin is then read as a stream. */
const NO_BINDING = path.join(dir, "no-binding.cjs");
writeFileSync(NO_BINDING, "delete process.binding;\n");

const ARGS = ["gate", "--purity", "bounded"];
const payload = (command: string) => JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command }, tool_use_id: "t", cwd: dir });
const DENIED = payload("rm -rf build");
const ALLOWED = payload("ls -la");

type Outcome = Omit<ProcessOutcome, "signal">;

/** The exit code and output (the signal is never asked here). */
async function collect(child: ChildProcess): Promise<Outcome> {
  const { code, stdout, stderr } = await collectOutput(child);
  return { code, stdout, stderr };
}

/** The gate with a socket for stdin (Node's "pipe"), `pieces` written with `pauseMs` between them, then closed. */
async function overSocket(pieces: string[], pauseMs: number, preload: string[] = []): Promise<Outcome> {
  const { code, stdout, stderr } = await socketRun(ARGS, pieces, pauseMs, { preload });
  return { code, stdout, stderr };
}

/** Cuts `text` at `cuts` (positions, any order, duplicates allowed). */
function piecesOf(text: string, cuts: number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let last = 0;
  for (const c of [...at, text.length]) {
    pieces.push(text.slice(last, c));
    last = c;
  }
  return pieces.filter((p) => p !== "");
}

describe("proctor gate reads stdin of every kind", () => {
  const reference = { denied: "", allowed: "" };

  it("a payload given at once over a socket: the reference answers", async () => {
    const denied = await overSocket([DENIED], 0);
    const allowed = await overSocket([ALLOWED], 0);
    expect(denied.code, denied.stderr).toBe(0);
    expect(denied.stdout).toContain('"permissionDecision":"deny"');
    // Allowed on the classifier's word, so confined: an allow with the command rewritten.
    expect({ ...allowed, stdout: "" }).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(allowed.stdout).toContain('"permissionDecision":"allow"');
    reference.denied = denied.stdout;
    reference.allowed = allowed.stdout;
  });

  it("the same answer when the payload comes in pieces with pauses (the non-blocking read polls)", async () => {
    expect(await overSocket(piecesOf(DENIED, [5, 40, 90]), 60)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
    // Nothing at all for a while, then everything.
    expect(await overSocket(["", DENIED], 150)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
  });

  it("the same answer for any cutting of the payload, with or without pauses", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 6 }), fc.constantFrom(0, 5, 30), fc.boolean(), async (cuts, pause, deny) => {
        const text = deny ? DENIED : ALLOWED;
        const outcome = await overSocket(piecesOf(text, cuts), pause);
        expect(outcome).toEqual({ code: 0, stdout: deny ? reference.denied : reference.allowed, stderr: "" });
      }),
      { numRuns: 12 },
    );
  }, 120_000);

  it("the same answer through the stream path, where Node has no non-blocking handle to offer", async () => {
    const preload = ["--require", NO_BINDING];
    expect(await overSocket([DENIED], 0, preload)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
    expect(await overSocket(piecesOf(DENIED, [7, 50]), 40, preload)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
  });

  it("the same answer from a shell pipeline, a FIFO with a slow writer, a regular file", async () => {
    const file = path.join(dir, "payload.json");
    writeFileSync(file, DENIED);
    const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
    const gate = `${quoted(process.execPath)} ${quoted(CLI)} ${ARGS.join(" ")}`;
    const sh = (script: string) => collect(spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "pipe"] }));
    expect(await sh(`cat ${quoted(file)} | ${gate}`)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
    expect(await sh(`${gate} < ${quoted(file)}`)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
    const fifo = path.join(dir, "payload.fifo");
    execFileSync("mkfifo", [fifo]);
    const [head, tail] = [DENIED.slice(0, 30), DENIED.slice(30)];
    const writer = sh(`{ printf '%s' ${quoted(head)}; sleep 0.2; printf '%s' ${quoted(tail)}; } > ${quoted(fifo)}`);
    expect(await sh(`${gate} < ${quoted(fifo)}`)).toEqual({ code: 0, stdout: reference.denied, stderr: "" });
    expect((await writer).code).toBe(0);
  });

  it("an empty stdin (/dev/null, a closed pipe) is not a payload: exit 2, no answer", async () => {
    const devNull = openSync("/dev/null", "r");
    const fromDevNull = collect(spawn(process.execPath, [CLI, ...ARGS], { stdio: [devNull, "pipe", "pipe"] }));
    closeSync(devNull);
    for (const outcome of [await fromDevNull, await overSocket([], 0)]) {
      expect(outcome.code).toBe(2);
      expect(outcome.stdout).toBe("");
      expect(outcome.stderr).toMatch(/^proctor gate: error \[INVALID_INPUT\] stdin is not JSON/);
    }
  });

  it("a writer that sends part and never closes gets a deny at the deadline, not a hang", async () => {
    const child = spawn(process.execPath, [CLI, ...ARGS, "--deadline-ms", "1500"], { stdio: ["pipe", "pipe", "pipe"] });
    const done = collect(child);
    child.stdin.write(DENIED.slice(0, 20));
    const started = Date.now();
    const outcome = await done;
    child.stdin.destroy();
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(outcome.code).toBe(0);
    expect(outcome.stdout).toContain('"permissionDecision":"deny"');
    expect(outcome.stdout).toContain("no decision within 1500 ms");
  });

  it("leaves stdin's blocking mode as it found it: a program after it in the same shell reads normally", async () => {
    const file = path.join(dir, "payload.json");
    writeFileSync(file, DENIED);
    const gate = `'${process.execPath}' '${CLI}' ${ARGS.join(" ")}`;
    // The gate and `grep flags` share the shell's stdin (one pipe): O_NONBLOCK is 04000 in the flags.
    const script = `${gate} >/dev/null; grep flags /proc/self/fdinfo/0`;
    const child = spawn("sh", ["-c", script], { stdio: ["pipe", "pipe", "pipe"] });
    const done = collect(child);
    child.stdin.end(DENIED);
    const outcome = await done;
    expect(outcome.code, outcome.stderr).toBe(0);
    const flags = Number.parseInt(/flags:\s+(\d+)/.exec(outcome.stdout)?.[1] ?? "x", 8);
    expect(Number.isNaN(flags)).toBe(false);
    expect(flags & 0o4000).toBe(0);
  });
});

