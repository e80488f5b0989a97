/**
 * onlyTools and subagent over generated traces, against oracles written apart from the checks:
 * tool-name globs read as regular expressions, a subagent's calls as a plain filter. The checks
 * match each distinct name once and build a subagent's view in one pass (a 10,000-call run repeats
 * a handful of names); the verdict, the names reported and the first offending call must be what
 * matching every call against every declaration gives.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { custom, onlyTools, subagent, tool, type ToolCall, type Trace } from "../../src/index.js";
import { subagentView } from "../../src/trace/scope.js";
import { makeTrace } from "../helpers/trace.js";

const NAMES = ["Read", "Bash", "Edit", "Write", "mcp__gh__issue", "mcp__gh__pr", "mcp__fs__read", "Agent"];
const DECLARATIONS = [...NAMES, "*", "mcp__gh__*", "mcp__*", "Bash(git:*)", " Edit ", "Re*"];

const COMMANDS = ["git log", "git", "git push --force origin main", "gitk", "ls -la"];

/**
 * The oracle's reading of a declaration: `Bash(git:*)` declares Bash commands whose first word is
 * git (and nothing else); a trailing `*` is any rest of a name.
 */
function declares(declaration: string, name: string, command: string): boolean {
  if (declaration === "Bash(git:*)") return name === "Bash" && command.split(" ")[0] === "git";
  const base = declaration.trim();
  const pattern = new RegExp(`^${base.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "s");
  // Only a trailing `*` is a glob; a `*` elsewhere is part of the name.
  return base.endsWith("*") || base === "*" ? pattern.test(name) : base === name;
}

/** How a failing verdict names a call: a shell call with its command. */
const shown = (name: string, command: string) => (name === "Bash" ? `Bash(${command})` : name);

const calls = fc.array(fc.record({ name: fc.constantFrom(...NAMES), agent: fc.constantFrom("main", "a1", "a2"), command: fc.constantFrom(...COMMANDS) }), { maxLength: 60 });
const allowed = fc.uniqueArray(fc.constantFrom(...DECLARATIONS), { minLength: 1, maxLength: 5 });

describe("onlyTools against matching every call to every declaration", () => {
  it("passes exactly when every call is declared; otherwise names the undeclared tools in order and the first call", () => {
    fc.assert(
      fc.property(calls, allowed, (specs, declared) => {
        const trace = makeTrace({ calls: specs.map(({ name, command }) => ({ name, input: { command } })) });
        const result = onlyTools(declared).eval(trace);
        if (specs.length === 0) {
          expect(result.pass).toBe(false);
          return;
        }
        const outside = specs.flatMap(({ name, command }, index) => (declared.some((d) => declares(d, name, command)) ? [] : [{ name: shown(name, command), index }]));
        expect(result.pass).toBe(outside.length === 0);
        if (outside.length > 0) {
          expect(result.actual).toEqual([...new Set(outside.map((o) => o.name))]);
          expect(result.callIndex).toBe(outside[0]?.index);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("an incomplete trace never passes, whatever was declared", () => {
    fc.assert(
      fc.property(calls, allowed, (specs, declared) => {
        const trace = { ...makeTrace({ calls: specs.map(({ name }) => ({ name })) }), complete: false };
        expect(onlyTools(declared).eval(trace).pass).toBe(false);
      }),
      { numRuns: 100 },
    );
  });
});

describe("a subagent's view against filtering the calls by agent", () => {
  function withSubagents(specs: readonly { name: string; agent: string; command?: string }[]): Trace {
    const base = makeTrace({ calls: specs.map(({ name, agent, command }) => ({ name, agent, input: { command: command ?? "" } })) });
    const runs = ["a1", "a2"].map((id) => ({ id, type: id === "a1" ? "Explore" : "Plan", prompt: "p", calls: specs.flatMap((s, i) => (s.agent === id ? [i] : [])), status: "success" as const }));
    return { ...base, subagents: runs };
  }

  it("each nested check gets its own view: one that mutates its trace changes nothing for the next", () => {
    const trace = withSubagents([
      { name: "Read", agent: "a1" },
      { name: "Edit", agent: "a1" },
    ]);
    // Checks should not mutate what they are given; these two do, as a careless custom check might.
    const popper = custom("pops", (t: Trace) => {
      const calls = t.toolCalls as ToolCall[];
      while (calls.at(-1)?.name === "Edit") calls.pop();
      return true;
    });
    expect(subagent("Explore", [popper, tool("Edit")]).eval(trace).pass).toBe(true);
    const reverser = custom("reverses", (t: Trace) => (t.toolCalls as ToolCall[]).reverse()[0]?.name === "Edit");
    const after = subagent("Explore", [reverser, onlyTools(["Read"])]).eval(trace);
    expect(after.message).toMatch(/#1 Edit/);
  });

  it("holds the subagent's calls, in order, and nested checks see only them", () => {
    fc.assert(
      fc.property(calls, allowed, (specs, declared) => {
        const trace = withSubagents(specs);
        const run = trace.subagents[0];
        if (run === undefined) throw new Error("no run");
        const own = trace.toolCalls.filter((c) => c.agent === "a1");
        expect(subagentView(trace, run).toolCalls).toEqual(own);
        const nested = subagent("Explore", [onlyTools(declared)]).eval(trace);
        const expected = own.length > 0 && own.every((c) => declared.some((d) => declares(d, c.name, String(c.input.command ?? ""))));
        expect(nested.pass).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
