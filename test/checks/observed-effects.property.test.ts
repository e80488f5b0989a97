/**
 * The observation-based decision against a direct statement of its rule: effects are drawn from
 * pools whose every entry says, by hand, whether it is the call's own (scratch, machinery, named by
 * the command) — the oracle reads those labels, never the code's matchers.
 */
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { effects } from "../../src/index.js";
import { loadShellParser, purity } from "../../src/safety.js";
import type { ObservedEffect, Trace } from "../../src/trace/types.js";
import { makeTrace } from "../helpers/trace.js";

const TMP = "/trial/tmp";

/** Paths, each labelled: is a write there the call's own scratch? */
const PATHS: readonly { path: string | undefined; scratch: boolean }[] = [
  { path: undefined, scratch: true }, // an anonymous pipe
  { path: "/dev/null", scratch: true },
  { path: "/dev/tty", scratch: true },
  { path: "/dev/fd/1", scratch: true },
  { path: "/proc/self/fd/2", scratch: true },
  { path: "pipe:[4711]", scratch: true },
  { path: `${TMP}`, scratch: true },
  { path: `${TMP}/git-xyz`, scratch: true },
  { path: `${TMP}/claude-0/cwd-9f`, scratch: true },
  { path: "/tmp/claude-0/cwd-0a1b", scratch: true },
  { path: `${TMP}x/file`, scratch: false },
  { path: "/dev/nullz", scratch: false },
  { path: "/dev/sda", scratch: false },
  { path: "/work/a.txt", scratch: false },
  { path: "/work/.git/index", scratch: false },
  { path: "/work/.git/index.lock", scratch: false }, // but git's index refresh: written, removed, or renamed over its own index
  { path: "/work/.git/config.lock", scratch: false },
  { path: "/trial/home/.gitconfig", scratch: false },
  { path: "/etc/passwd", scratch: false },
  { path: "/tmp/marker", scratch: false },
  { path: "/proc/self/mem", scratch: false },
  { path: "/proc/4/task/5/comm", scratch: true },
  { path: "/proc/4/task/5/mem", scratch: false },
];

/** Programs, each with the names it goes by, and whether it is the Bash tool's own machinery. */
const PROGRAMS: readonly { path: string; argv0: string; names: string[]; machinery: boolean }[] = [
  { path: "/bin/bash", argv0: "/bin/bash", names: ["bash"], machinery: true },
  { path: "/bin/sh", argv0: "sh", names: ["sh"], machinery: true },
  { path: "/usr/bin/bwrap", argv0: "bwrap", names: ["bwrap"], machinery: true },
  { path: "/usr/bin/socat", argv0: "socat", names: ["socat"], machinery: true },
  { path: "/proc/self/fd/3", argv0: "/proc/self/fd/3", names: ["3"], machinery: true },
  { path: "/usr/bin/git", argv0: "git", names: ["git"], machinery: false },
  { path: "/usr/bin/cat", argv0: "cat", names: ["cat"], machinery: false },
  { path: "/usr/bin/less", argv0: "less", names: ["less"], machinery: false },
  { path: "/usr/bin/touch", argv0: "touch", names: ["touch"], machinery: false },
  { path: "/opt/claude/claude.exe", argv0: "rg", names: ["claude.exe", "rg"], machinery: false },
  { path: "/usr/bin/curl", argv0: "curl", names: ["curl"], machinery: false },
  { path: "/opt/claude/claude.exe", argv0: "ugrep", names: ["claude.exe", "ugrep"], machinery: false },
  { path: "/opt/claude/claude.exe", argv0: "bfs", names: ["claude.exe", "bfs"], machinery: false },
];

/** Read-only commands and the words they name (as written: each is a plain line of words). */
const COMMANDS: readonly { command: string; words: string[] }[] = [
  { command: "git status", words: ["git", "status"] },
  { command: "cat a.txt", words: ["cat", "a.txt"] },
  { command: "git log -1", words: ["git", "log", "-1"] },
  { command: "rg TODO", words: ["rg", "TODO"] },
  { command: "ls", words: ["ls"] },
  { command: "grep -rn x .", words: ["grep", "-rn", "x", ".", "ugrep"] }, // claude runs its ugrep for grep
  { command: "find . -name f", words: ["find", ".", "-name", "f", "bfs"] }, // and its bfs for find
];

const ADDRESSES: readonly { address: string; lookup: boolean }[] = [
  { address: "10.0.0.1:443", lookup: false },
  { address: "127.0.0.1:3128", lookup: false },
  { address: "unix:/run/docker.sock", lookup: false },
  { address: "unix:/run/nscd/socket", lookup: true },
  { address: "unix:/var/run/nscd/socket", lookup: true },
];

type Drawn =
  | { kind: "write-like"; k: ObservedEffect["kind"]; from: (typeof PATHS)[number]; to?: (typeof PATHS)[number] }
  | { kind: "exec"; program: (typeof PROGRAMS)[number] }
  | { kind: "connect"; at: (typeof ADDRESSES)[number] }
  | { kind: "signal" }
  | { kind: "refused"; from: (typeof PATHS)[number] };

const drawn: fc.Arbitrary<Drawn> = fc.oneof(
  fc.record({
    kind: fc.constant("write-like" as const),
    k: fc.constantFrom<ObservedEffect["kind"]>("write", "create", "delete", "chmod", "rmdir", "link"),
    from: fc.constantFrom(...PATHS),
  }),
  fc.record({ kind: fc.constant("write-like" as const), k: fc.constant<ObservedEffect["kind"]>("rename"), from: fc.constantFrom(...PATHS), to: fc.constantFrom(...PATHS) }),
  fc.record({ kind: fc.constant("exec" as const), program: fc.constantFrom(...PROGRAMS) }),
  fc.record({ kind: fc.constant("connect" as const), at: fc.constantFrom(...ADDRESSES) }),
  fc.constant({ kind: "signal" as const }),
  fc.record({ kind: fc.constant("refused" as const), from: fc.constantFrom(...PATHS) }),
);

function toEffect(d: Drawn, pid: number): ObservedEffect {
  switch (d.kind) {
    case "write-like":
      return { kind: d.k, syscall: "x", ...(d.from.path !== undefined ? { path: d.from.path } : {}), ...(d.to?.path !== undefined ? { to: d.to.path } : {}), pid };
    case "exec":
      return { kind: "exec", syscall: "execve", path: d.program.path, argv: [d.program.argv0], pid };
    case "connect":
      return { kind: "connect", syscall: "connect", address: d.at.address, pid };
    case "signal":
      return { kind: "signal", syscall: "kill", signal: "SIGKILL", target: 1, pid };
    case "refused":
      return { kind: "refused", syscall: "openat", ...(d.from.path !== undefined ? { path: d.from.path } : {}), errno: "EACCES", pid };
  }
}

/** The rule, stated directly over the labels: is this effect the call's own? */
function oracleOwn(d: Drawn, words: readonly string[]): boolean {
  switch (d.kind) {
    case "write-like":
      if (d.from.path === "/work/.git/index.lock") return d.k === "rename" ? d.to?.path === "/work/.git/index" : d.k === "write" || d.k === "create" || d.k === "delete";
      return d.from.scratch && (d.to === undefined || d.to.scratch);
    case "exec":
      return d.program.machinery || d.program.names.some((n) => words.includes(n));
    case "connect":
      return d.at.lookup;
    case "refused":
      // An attempt on the call's own scratch reaches nothing; any other refused attempt counts.
      return d.from.path !== undefined && d.from.path !== "" && d.from.scratch;
    default:
      return false;
  }
}

function observedTrace(command: string, list: readonly ObservedEffect[]): Trace {
  return makeTrace({
    calls: [{ name: "Bash", input: { command }, observed: list }],
    source: { kind: "harness", cwd: "/work" },
    outsideWrites: { sandbox: { on: true }, roots: [{ name: "$HOME", path: "/trial/home" }, { name: "$TMPDIR", path: TMP }], changes: [], uncovered: [] },
    observation: { mechanism: "strace", others: [], unattributed: [], gaps: [] },
  });
}

beforeAll(() => loadShellParser());

describe("observation-based decision (property, against the rule stated over labelled pools)", () => {
  it("purity(bounded) passes a read-only command exactly when every observed effect is its own", () => {
    fc.assert(
      fc.property(fc.constantFrom(...COMMANDS), fc.array(drawn, { maxLength: 6 }), ({ command, words }, list) => {
        const r = purity("bounded").eval(observedTrace(command, list.map((d, i) => toEffect(d, i + 1))));
        const expected = list.every((d) => oracleOwn(d, words));
        expect(r.pass, r.message).toBe(expected);
        expect(r.message).toContain(expected ? "observed: no effect" : "observed: ");
      }),
      { numRuns: 400 },
    );
  });

  it("effects() allows exactly the listed programs beyond the machinery, and no write or connection outside scratch", () => {
    fc.assert(
      fc.property(fc.array(drawn, { maxLength: 6 }), fc.subarray(["git", "cat", "less", "rg", "curl"]), (list, allowed) => {
        const r = effects("Bash", { writes: [], exec: allowed, connect: [] }).eval(observedTrace("x", list.map((d, i) => toEffect(d, i + 1))));
        const ok = list.every((d) => {
          if (d.kind === "exec") return d.program.machinery || d.program.names.some((n) => allowed.includes(n));
          if (d.kind === "connect") return d.at.lookup;
          if (d.kind === "write-like") return oracleOwn(d, []);
          return false;
        });
        expect(r.pass, r.message).toBe(ok);
      }),
      { numRuns: 400 },
    );
  });
});
