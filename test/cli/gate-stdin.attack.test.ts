/**
 * `proctor gate` under hostile stdin and stdout: every kind of descriptor, payloads at and past the
 * size cap, writers that stall or never end, signals while it polls, preloads and Node options that
 * change `process.binding`, and a stdout that cannot take the answer. Each verdict is compared with
 * an oracle: the same payload given at once to the ES-module CLI (`dist/cli/main.js`) and to the
 * bin's stream path (a preload that deletes `process.binding`). The gate must never allow, or stay
 * silent with exit 0, where the oracle denies; never hang, print a stack, or exit with anything
 * but 0 (an answer on stdout) or 2 (Claude Code blocks the call).
 */
import { execFileSync, spawn } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI, collectOutput, overSocket as socketRun, type ProcessOutcome } from "../helpers/cli.js";

const root = path.resolve(fileURLToPath(import.meta.url), "../../..");
const MAIN = path.join(root, "dist/cli/main.js");
const dir = mkdtempSync(path.join(tmpdir(), "proctor-gate-attack-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NO_BINDING = path.join(dir, "no-binding.cjs");
writeFileSync(NO_BINDING, "delete process.binding;\n");
const THROWING_BINDING = path.join(dir, "throwing-binding.cjs");
writeFileSync(THROWING_BINDING, 'process.binding = () => { throw new Error("no bindings here"); };\n');
const EMPTY_BINDING = path.join(dir, "empty-binding.cjs");
writeFileSync(EMPTY_BINDING, "process.binding = () => ({});\n");
/** Forwards to the real one, as a wrapper a tool installs would. */
const WRAPPED_BINDING = path.join(dir, "wrapped-binding.cjs");
writeFileSync(WRAPPED_BINDING, "const real = process.binding; process.binding = function (name) { return real.call(process, name); };\n");

const event = (tool: string, input: Record<string, unknown>) => JSON.stringify({ session_id: "s", hook_event_name: "PreToolUse", tool_name: tool, tool_input: input, tool_use_id: "t", cwd: dir });
const DENIED = event("Bash", { command: "rm -rf build" });
const ALLOWED = event("Bash", { command: "ls -la" });
const ARGS = ["gate", "--purity", "bounded", "--approve"];
const CAP = 8 << 20;

type Outcome = ProcessOutcome;
const collect = collectOutput;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;
const gateLine = (args: string[] = ARGS, preload: string[] = []) => [process.execPath, ...preload, CLI, ...args].map(quoted).join(" ");
const sh = (script: string, env: NodeJS.ProcessEnv = process.env) => collect(spawn("sh", ["-c", script], { stdio: ["ignore", "pipe", "pipe"], env }));

let files = 0;
function fileOf(data: string | Buffer): string {
  const file = path.join(dir, `payload-${files++}`);
  writeFileSync(file, data);
  return file;
}

/** The oracle: the payload at once, as a regular file, to the ES-module CLI; the bin's stream path must agree. */
const oracles = new Map<string, Outcome>();
async function oracle(payload: string | Buffer, args: string[] = ARGS): Promise<Outcome> {
  const key = `${args.join(" ")}\0${payload.toString()}`;
  const known = oracles.get(key);
  if (known) return known;
  const file = fileOf(payload);
  const fromMain = await sh(`${[process.execPath, MAIN, ...args].map(quoted).join(" ")} < ${quoted(file)}`);
  const fromStream = await sh(`cat ${quoted(file)} | ${gateLine(args, ["--require", NO_BINDING])}`);
  expect(fromStream).toEqual(fromMain);
  oracles.set(key, fromMain);
  return fromMain;
}

/** The gate with a socket for stdin, `pieces` written with `pauseMs` between them, then half-closed. */
function overSocket(pieces: (string | Buffer)[], pauseMs: number, options: { args?: string[]; preload?: string[]; env?: NodeJS.ProcessEnv } = {}): Promise<Outcome> {
  return socketRun(options.args ?? ARGS, pieces, pauseMs, options);
}

/** One line on stderr, no stack frames, exit 2, nothing on stdout: the call is blocked. */
function expectBlocked(outcome: Outcome, message: RegExp) {
  expect(outcome.stdout).toBe("");
  expect(outcome.code, outcome.stderr).toBe(2);
  expect(outcome.stderr).toMatch(message);
  expect(outcome.stderr).not.toMatch(/\n\s+at |node:internal|Node\.js v/);
  expect(outcome.stderr.trimEnd().split("\n")).toHaveLength(1);
}

/** What a caller makes of an outcome: deny/ask/allow from stdout at exit 0, "block" at exit 2, "none" for silence at 0, else "fail-open". */
function verdictOf(outcome: Outcome): string {
  if (outcome.code === 2) return "block";
  if (outcome.code !== 0) return "fail-open";
  if (outcome.stdout === "") return "none";
  return (JSON.parse(outcome.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;
}

describe("proctor gate under hostile stdin", () => {
  let deny: Outcome;
  let allow: Outcome;
  beforeAll(async () => {
    deny = await oracle(DENIED);
    allow = await oracle(ALLOWED);
    expect(verdictOf(deny)).toBe("deny");
    expect(verdictOf(allow)).toBe("allow");
  });

  it("stdin closed, a directory, /dev/null: exit 2 with one line, no stack", async () => {
    for (const redirect of ["<&-", "< /", "< /dev/null"]) {
      expectBlocked(await sh(`${gateLine()} ${redirect}`), /^proctor gate: error \[INVALID_INPUT\] stdin is not JSON/);
    }
  });

  it("/dev/zero and /dev/urandom as a character device, a pipe, a FIFO and a socket: exit 2 (too large), no stack", async () => {
    const fifo = path.join(dir, "endless.fifo");
    execFileSync("mkfifo", [fifo]);
    for (const source of ["/dev/zero", "/dev/urandom"]) {
      const tooLarge = /^proctor gate: error \[INVALID_INPUT\] stdin holds more than 8 MiB/;
      expectBlocked(await sh(`${gateLine()} < ${source}`), tooLarge);
      expectBlocked(await sh(`cat ${source} | ${gateLine()}`), tooLarge);
      expectBlocked(await sh(`cat ${source} > ${quoted(fifo)} & ${gateLine()} < ${quoted(fifo)}; r=$?; kill $! 2>/dev/null; wait; exit $r`), tooLarge);
      const child = spawn(process.execPath, [CLI, ...ARGS], { stdio: ["pipe", "pipe", "pipe"] });
      const done = collect(child);
      child.stdin.on("error", () => undefined);
      const chunk = execFileSync("head", ["-c", String(1 << 20), source]);
      for (let i = 0; i < 9 && child.exitCode === null; i++) {
        await new Promise((r) => child.stdin.write(chunk, r));
      }
      expectBlocked(await done, tooLarge);
      child.stdin.destroy();
    }
  }, 30_000);

  it("exactly at the 8 MiB cap: the oracle's answer over a file, a pipe, a socket and the stream path; one byte more: exit 2", async () => {
    const atCap = Buffer.alloc(CAP, 0x20);
    Buffer.from(DENIED).copy(atCap);
    const overCap = Buffer.concat([atCap, Buffer.from(" ")]);
    const expected = await oracle(atCap);
    expect(expected).toEqual(deny);
    const atFile = fileOf(atCap);
    const overFile = fileOf(overCap);
    for (const [file, check] of [
      [atFile, (o: Outcome) => expect(o).toEqual(deny)],
      [overFile, (o: Outcome) => expectBlocked(o, /stdin holds more than 8 MiB/)],
    ] as const) {
      check(await sh(`${gateLine()} < ${quoted(file)}`));
      check(await sh(`cat ${quoted(file)} | ${gateLine()}`));
      check(await sh(`cat ${quoted(file)} | ${gateLine(ARGS, ["--require", NO_BINDING])}`));
    }
    expect(await overSocket([atCap.subarray(0, 3 << 20), atCap.subarray(3 << 20)], 20)).toEqual(deny);
    expectBlocked(await overSocket([overCap], 0), /stdin holds more than 8 MiB/);
  }, 30_000);

  it("any cutting of a payload with multi-byte characters, even inside a character, gets the oracle's answer", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: "grapheme", minLength: 1, maxLength: 12 }),
        fc.constantFrom("rm -rf ", "ls ", "echo "),
        fc.array(fc.nat(), { maxLength: 5 }),
        fc.constantFrom(0, 7),
        async (word, program, cuts, pause) => {
          const text = Buffer.from(event("Bash", { command: `${program}'${word.replaceAll("'", "")}'` }));
          const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const pieces = [...at, text.length].map((c, i) => text.subarray(i === 0 ? 0 : (at[i - 1] ?? 0), c)).filter((p) => p.length > 0);
          expect(await overSocket(pieces, pause)).toEqual(await oracle(text));
        },
      ),
      { numRuns: 6 },
    );
  }, 60_000);

  it("a large payload from a writer that is not instant is read in time (the poll speeds up again once data comes)", async () => {
    // Close to the cap, written 64 KiB at a time with a pause: a poll that stayed at its longest
    // pause would need ~2.6 s for it, past this deadline; the stream path takes well under a second.
    const big = Buffer.alloc(CAP - 4096, 0x20);
    Buffer.from(event("Write", { file_path: "x.txt", content: "y".repeat(1000) })).copy(big);
    const args = ["gate", "--purity", "unrestricted", "--approve", "--deadline-ms", "2000"];
    const expected = await oracle(big, args);
    expect(verdictOf(expected)).toBe("allow");
    const writer = `const b = require("node:fs").readFileSync(process.argv[1]); let o = 0; const step = () => { if (o >= b.length) return; process.stdout.write(b.subarray(o, o + 65536), () => setTimeout(step, 1)); o += 65536; }; step();`;
    const script = `${[process.execPath, "-e", writer, fileOf(big)].map(quoted).join(" ")} | ${gateLine(args)}`;
    expect(await sh(script)).toEqual(expected);
  }, 30_000);

  it("a writer that stalls just under the 5 s read deadline gets the oracle's answer; just over, exit 2 at the deadline", async () => {
    const [head, tail] = [DENIED.slice(0, 25), DENIED.slice(25)];
    const stall = (seconds: number) => sh(`{ printf '%s' ${quoted(head)}; sleep ${seconds}; printf '%s' ${quoted(tail)}; } | ${gateLine()}`);
    const started = Date.now();
    const [under, over] = await Promise.all([stall(4.2), stall(6.5)]);
    expect(under).toEqual(deny);
    expectBlocked(over, /stdin did not end within 5 s/);
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it("signals that Node ignores or handles (SIGWINCH, SIGCHLD, SIGURG, SIGPIPE) sent while it polls change nothing", async () => {
    const child = spawn(process.execPath, [CLI, ...ARGS], { stdio: ["pipe", "pipe", "pipe"] });
    const done = collect(child);
    child.stdin.write(DENIED.slice(0, 30));
    await sleep(150);
    for (let i = 0; i < 40; i++) {
      for (const signal of ["SIGWINCH", "SIGCHLD", "SIGURG", "SIGPIPE"] as const) child.kill(signal);
      await sleep(5);
    }
    child.stdin.end(DENIED.slice(30));
    expect(await done).toEqual(deny);
  });

  it("sixteen gates at once, each with its payload in pieces, all answer as the oracle", async () => {
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => overSocket([(i % 2 ? ALLOWED : DENIED).slice(0, 17 + i), (i % 2 ? ALLOWED : DENIED).slice(17 + i)], 30)));
    for (const [i, o] of outcomes.entries()) expect(o).toEqual(i % 2 ? allow : deny);
  }, 60_000);

  it("restores stdin's blocking mode for the next program in the shell, after a deadline deny (exit 0, and exit 2 when it cannot be written)", async () => {
    // The shell's stdin is a socket kept open (never ends): the gate times out on it.
    for (const gate of [`${gateLine([...ARGS, "--deadline-ms", "400"])} >/dev/null 2>&1`, `${gateLine([...ARGS, "--deadline-ms", "400"])} >/dev/full 2>/dev/null`]) {
      const child = spawn("sh", ["-c", `${gate}; grep flags /proc/self/fdinfo/0`], { stdio: ["pipe", "pipe", "pipe"] });
      const done = collect(child);
      child.stdin.write(DENIED.slice(0, 10));
      const outcome = await done;
      child.stdin.destroy();
      const flags = Number.parseInt(/flags:\s+(\d+)/.exec(outcome.stdout)?.[1] ?? "x", 8);
      expect(Number.isNaN(flags), outcome.stderr).toBe(false);
      expect(flags & constants.O_NONBLOCK).toBe(0);
    }
  });

  it("a preload that deletes, breaks, empties or wraps process.binding: the oracle's answer", async () => {
    for (const preload of [NO_BINDING, THROWING_BINDING, EMPTY_BINDING, WRAPPED_BINDING]) {
      expect({ preload, ...(await overSocket([DENIED.slice(0, 40), DENIED.slice(40)], 30, { preload: ["--require", preload] })) }).toEqual({ preload, ...deny });
      expect({ preload, ...(await overSocket([ALLOWED], 0, { preload: ["--require", preload] })) }).toEqual({ preload, ...allow });
    }
  });

  it("--deadline-ms past a Node timer's range is refused (it fired after 1 ms, denying a payload that came in pieces, with a warning on stderr)", async () => {
    const refused = await overSocket([ALLOWED.slice(0, 20), ALLOWED.slice(20)], 50, { args: [...ARGS, "--deadline-ms", "3000000000"] });
    // The refusal and the usage line.
    expectBlocked({ ...refused, stderr: refused.stderr.replace(/\nusage: .*\n$/, "\n") }, /^proctor gate: error \[INVALID_INPUT\] --deadline-ms must be a positive whole number of milliseconds, at most 2147483647/);
    expect(await overSocket([ALLOWED.slice(0, 20), ALLOWED.slice(20)], 50, { args: [...ARGS, "--deadline-ms", "2147483647"] })).toEqual(allow);
  });

  it("NODE_OPTIONS=--pending-deprecation (with or without --throw-deprecation): the oracle's answer, exit 0, nothing on stderr", async () => {
    for (const options of ["--pending-deprecation", "--pending-deprecation --throw-deprecation"]) {
      const env = { ...process.env, NODE_OPTIONS: options };
      expect({ options, ...(await overSocket([DENIED], 0, { env })) }).toEqual({ options, ...deny });
      expect({ options, ...(await sh(`cat ${quoted(fileOf(ALLOWED))} | ${gateLine()}`, env)) }).toEqual({ options, ...allow });
    }
  });
});

describe("proctor gate when stdout cannot take the answer", () => {
  const cannotDeliver = /^proctor gate: error \[RUN_FAILED\] the answer \(deny: .*\) cannot be delivered/;
  const denyFile = fileOf(DENIED);

  it("stdout closed, /dev/full, or a reader already gone: a deny is exit 2 with its reason on stderr, never exit 0 in silence", async () => {
    for (const script of [
      `${gateLine()} < ${quoted(denyFile)} >&-`,
      `${gateLine()} < ${quoted(denyFile)} > /dev/full`,
      `${gateLine()} < ${quoted(denyFile)} > /dev/null`,
      // The reader exits before the gate writes: EPIPE.
      `{ sleep 0.3; ${gateLine()} < ${quoted(denyFile)}; echo "exit $?" >&2; } | true`,
    ]) {
      const outcome = await sh(script);
      const exit = /exit (\d+)/.exec(outcome.stderr)?.[1];
      expectBlocked(exit === undefined ? outcome : { ...outcome, code: Number(exit), stderr: outcome.stderr.replace(/exit \d+\n$/, "") }, cannotDeliver);
      expect(outcome.stderr).toContain("[purity bounded]");
    }
  });

  it("the deadline's deny, with stdout on /dev/full or a reader gone: exit 2, no stack (it was an uncaught throw, exit 1)", async () => {
    const late = (out: string) => sh(`{ sleep 2; } | ${gateLine([...ARGS, "--deadline-ms", "300"])} ${out}`);
    const [full, closed, gone] = await Promise.all([late("> /dev/full"), late(">&-"), sh(`{ sleep 2; } | { ${gateLine([...ARGS, "--deadline-ms", "300"])}; echo "exit $?" >&2; } | true`)]);
    for (const outcome of [full, closed]) expectBlocked(outcome, /^proctor gate: error \[RUN_FAILED\] the answer \(deny: proctor gate: no decision within 300 ms/);
    expect(gone.stderr).toMatch(/RUN_FAILED.*EPIPE.*\nexit 2\n$/);
    expect(gone.stderr).not.toMatch(/\n\s+at /);
  });

  it("stderr on a full disk (/dev/full): a refusal keeps exit 2, a deny that cannot be delivered too, an ignored event exit 0 (an unhandled stderr error was exit 1: the call went through)", async () => {
    const notJson = await sh(`echo nope | ${gateLine()} 2>/dev/full`);
    expect(notJson).toEqual({ code: 2, signal: null, stdout: "", stderr: "" });
    expect(await sh(`${gateLine()} < ${quoted(denyFile)} >/dev/full 2>/dev/full`)).toEqual({ code: 2, signal: null, stdout: "", stderr: "" });
    expect(await sh(`echo '{"hook_event_name":"PostToolUse"}' | ${gateLine()} 2>/dev/full`)).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
    expect(await sh(`${gateLine()} < ${quoted(denyFile)} 2>/dev/full`)).toEqual(await oracle(DENIED));
  });

  it("a reader that takes one byte and closes (| head -c 1) still saw the answer begin; exit 0", async () => {
    const outcome = await sh(`{ ${gateLine()} < ${quoted(denyFile)}; echo "exit $?" >&2; } | head -c 1`);
    expect(outcome).toEqual({ code: 0, signal: null, stdout: "{", stderr: "exit 0\n" });
  });

  it("an allow to a closed stdout is only silence (no grant): exit 0", async () => {
    const read = event("Read", { file_path: "/a" });
    expect(await sh(`${gateLine()} < ${quoted(fileOf(read))} >&-`)).toEqual({ code: 0, signal: null, stdout: "", stderr: "" });
  });

  it("a confined allow to a closed stdout blocks (exit 2): silence would run the command unconfined", async () => {
    expectBlocked(await sh(`${gateLine()} < ${quoted(fileOf(ALLOWED))} >&-`), /^proctor gate: error \[RUN_FAILED\] the answer \(allow \(confined\): .*stdout is closed or \/dev\/null/);
  });

  /**
   * stdout a FIFO whose open file is non-blocking and already full (its writer shares the
   * description): the answer's first write gets EAGAIN and goes through `process.stdout`.
   */
  async function toFullStdout(afterMs: number, then: "drain" | "close" | "never", args: string[] = ARGS) {
    const fifo = path.join(dir, `out-${files++}.fifo`);
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
    const block = Buffer.alloc(4096, 0x2e);
    for (;;) {
      try {
        writeSync(writer, block);
      } catch {
        break;
      }
    }
    const child = spawn("sh", ["-c", `exec ${gateLine(args)} < ${quoted(denyFile)} >&3 3>&-`], { stdio: ["ignore", "ignore", "pipe", writer] });
    closeSync(writer);
    const done = collect(child);
    await sleep(afterMs);
    let received = Buffer.alloc(0);
    const drain = () => {
      const buffer = Buffer.alloc(1 << 16);
      for (;;) {
        try {
          const n = readSync(reader, buffer);
          if (n === 0) return;
          received = Buffer.concat([received, buffer.subarray(0, n)]);
        } catch {
          return;
        }
      }
    };
    if (then === "close") closeSync(reader);
    if (then === "drain") {
      while (child.exitCode === null) {
        drain();
        await sleep(10);
      }
      drain();
    }
    const outcome = await done;
    if (then !== "close") closeSync(reader);
    return { outcome, answer: received.toString().replace(/^\.+/, "") };
  }

  it("a full non-blocking stdout that drains later: the oracle's answer, in one piece", async () => {
    const deny = await oracle(DENIED);
    const { outcome, answer } = await toFullStdout(300, "drain");
    expect({ code: outcome.code, stderr: outcome.stderr, answer }).toEqual({ code: 0, stderr: "", answer: deny.stdout });
  });

  it("a full non-blocking stdout whose reader closes without reading: exit 2, not exit 0 in silence", async () => {
    const { outcome } = await toFullStdout(300, "close");
    expectBlocked({ ...outcome, stdout: "" }, cannotDeliver);
  });

  it("a full non-blocking stdout that is never read: exit 2 at the deadline, not a hang", async () => {
    const { outcome } = await toFullStdout(0, "never", [...ARGS, "--deadline-ms", "1500"]);
    expectBlocked({ ...outcome, stdout: "" }, /the answer \(deny: proctor gate: no decision within 1500 ms.*still waiting for stdout/);
  }, 30_000);
});
