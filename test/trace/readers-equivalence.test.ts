/**
 * The per-event readers give the Trace the single-loop parser gave: the recorded fixtures against
 * golden Trace JSON written by the earlier code, and random line sequences built from the fixtures'
 * lines (dropped, repeated, reordered, cut, damaged) against a frozen copy of the earlier parser.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { basename } from "node:path";
import fc from "fast-check";
import { describe, expect as vexpect, it } from "vitest";
import { parseTranscript, readTranscript } from "../../src/index.js";
import { parseCodexJsonl } from "../../harness/index.js";
import { parseTranscript as parseTranscriptBefore } from "./before-readers/claude.js";
import { parseCodexEvents as parseCodexEventsBefore } from "./before-readers/codex-events.js";
import { buildCodexTrace } from "../../src/trace/readers/codex-trace.js";

/** The Trace the earlier Codex parser's timeline gives (building the Trace from a timeline did not change). */
const parseCodexJsonlBefore = (text: string, options: { cwd?: string }) =>
  buildCodexTrace(parseCodexEventsBefore(text, options), undefined, options.cwd ? { source: { cwd: options.cwd } } : {});

const dir = (rel: string) => new URL(rel, import.meta.url).pathname;
const jsonl = (folder: string) => readdirSync(dir(folder)).filter((f) => f.endsWith(".jsonl")).map((f) => ({ name: basename(f, ".jsonl"), text: readFileSync(dir(folder) + f, "utf8") }));
const claude = jsonl("../fixtures/transcripts/");
const codex = jsonl("../codex/fixtures/");
const golden = (name: string) => JSON.parse(readFileSync(dir(`./golden/${name}.trace.json`), "utf8"));
/** Through JSON, as the golden files were written: undefined-valued keys drop out. */
const asJson = (value: unknown) => JSON.parse(JSON.stringify(value));

describe("recorded fixtures read as the golden Trace JSON", () => {
  for (const { name, text } of claude) it(name, () => vexpect(asJson(parseTranscript(text))).toEqual(golden(name)));
  for (const { name, text } of codex) it(`codex ${name}`, () => vexpect(asJson(parseCodexJsonl(text, { cwd: "/work" }))).toEqual(golden(`codex-${name}`)));
});

const ODD = ["", "   ", "not json", "[1,2]", "42", "null", '{"type":7}', "{}", '{"type":"constructor"}', '{"type":"item.completed","item":{"type":"__proto__"}}'];
const DEEP = "[".repeat(600) + "]".repeat(600);

/** Lines drawn from `pool`, some damaged: cut short, turned into prose or other JSON, or blank. */
function lineSequences(pool: readonly string[], odd: readonly string[]) {
  const line = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...pool) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...pool), fc.nat()).map(([l, n]) => l.slice(0, n % Math.max(1, l.length))) },
    { weight: 1, arbitrary: fc.constantFrom(...odd) },
  );
  return fc.array(line, { maxLength: 60 }).map((ls) => ls.join("\n"));
}

describe("random line sequences read as the earlier parser read them", () => {
  // One change on purpose: a Codex line nesting deeper than the cap is now refused like a
  // transcript's, so the Codex sequences leave such lines out (tested below).
  const claudeLines = claude.flatMap((f) => f.text.split("\n").filter(Boolean));
  const codexLines = codex.flatMap((f) => f.text.split("\n").filter(Boolean));

  // Changes on purpose (test/trace/claude-versions.test.ts): a run with several result lines is read
  // over all of them; an empty "success" after unanswered input, a run in which the model said
  // nothing, and an MCP server that failed to start are errors. Sequences showing the first are
  // compared against an oracle of their own below.
  const resultLines = (text: string) =>
    text.split("\n").filter((l) => {
      try {
        return JSON.parse(l)?.type === "result";
      } catch {
        return false;
      }
    }).length;
  it("claude stream-json", () => {
    fc.assert(fc.property(lineSequences(claudeLines, [...ODD, DEEP]), (text) => {
      const now = parseTranscript(text);
      fc.pre(resultLines(text) <= 1 && !now.errors.some((e) => ["no-answer", "no-model-request", "mcp-server-failed"].includes(e.kind)));
      // The init line's skills and agents are read since the run-health gate; the earlier parser dropped them.
      const { skills: _skills, agents: _agents, ...source } = now.source;
      vexpect(asJson({ ...now, source })).toEqual(asJson(parseTranscriptBefore(text)));
    }), { numRuns: 300 });
  });

  it("claude stream-json with several result lines: tokens and turns add up, an error anywhere is the run's", () => {
    const results = claudeLines.filter((l) => /^\{"type":"result"/.test(l));
    fc.assert(fc.property(fc.array(fc.constantFrom(...results), { minLength: 2, maxLength: 5 }), (picked) => {
      const trace = parseTranscript(picked.join("\n"));
      const parsed = picked.map((l) => JSON.parse(l));
      vexpect(trace.segments?.length).toBe(parsed.length);
      vexpect(trace.usage?.inputTokens).toBe(parsed.reduce((n, r) => n + (r.usage?.input_tokens ?? 0), 0));
      vexpect(trace.usage?.costUsd).toBe(Math.max(...parsed.map((r) => r.total_cost_usd)));
      vexpect(trace.turns).toBe(parsed.reduce((n, r) => n + r.num_turns, 0));
      vexpect(trace.outcome?.isError).toBe(parsed.some((r) => r.is_error === true));
      vexpect(trace.errors.filter((e) => e.kind !== "no-model-request").length).toBe(parsed.filter((r) => r.is_error === true).length);
    }), { numRuns: 200 });
  });

  // The recordings' hooks are all PreToolUse, each before its call's result. A hook after a call
  // (every call of its tool answered, or not) finds the call another way, so this pool has calls,
  // results (alone and right after their call) and hooks after them.
  const call = (tool: string, k: number) => JSON.stringify({ type: "assistant", message: { id: `m-${tool}-${k % 2}`, content: [{ type: "tool_use", id: `${tool}-${k}`, name: tool, input: { command: "ls" } }] } });
  const result = (tool: string, k: number) => JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: `${tool}-${k}`, content: "ok" }] } });
  const hooksAfter = (tool: string, k: number) => [
    JSON.stringify({ type: "system", subtype: "hook_started", hook_id: `post-${tool}-${k}`, hook_name: `PostToolUse:${tool}`, hook_event: "PostToolUse" }),
    JSON.stringify({ type: "system", subtype: "hook_response", hook_id: `post-${tool}-${k}`, hook_name: `PostToolUse:${tool}`, hook_event: "PostToolUse", exit_code: k % 3, stdout: "", stderr: "" }),
    JSON.stringify({ type: "system", subtype: "hook_response", hook_id: `unstarted-${tool}-${k}`, hook_name: `PostToolUse:${tool}`, exit_code: 0, stdout: "", stderr: "" }),
  ];
  const AFTER_CALLS = ["Bash", "Write"].flatMap((tool) => [0, 1, 2].flatMap((k) => [call(tool, k), result(tool, k), `${call(tool, k)}\n${result(tool, k)}`, ...hooksAfter(tool, k)]));

  it("claude stream-json with hooks after calls", () => {
    fc.assert(fc.property(lineSequences(AFTER_CALLS, ODD), (text) => {
      vexpect(asJson(parseTranscript(text))).toEqual(asJson(parseTranscriptBefore(text)));
    }), { numRuns: 300 });
  });

  it("codex exec --json", () => {
    fc.assert(
      fc.property(lineSequences(codexLines, ODD), fc.constantFrom(undefined, "/work"), (text, cwd) => {
        vexpect(asJson(parseCodexJsonl(text, cwd ? { cwd } : {}))).toEqual(asJson(parseCodexJsonlBefore(text, cwd ? { cwd } : {})));
      }),
      { numRuns: 300 },
    );
  });
});

describe("a Codex line nesting deeper than the cap", () => {
  it("is a malformed line, and the rest is read", () => {
    const text = `${codex[0]!.text.trim()}\n${DEEP}\n`;
    const trace = parseCodexJsonl(text);
    const line = text.trim().split("\n").length;
    vexpect(trace.errors.filter((e) => e.kind === "malformed-line")).toEqual([{ kind: "malformed-line", line, message: `line ${line} is not JSON (it nests deeper than 512 levels); skipped, the rest was read` }]);
    vexpect(trace.toolCalls).toEqual(parseCodexJsonl(codex[0]!.text).toolCalls);
  });
});

describe("reading a file gives what parsing its text gives", () => {
  // Files are decoded line by line when they hold non-ASCII, whole when they don't: both ways.
  const escaped = (text: string) => text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
  for (const { name, text } of claude) {
    it(name, () => {
      const dirPath = mkdtempSync(join(tmpdir(), "proctor-readers-"));
      try {
        for (const variant of [text, escaped(text), `${text}\n\n  \n${text.slice(0, 100)}`]) {
          const file = join(dirPath, "t.jsonl");
          writeFileSync(file, variant);
          vexpect(readTranscript(file)).toEqual(parseTranscript(variant));
        }
      } finally {
        rmSync(dirPath, { recursive: true, force: true });
      }
    });
  }
});
