/**
 * Run health against recorded real runs of both supported claude versions (recordings/, made by
 * recordings/record.ts from recordings/scenarios.ts; each run's stream plus what the harness held it
 * to): every item fails on the runs that did not happen as designed and on nothing else. Healthy
 * runs that look unusual — async hooks, hooks cancelled at session end, background tasks, SessionEnd
 * hooks, deliberate denials that say "not found" — are healthy; hooks that did not run as designed
 * are unhealthy whatever exit code wrapped them, named with what they printed. Then the evidence
 * reader's table and properties, and the reader's `cancelledAtEnd` against a scan of the stream.
 */
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { hookProblem, startEvidence, wentAsync, type HookProblemKind } from "../../src/health/hook-health.js";
import { assessHealth, type HealthExpectations, type HealthItemName } from "../../src/health/run-health.js";
import { parseTranscript } from "../../src/trace/transcript.js";
import type { HookEvent, Trace } from "../../src/trace/types.js";
import { SCENARIOS } from "./recordings/scenarios.js";

const RECORDINGS = fileURLToPath(new URL("./recordings/", import.meta.url));
const VERSIONS = ["2.1.197", "2.1.332"];
const read = (version: string, name: string) => parseTranscript(readFileSync(`${RECORDINGS}${version}/${name}.jsonl`, "utf8"), { sourceKind: "harness" });

/** A recorded run as the harness judged it: its stream, what it was held to, and the errors the harness found beyond the stream. */
function judge(version: string, name: string) {
  const trace = read(version, name);
  const held = JSON.parse(readFileSync(`${RECORDINGS}${version}/${name}.held.json`, "utf8")) as { expected: HealthExpectations; errors: Trace["errors"] };
  return { trace, health: assessHealth({ ...trace, errors: [...trace.errors, ...held.errors] }, held.expected) };
}

/** What each recorded run must be judged: healthy, unhealthy on hooks-ok with this message, or unhealthy on exactly these items. */
const EXPECTED: Record<keyof typeof SCENARIOS, "healthy" | RegExp | readonly HealthItemName[]> = {
  plain: "healthy",
  "everyday-hooks": "healthy",
  "async-session-start": "healthy",
  "async-config-cancelled": "healthy",
  "async-config-finished": "healthy",
  "security-warnings-plugin": "healthy",
  "session-end-hooks": "healthy",
  "background-bash": "healthy",
  "deny-says-not-found": "healthy",
  "deny-json-says-not-found": "healthy",
  "mcp-server-connected": "healthy",
  "skill-and-agent-not-loaded": ["skills-loaded", "agents-loaded"],
  "plugin-not-loaded": ["plugins-loaded"],
  "mcp-server-failed": ["mcp-servers-connected"],
  "preamble-failed": ["model-asked", "script-consumed"],
  "script-unused": ["script-consumed"],
  "max-turns": ["script-consumed", "within-limits"],
  "killed-at-timeout": ["claude-ran", "script-consumed", "within-limits"],
  "sync-timeout": /PreToolUse:Bash timed out \(claude cancelled it\)/,
  "crash-exit-1": /PreToolUse:Bash crashed \(exit 1\): boom/,
  "gate-not-found": /PreToolUse:Bash could not start its command \(exit 2, which claude took as a deliberate block\): \/bin\/sh: 1: \/tmp\/proctor-run-TRIAL\/work\/node_modules\/\.bin\/proctor: not found/,
  "not-found-127": /PreToolUse:Bash could not start its command \(exit 127\): .*missing-hook: not found/,
  "command-not-found-wrapped": /PreToolUse:Bash could not start its command \(exit 2, .*\): \/bin\/sh: 1: jqq: not found/,
  "not-executable": /PreToolUse:Bash could not run its command: not executable \(exit 2, .*\): .*hook\.sh: Permission denied/,
  "killed-wrapped": /PreToolUse:Bash was killed by a signal before it answered \(exit 2, .*\): Killed/,
  "python-script-missing": /PreToolUse:Bash could not start its command \(exit 2, .*\): \S*python3: can't open file '.*guard\.py'/,
  "node-crash-wrapped": /PreToolUse:Bash crashed \(exit 2, .*\): SyntaxError: /,
  "not-found-or-true": /PostToolUse:Bash could not start its command \(exit 0\): .*log\.sh: not found/,
};

describe("hook health on recorded runs of each claude version", () => {
  it("every scenario is recorded on every version, and nothing else is", () => {
    for (const version of VERSIONS) {
      const files = readdirSync(`${RECORDINGS}${version}`).filter((f) => f.endsWith(".jsonl"));
      expect(readdirSync(`${RECORDINGS}${version}`).filter((f) => f.endsWith(".held.json")).length).toBe(files.length);
      expect(files.map((f) => f.replace(/\.jsonl$/, "")).sort()).toEqual(Object.keys(SCENARIOS).sort());
    }
    expect(Object.keys(EXPECTED).sort()).toEqual(Object.keys(SCENARIOS).sort());
  });

  for (const version of VERSIONS) {
    describe(`claude ${version}`, () => {
      for (const [name, expected] of Object.entries(EXPECTED)) {
        it(`${name}: ${expected === "healthy" ? "healthy" : expected instanceof RegExp ? "hooks-ok fails" : `${expected.join(", ")} fail`}`, () => {
          const { trace, health } = judge(version, name);
          expect(trace.source.agentVersion ?? version).toBe(version);
          const failed = health.items.filter((i) => i.status === "failed");
          if (expected === "healthy") {
            expect(failed).toEqual([]);
          } else if (!(expected instanceof RegExp)) {
            expect(failed.map((i) => i.name)).toEqual(expected);
          } else {
            expect(failed.map((i) => i.name)).toEqual(["hooks-ok"]);
            expect(failed[0]?.message).toMatch(expected);
            expect(failed[0]?.message).toMatch(/^1 hook run did not run as designed: /);
          }
        });
      }
    });
  }

  it("claude answers a background hook it cancelled at session end after the result line; a sync timeout before it", () => {
    for (const version of VERSIONS) {
      for (const name of ["async-session-start", "async-config-cancelled", "security-warnings-plugin"]) {
        const cancelled = read(version, name).hooks.filter((h) => h.outcome === "cancelled");
        expect(cancelled.length, `${version} ${name}`).toBe(1);
        expect(cancelled[0]?.cancelledAtEnd, `${version} ${name}`).toBe(true);
      }
      const timeout = read(version, "sync-timeout").hooks.filter((h) => h.outcome === "cancelled");
      expect(timeout.map((h) => h.cancelledAtEnd)).toEqual([undefined]);
    }
  });

  it("background-bash: 2.1.197 kills the command still running at the end, 2.1.332 waits for it and gives the agent its notification — healthy on both", () => {
    const status = (version: string) => [...readFileSync(`${RECORDINGS}${version}/background-bash.jsonl`, "utf8").matchAll(/"subtype":"task_notification".*?"status":"(\w+)"/g)].map((m) => m[1]);
    expect(status("2.1.197")).toEqual(["stopped"]);
    expect(status("2.1.332")).toEqual(["completed"]);
    expect(read("2.1.332", "background-bash").replies.map((r) => r.text)).toEqual(["Started.", "Noted."]);
  });

  it("security-warnings-plugin: the async SessionStart hook said so, and the PostToolUse warning reached the model", () => {
    for (const version of VERSIONS) {
      const trace = read(version, "security-warnings-plugin");
      const start = trace.hooks.find((h) => h.event === "SessionStart");
      expect(start && wentAsync(start)).toBe(true);
      const warn = trace.hooks.find((h) => h.name === "PostToolUse:Write");
      expect(warn?.stdout).toMatch(/eval\(\) runs arbitrary code/);
    }
  });

  it("the fix for a hook that could not start says where the trial runs it", () => {
    const health = assessHealth(read("2.1.332", "gate-not-found"));
    expect(health.items.find((i) => i.name === "hooks-ok")?.fix).toMatch(/\$CLAUDE_PROJECT_DIR, with no node_modules.*absolute path/);
  });
});

describe("startEvidence: lines the shell, an interpreter or a crash wrote, never the hook's own words", () => {
  const table: [string, HookProblemKind | undefined][] = [
    ["/bin/sh: 1: /w/node_modules/.bin/proctor: not found", "not-found"],
    ["sh: 1: jqq: not found", "not-found"],
    ["/bin/sh: 3: hook.sh: Permission denied", "not-executable"],
    ["bash: line 1: jqq: command not found", "not-found"],
    ["/bin/bash: /w/hook.sh: No such file or directory", "not-found"],
    ["bash: /w/hook.sh: Permission denied", "not-executable"],
    ["/usr/bin/bash: line 2: /w/hooks: Is a directory", "not-executable"],
    ["zsh:1: command not found: jqq", "not-found"],
    ["Killed", "killed"],
    ["Segmentation fault (core dumped)", "killed"],
    ["bash: line 1: 4242 Killed                  node gate.js", "killed"],
    ["python3: can't open file '/w/guard.py': [Errno 2] No such file or directory", "not-found"],
    ["/usr/bin/python3.11: can't open file 'x.py': [Errno 2] No such file or directory", "not-found"],
    ["Traceback (most recent call last):\n  File \"g.py\", line 3\nKeyError: 'tool_input'", "crashed"],
    ["undefined:1\n{\n ^\n\nSyntaxError: Unexpected end of JSON input\n\nNode.js v20.19.0", "crashed"],
    // A hook's own words, even with the same phrases in them.
    ["refusing: build: not found in the allowlist", undefined],
    ["rm: /bin/sh: 1: build: not found (refusing)", undefined],
    ["Permission denied: .env is protected", undefined],
    ["Blocked: rm: cannot remove 'x': No such file or directory", undefined],
    ["The process was Killed by policy", undefined],
    ["killed", undefined],
    ["error: config file not found", undefined],
    ["", undefined],
  ];
  it.each(table)("%j → %s", (stderr, kind) => {
    expect(startEvidence(stderr)?.kind).toBe(kind);
  });

  it("names the crash by its error line", () => {
    expect(startEvidence("Traceback (most recent call last):\n  File \"g.py\", line 3\nKeyError: 'tool_input'")?.evidence).toBe("KeyError: 'tool_input'");
  });

  it("wentAsync reads only the first stdout line's async: true", () => {
    expect(wentAsync({ stdout: '{"async":true,"asyncTimeout":180000}\n{"metrics":{}}' })).toBe(true);
    expect(wentAsync({ stdout: '{"async":false}' })).toBe(false);
    expect(wentAsync({ stdout: 'ok\n{"async":true}' })).toBe(false);
    expect(wentAsync({ stdout: "{not json" })).toBe(false);
  });
});

/** A hook's own message: arbitrary words around the phrases a shell uses, but never a line that starts as a shell's, an interpreter's or a crash's does. */
const phrase = fc.constantFrom("not found", "command not found", "Permission denied", "No such file or directory", "Killed", "Traceback", "can't open file", "Node.js v20.1.0");
const word = fc.stringMatching(/^[a-z][a-z .,'/-]{0,20}$/);
// A first word that names a shell or Python would be an imitation of their lines, not a hook's own words.
const ownWords = fc.tuple(word.filter((w) => !/(?:sh|python[\d.]*)$/.test(w)), phrase, word).map(([a, p, b]) => `${a}: ${p} ${b}`.trim());
const shells = fc.constantFrom("/bin/sh", "sh", "bash", "/bin/bash", "/usr/bin/bash", "dash");
const path = fc.stringMatching(/^\/[a-z][a-z0-9._/-]{0,30}$/);
/** A diagnostic the launching shell writes, and the kind it stands for (the oracle). */
const shellLine = fc.oneof(
  fc.tuple(shells, fc.nat(99), path).map(([s, n, p]) => [`${s}: ${n + 1}: ${p}: not found`, "not-found"] as const),
  fc.tuple(shells, fc.nat(99), path).map(([s, n, p]) => [`${s}: ${n + 1}: ${p}: Permission denied`, "not-executable"] as const),
  fc.tuple(shells, path).map(([s, p]) => [`${s}: ${p}: No such file or directory`, "not-found"] as const),
  fc.constantFrom(["Killed", "killed"] as const, ["Terminated", "killed"] as const, ["Aborted (core dumped)", "killed"] as const),
);

function hookEvent(fields: Partial<HookEvent>): HookEvent {
  return { name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 2, outcome: "error", blocked: true, output: "", stdout: "", stderr: "", at: 0, ...fields };
}

describe("hook health properties", () => {
  it("a hook's own words are never read as evidence, whatever phrases they hold", () => {
    fc.assert(fc.property(fc.array(ownWords, { minLength: 1, maxLength: 4 }), (lines) => startEvidence(lines.join("\n")) === undefined));
  });

  it("a shell diagnostic among a hook's own lines is found, with its kind, whatever exit code wrapped it", () => {
    fc.assert(
      fc.property(fc.array(ownWords, { maxLength: 3 }), shellLine, fc.array(ownWords, { maxLength: 3 }), fc.constantFrom(0, 1, 2, 126, 127, 137), ([...before], [line, kind], after, exitCode) => {
        const stderr = [...before, line, ...after].join("\n");
        const problem = hookProblem(hookEvent({ exitCode, blocked: exitCode === 2, stderr }), true);
        return problem?.kind === kind && problem.evidence === line;
      }),
    );
  });

  it("a hook claude cancelled at session end is healthy; a deliberate block in its own words is healthy; a non-zero exit without a block is not", () => {
    fc.assert(
      fc.property(fc.array(ownWords, { maxLength: 3 }), fc.integer({ min: 0, max: 255 }), (lines, exitCode) => {
        const stderr = lines.join("\n");
        const atEnd = hookProblem(hookEvent({ exitCode: 1, outcome: "cancelled", blocked: false, stderr, cancelledAtEnd: true }), true);
        const deliberate = hookProblem(hookEvent({ exitCode: 2, blocked: true, stderr }), true);
        const other = hookProblem(hookEvent({ exitCode, blocked: false, outcome: exitCode === 0 ? "success" : "error", stderr }), true);
        const expectedOther = exitCode === 0 ? undefined : exitCode === 126 ? "not-executable" : exitCode === 127 ? "not-found" : exitCode > 128 && exitCode < 160 ? "killed" : "crashed";
        return atEnd === undefined && deliberate === undefined && other?.kind === expectedOther;
      }),
    );
  });
});

describe("the reader's cancelledAtEnd: only hook answers and notices since the last result line", () => {
  type Step = "text-turn" | "result" | "start" | "cancel" | "notice" | "progress";
  const line = (step: Step, n: number): object => {
    switch (step) {
      case "text-turn":
        return { type: "assistant", message: { id: `m${n}`, role: "assistant", content: [{ type: "text", text: "hi" }] } };
      case "result":
        return { type: "result", subtype: "success", is_error: false, result: "hi", num_turns: 1 };
      case "start":
        return { type: "system", subtype: "hook_started", hook_id: `h${n}`, hook_name: "Stop", hook_event: "Stop" };
      case "cancel":
        return { type: "system", subtype: "hook_response", hook_id: `c${n}`, hook_name: "PostToolUse:Bash", hook_event: "PostToolUse", output: "", stdout: "", stderr: "", exit_code: 1, outcome: "cancelled" };
      case "notice":
        return { type: "system", subtype: "informational", content: "note", level: "warning" };
      case "progress":
        return { type: "system", subtype: "hook_progress", hook_id: `p${n}`, stdout: "" };
    }
  };

  it("marks a cancelled answer at end exactly when the oracle's scan of the steps says the session had ended", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<Step>("text-turn", "result", "start", "cancel", "notice", "progress"), { maxLength: 14 }), (steps) => {
        const text = [{ type: "system", subtype: "init", session_id: "s", tools: [] }, ...steps.map(line)].map((l) => JSON.stringify(l)).join("\n");
        const cancelled = parseTranscript(text, { sourceKind: "harness" }).hooks.filter((h) => h.outcome === "cancelled");
        // Oracle: walk back from each cancel to the nearest line that is neither a hook answer nor a notice.
        const expected = steps.flatMap((step, i) => {
          if (step !== "cancel") return [];
          const before = steps.slice(0, i).filter((s) => s !== "cancel" && s !== "notice" && s !== "progress");
          return [before.at(-1) === "result"];
        });
        return JSON.stringify(cancelled.map((h) => h.cancelledAtEnd === true)) === JSON.stringify(expected);
      }),
    );
  });
});
