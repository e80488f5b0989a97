/**
 * Bad input to the CLI, as a user would give it: `/dev/zero`, a 100 MB single line, a stdin that
 * never ends, JSON nested 100 000 deep, an empty report array. Each ends quickly in a clear error
 * (exit 2) with bounded memory — peak RSS is read from the process itself — and no stack trace.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { describeUnexpected } from "../../cli/errors.js";
import { CLI } from "../helpers/cli.js";

/** Prints the process's peak RSS (KiB) on stderr as it exits. */
const PEAK_RSS = `data:text/javascript,process.on("exit",()=>process.stderr.write("peak-rss-kib="+process.resourceUsage().maxRSS+"\\n"))`;
/** Far above a bounded read (~100 MiB), far below reading the whole input (the 100 MB line, /dev/zero's gigabytes). */
const BOUND_KIB = 400 * 1024;

interface Outcome {
  code: number | null;
  stderr: string;
  peakKib: number;
}

/** Run the built CLI with stdin from `stdin` (a file path, or "open": a pipe that is never written or closed). */
function run(args: string[], stdin: string | "open" | undefined = undefined): Promise<Outcome> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", PEAK_RSS, CLI, ...args], { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    if (stdin === undefined) child.stdin.end();
    else if (stdin !== "open") {
      import("node:fs").then(({ createReadStream }) => createReadStream(stdin).on("error", () => undefined).pipe(child.stdin).on("error", () => undefined));
    }
    child.on("close", (code) => {
      const peak = /peak-rss-kib=(\d+)/.exec(stderr);
      child.stdin.destroy();
      resolve({ code, stderr: stderr.replace(/peak-rss-kib=\d+\n/, ""), peakKib: peak ? Number(peak[1]) : Infinity });
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), "proctor-cli-bounded-"));
const bigLine = path.join(dir, "big-line.jsonl");
const deep = path.join(dir, "deep.json");
const emptyReports = path.join(dir, "empty.json");
beforeAll(() => {
  writeFileSync(bigLine, Buffer.alloc(100 * 1024 * 1024, "x"));
  const nest = `${"[".repeat(100_000)}${"]".repeat(100_000)}`;
  writeFileSync(deep, `{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","x":${nest}}}\n`);
  writeFileSync(emptyReports, "[]\n");
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One line of error (plus the detail lines the error carries), never a stack frame. */
function expectCleanError(o: Outcome, first: RegExp): void {
  expect(o.code, o.stderr).toBe(2);
  expect(o.stderr.split("\n")[0]).toMatch(first);
  expect(o.stderr).not.toMatch(/^\s+at /m);
}

describe.runIf(process.platform === "linux")("bounded inputs (built CLI)", () => {
  it.each([
    ["/dev/zero", "/dev/zero"],
    ["a 100 MB single line", bigLine],
  ])("proctor trace of %s stops at the line cap with bounded memory", async (_, file) => {
    const o = await run(["trace", file]);
    expectCleanError(o, new RegExp(`^proctor trace: error \\[[A-Z_]+\\] transcript ${file}: line 1 is longer than 32 MiB; reading stopped there$`));
    expect(o.peakKib).toBeLessThan(BOUND_KIB);
  });

  it.each([
    ["/dev/zero", "/dev/zero"],
    ["a 100 MB single line", bigLine],
  ])("proctor gate < %s denies (exit 2) at the size cap with bounded memory", async (_, file) => {
    const o = await run(["gate", "--purity", "bounded"], file);
    expectCleanError(o, /^proctor gate: error \[[A-Z_]+\] stdin holds more than 8 MiB; a PreToolUse hook payload is far smaller — denied/);
    expect(o.peakKib).toBeLessThan(BOUND_KIB);
  });

  it.each([
    ["check", ["check", "test/fixtures/transcripts/edit-write-bash-fail.jsonl", "--checks", "/dev/zero"], /^proctor check: error \[[A-Z_]+\] cannot read checks file \/dev\/zero: it is larger than 64 MiB$/],
    ["merge", ["merge", "/dev/zero"], /^proctor merge: error \[[A-Z_]+\] cannot read \/dev\/zero: it is larger than 64 MiB$/],
    ["baseline", ["baseline", "--check", "/dev/zero", "/dev/zero"], /^proctor baseline: error \[[A-Z_]+\] cannot read the report \/dev\/zero: it is larger than 64 MiB$/],
    ["show", ["show", "/dev/zero"], /^proctor show: error \[[A-Z_]+\] cannot read \/dev\/zero: line 1 is longer than 32 MiB$/],
  ])("proctor %s of /dev/zero stops at a cap with bounded memory", async (_, args, first) => {
    const o = await run(args);
    expectCleanError(o, first);
    expect(o.peakKib).toBeLessThan(BOUND_KIB);
  });

  it("proctor gate denies (exit 2) when stdin never ends", async () => {
    const o = await run(["gate", "--purity", "bounded"], "open");
    expectCleanError(o, /^proctor gate: error \[[A-Z_]+\] stdin did not end within 5 s; denied/);
  });

  it("proctor gate denies JSON nested 100 000 deep; proctor trace reports the line and reads the rest", async () => {
    expectCleanError(await run(["gate", "--purity", "bounded"], deep), /^proctor gate: error \[[A-Z_]+\] the hook input on stdin nests deeper than 512 levels \(at character \d+\)/);
    const t = await run(["trace", deep]);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stderr).toBe(`proctor trace: ${deep}: line 1 is not JSON (it nests deeper than 512 levels); skipped, the rest was read\n`);
  });

  it("proctor merge, baseline and check name a report or checks file nested 100 000 deep", async () => {
    const nest = path.join(dir, "nest.json");
    writeFileSync(nest, `${"[".repeat(100_000)}${"]".repeat(100_000)}`);
    expectCleanError(await run(["merge", nest]), /^proctor merge: error \[[A-Z_]+\] the report .*nest\.json nests deeper than 512 levels \(at character 512\)/);
    expectCleanError(await run(["baseline", "--check", nest, nest]), /^proctor baseline: error \[[A-Z_]+\] the report .*nest\.json nests deeper than 512 levels/);
    expectCleanError(await run(["check", "test/fixtures/transcripts/edit-write-bash-fail.jsonl", "--checks", nest]), /^proctor check: error \[[A-Z_]+\] checks file .*nest\.json nests deeper than 512 levels/);
  });

  it("proctor merge of an empty report array says what to pass", async () => {
    expectCleanError(await run(["merge", emptyReports]), /^proctor merge: error \[[A-Z_]+\] .*empty\.json holds no reports \(an empty array\); pass the files `proctor run --json` wrote/);
  });

  it("--debug adds the stack; without it there is none", async () => {
    const plain = await run(["trace", path.join(dir, "missing.jsonl")]);
    expectCleanError(plain, /^proctor trace: error \[[A-Z_]+\] cannot read transcript .*missing\.jsonl: ENOENT$/);
    const debug = await run(["trace", path.join(dir, "missing.jsonl"), "--debug"]);
    expect(debug.code).toBe(2);
    expect(debug.stderr).toMatch(/^\s+at /m);
  });
});

describe("errors that are not proctor's own", () => {
  it("read as one line: runaway input in plain words, anything else as a bug to report", () => {
    expect(describeUnexpected(new RangeError("Maximum call stack size exceeded"), "check")).toBe(
      "proctor check: the input is too large or nests too deeply to process (Maximum call stack size exceeded); check the file you passed",
    );
    expect(describeUnexpected(new TypeError("x is undefined\n  more"), "merge")).toBe("proctor merge: internal error: TypeError: x is undefined — a bug in proctor; rerun with --debug for the stack and report it");
  });
});
