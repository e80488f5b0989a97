/** Checks are data both ways: toJSON → checkFromJSON → toJSON is the identity, and bad JSON is refused precisely. */
import fc from "fast-check";
import { describe, expect as vexpect, it } from "vitest";
import {
  cacheTokens, checkFromJSON, checksFromJSON, cost, custom, denied, didNotWrite, eachReply, hookFired, inputTokens, judged,
  latency, mcp, notTool, onlyTools, output, outputTokens, received, replyCount, skill, subagent, tokens, tool, toolCount,
  toolWith, trajectory, turns, wrote, wroteOnly, blocked, allowed, advertised, type Check, type ArgMatcher,
  toolResult, toolStatuses, hookSaid, fileContains, notOffered, withinAllowedTools,
} from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const name = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_]{0,12}$/);
const text = fc.string({ minLength: 1, maxLength: 20 }).filter((s) => s.trim() !== "");
const regex = fc.tuple(fc.constantFrom("^git", "rm -rf", "a+b", "\\d{2}", "[xy]z$"), fc.constantFrom("", "i", "m", "gi")).map(([s, f]) => new RegExp(s, f));
const matcherText = fc.oneof(text, regex);
const leaf = fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), regex);
const args: fc.Arbitrary<ArgMatcher> = fc.dictionary(fc.stringMatching(/^[a-z][a-z_.]{0,8}$/), fc.oneof(leaf, fc.dictionary(name, leaf, { maxKeys: 2 })), { minKeys: 1, maxKeys: 3 });
const count = fc.nat({ max: 50 });
const bounds = fc.oneof(fc.record({ min: count }), fc.record({ max: count }), fc.tuple(count, count).map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) })));
const money = fc.double({ min: 0, max: 100, noNaN: true });

const leafCheck: fc.Arbitrary<Check<any>> = fc.oneof(
  name.map(tool),
  fc.tuple(name, args).map(([n, a]) => toolWith(n, a)),
  fc.tuple(name, fc.option(args, { nil: undefined })).map(([n, a]) => notTool(n, a)),
  fc.array(name, { minLength: 1, maxLength: 4 }).map(onlyTools),
  fc.tuple(fc.oneof(name, fc.constant("*")), bounds).map(([n, b]) => toolCount(n, b)),
  fc.tuple(name, fc.option(args, { nil: undefined })).map(([n, a]) => denied(n, a)),
  fc
    .tuple(name, fc.option(args, { nil: undefined }), fc.oneof(fc.constantFrom("any", "hook", "permission", "builtin" as const), fc.constant(["hook", "sandbox"] as const)))
    .map(([n, a, by]) => denied(n, a, { by: by as never })),
  fc.tuple(name, name).map(([s, t]) => mcp(s, t)),
  name.map(skill),
  matcherText.map(output),
  matcherText.map(eachReply),
  fc.tuple(matcherText, bounds).map(([m, b]) => replyCount(m, b)),
  matcherText.map(received),
  name.map(hookFired),
  bounds.map(turns),
  text.map(wrote),
  text.map(didNotWrite),
  fc.array(text, { minLength: 1, maxLength: 3 }).map(wroteOnly),
  money.map((maxUsd) => cost({ maxUsd })),
  count.map((maxMs) => latency({ maxMs })),
  count.map((max) => tokens({ max })),
  count.map((max) => inputTokens({ max })),
  count.map((max) => outputTokens({ max })),
  fc.oneof(fc.record({ maxCreation: count }), fc.record({ maxRead: count }), fc.record({ maxCreation: count, maxRead: count })).map(cacheTokens),
  fc.tuple(text, fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined })).map(([r, min]) => judged(r, { min })),
  fc
    .tuple(
      fc.array(fc.oneof(name, fc.record({ name, args }, { requiredKeys: ["name"] })), { maxLength: 4 }),
      fc.option(fc.constantFrom("strict", "ordered", "unordered", "subset", "superset" as const), { nil: undefined }),
      fc.option(fc.constantFrom("exact", "ignore", "subset", "superset" as const), { nil: undefined }),
    )
    .filter(([steps, mode]) => steps.length > 0 || mode === undefined || mode === "strict" || mode === "unordered")
    .map(([steps, mode, a]) => trajectory(steps, { mode, args: a })),
  fc.constant(blocked()),
  fc.constant(allowed()),
  name.map((n) => advertised(n)),
  fc.tuple(name, matcherText, fc.option(fc.boolean(), { nil: undefined })).map(([n, m, all]) => toolResult(n, m, { all })),
  fc.tuple(fc.oneof(name, fc.constant("*")), fc.array(fc.constantFrom("success", "failure", "denied", "pending" as const), { maxLength: 4 })).map(([n, st]) => toolStatuses(n, st)),
  fc.tuple(name, matcherText, fc.constantFrom("any", "reason", "context", "message", "output" as const)).map(([e, m, where]) => hookSaid(e, m, { in: where })),
  fc.tuple(text, matcherText).map(([p, m]) => fileContains(p, m)),
  name.map((n) => notOffered(n)),
  fc.constantFrom("test/fixtures/allowed-tools/commands/commit.md", "test/fixtures/allowed-tools/skills/release").map((p) => withinAllowedTools(p)),
);
const anyCheck = fc.oneof(leafCheck, fc.tuple(name, fc.array(leafCheck, { maxLength: 3 })).map(([n, cs]) => subagent(n, cs)));

describe("toJSON → checkFromJSON → toJSON", () => {
  it("is the identity for every serialisable kind (through JSON text, too)", () => {
    fc.assert(
      fc.property(anyCheck, (check) => {
        const json = JSON.parse(JSON.stringify(check.toJSON()));
        const rebuilt = checkFromJSON(json);
        vexpect(rebuilt.toJSON()).toEqual(json);
        vexpect(rebuilt.kind).toBe(check.kind);
        vexpect(rebuilt.label).toBe(check.label);
      }),
      { numRuns: 500 },
    );
  });

  it("a rebuilt check judges a trace the same way", () => {
    const trace = makeTrace({ calls: [{ name: "Bash", input: { command: "rm -rf dist" } }], output: "done" });
    fc.assert(
      fc.property(anyCheck, (check) => {
        const rebuilt = checkFromJSON<any>(JSON.parse(JSON.stringify(check)));
        // A check of another target kind (a hook result) refuses the trace the same way, too.
        const judge = (c: Check<any>) => {
          try {
            return c.eval(trace);
          } catch (error) {
            return { refused: (error as Error).message };
          }
        };
        vexpect(judge(rebuilt)).toEqual(judge(check));
      }),
    );
  });

  it("uses the documented JSON form", () => {
    vexpect(notTool("Bash", { command: /rm -rf/i }).toJSON()).toEqual({ kind: "notTool", name: "Bash", args: { command: { $regex: "rm -rf", $flags: "i" } } });
    vexpect(turns({ min: 2 }).toJSON()).toEqual({ kind: "turns", min: 2 });
    vexpect(eachReply("x").toJSON()).toEqual({ kind: "eachReply", matcher: "x" });
    vexpect(replyCount(/y/, { max: 1 }).toJSON()).toEqual({ kind: "replyCount", matcher: { $regex: "y" }, max: 1 });
    vexpect(subagent("Explore", [tool("Glob")]).toJSON()).toEqual({ kind: "subagent", name: "Explore", checks: [{ kind: "tool", name: "Glob" }] });
  });
});

describe("checkFromJSON refuses bad input, naming the field", () => {
  it.each([
    [{ kind: "toll", name: "Bash" }, 'checks[0].kind: unknown check kind "toll"; known kinds: advertised, allowed,'],
    [{ name: "Bash" }, "checks[0].kind: must be a string naming the check; got nothing"],
    ["tool", 'checks[0]: a check must be an object like {"kind": "tool", "name": "Bash"}; got "tool" (string)'],
    [{ kind: "tool", name: 3 }, "checks[0].name: tool: name must be a string; got 3 (number)"],
    [{ kind: "tool", name: "Bash", args: {} }, "checks[0].args: tool: args is not a field of tool (fields: name)"],
    [{ kind: "toolWith", name: "Bash", args: { command: { $regex: "(" } } }, 'bad RegExp {"$regex":"("}'],
    [{ kind: "turns" }, "checks[0].min/max: turns: min/max needs at least one of min or max"],
    [{ kind: "subagent", name: "Explore", checks: [{ kind: "tool" }] }, "checks[0].checks[0].name: tool: name must be a string; got nothing"],
    [{ kind: "no-sudo", $custom: true }, 'checks[0]: "no-sudo" is a custom check; it holds a function and cannot be rebuilt from JSON'],
    [{ kind: "judged", rubric: "x", judge: "custom" }, "judged with a custom judge cannot be rebuilt from JSON"],
  ])("%j", (json, message) => {
    vexpect(() => checksFromJSON([json])).toThrow(message);
  });

  it("custom and judged-with-a-judge serialise for reports", () => {
    vexpect(custom("no-sudo", () => true).toJSON()).toEqual({ kind: "no-sudo", $custom: true });
    vexpect(judged("polite", { judge: () => ({ score: 1, pass: true }) }).toJSON()).toEqual({ kind: "judged", rubric: "polite", judge: "custom" });
  });
});
