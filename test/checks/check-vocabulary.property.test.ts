/**
 * toolResult, toolStatuses, hookSaid, fileContains, notOffered and withinAllowedTools over random
 * traces, each against a brute-force reference that reads the trace its own way: hooks are built
 * from what they mean to say (so the oracle knows each part without reading hook output), scopes
 * are decided call by call. PROCTOR_FC_RUNS raises the run count (nightly).
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fileContains, hookSaid, notOffered, toolResult, toolStatuses, type HookEvent, type ToolCall, type Trace } from "../../src/index.js";
import { allowedToolsCheck } from "../../src/contracts/allowed-tools.js";
import type { FileChange, ToolStatus } from "../../src/trace/types.js";
import { makeTrace } from "../helpers/trace.js";

const RUNS = Number(process.env.PROCTOR_FC_RUNS ?? 200);
const WORDS = ["ok", "rows", "deny", "lint", "main", "push"];
const word = fc.constantFrom(...WORDS);
const text = fc.array(word, { maxLength: 3 }).map((w) => w.join(" "));
const STATUSES: ToolStatus[] = ["success", "failure", "denied", "pending"];
const health = fc.constantFrom<Partial<Trace>>({}, {}, {}, { complete: false, errors: [{ kind: "killed", message: "killed" }] });

/** A call; `result` absent when none came back. */
const call = fc.record({ name: fc.constantFrom("Bash", "Read", "Grep"), status: fc.constantFrom(...STATUSES), result: text }, { requiredKeys: ["name", "status"] });

describe("toolResult and toolStatuses against a brute-force reference", () => {
  it("toolResult: some (or every) call to the tool returned text containing the word", () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 6 }), fc.constantFrom("Bash", "Read", "*"), word, fc.boolean(), health, (calls, name, w, all, h) => {
        const trace = makeTrace({ calls, ...h });
        let some = false;
        let every = true;
        let n = 0;
        for (const c of calls) {
          if (name !== "*" && c.name !== name) continue;
          n++;
          const hit = c.result !== undefined && c.result.split(" ").join(" ").indexOf(w) >= 0;
          some ||= hit;
          every &&= hit;
        }
        const expected = all ? n > 0 && every && trace.complete : some;
        expect(toolResult(name, w, { all }).eval(trace).pass).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });

  it("toolStatuses: the statuses in order are exactly the sequence, and the message names the first differing position", () => {
    fc.assert(
      fc.property(fc.array(call, { maxLength: 6 }), fc.array(fc.constantFrom(...STATUSES), { maxLength: 4 }), fc.constantFrom("Bash", "Read"), health, (calls, want, name, h) => {
        const trace = makeTrace({ calls, ...h });
        const got = calls.filter((c) => c.name === name).map((c) => c.status);
        const equal = JSON.stringify(got) === JSON.stringify(want);
        const r = toolStatuses(name, want).eval(trace);
        expect(r.pass).toBe(equal && trace.complete);
        if (!equal) {
          let k = 0;
          while (got[k] === want[k]) k++;
          expect(r.message).toContain(k >= got.length ? `position ${k + 1} ` : `call ${k + 1} (`);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

/** A hook built from what it means to say; `parts` is the ground truth the oracle reads. */
interface Said {
  hook: HookEvent;
  parts: { reason?: string | undefined; context?: string; message?: string; output?: string };
}

/** Hooks say few words, so a word asked for is often in some part — and often in the wrong one. */
const hookWord = fc.constantFrom("ok", "lint", "deny");
const hookText = fc.array(hookWord, { minLength: 1, maxLength: 2 }).map((w) => w.join(" "));
const saying = fc.oneof(
  fc.record({ kind: fc.constant("deny" as const), reason: hookText, message: fc.option(hookText, { nil: undefined }) }),
  fc.record({ kind: fc.constant("block" as const), reason: hookText }),
  fc.record({ kind: fc.constant("context" as const), context: hookText, message: fc.option(hookText, { nil: undefined }) }),
  fc.record({ kind: fc.constant("plain" as const), out: hookText }),
  fc.record({ kind: fc.constant("exit2" as const), err: hookText }),
  fc.record({ kind: fc.constant("pending" as const) }),
);

type Saying = typeof saying extends fc.Arbitrary<infer S> ? S : never;

function buildHook(s: Saying, event: string): Said {
  const base = { name: `${event}:Bash`, event, outcome: "success", blocked: false, at: 0 };
  const json = (o: object, parts: Said["parts"]): Said => {
    const out = JSON.stringify(o);
    return { hook: { ...base, exitCode: 0, output: out, stdout: out, stderr: "" }, parts: { ...parts, output: out } };
  };
  switch (s.kind) {
    case "deny":
      return json({ hookSpecificOutput: { hookEventName: event, permissionDecision: "deny", permissionDecisionReason: s.reason }, ...(s.message !== undefined ? { systemMessage: s.message } : {}) }, { reason: s.reason, ...(s.message !== undefined ? { message: s.message } : {}) });
    case "block":
      return json({ decision: "block", reason: s.reason }, { reason: s.reason });
    case "context":
      return json({ hookSpecificOutput: { hookEventName: event, additionalContext: s.context }, ...(s.message !== undefined ? { systemMessage: s.message } : {}) }, { context: s.context, ...(s.message !== undefined ? { message: s.message } : {}) });
    case "plain":
      return { hook: { ...base, exitCode: 0, output: s.out, stdout: s.out, stderr: "" }, parts: { output: s.out } };
    case "exit2":
      return { hook: { ...base, exitCode: 2, outcome: "error", blocked: true, output: s.err, stdout: "", stderr: s.err }, parts: { reason: s.err.trim() || undefined, output: s.err } };
    default:
      return { hook: { ...base, exitCode: null, outcome: "pending", output: "" }, parts: {} };
  }
}

describe("hookSaid against hooks built from what they say", () => {
  it("holds exactly when a hook for the event said the word in the part asked for", () => {
    const hooks = fc.array(fc.tuple(saying, fc.constantFrom("PreToolUse", "PostToolUse")), { maxLength: 4 });
    fc.assert(
      fc.property(hooks, hookWord, fc.constantFrom("any", "reason", "context", "message", "output") as fc.Arbitrary<"any" | "reason" | "context" | "message" | "output">, fc.constantFrom("PreToolUse", "PostToolUse:Bash"), (hs, w, where, event) => {
        const said = hs.map(([s, e]) => buildHook(s, e));
        const trace = makeTrace({ hooks: said.map((s) => s.hook) });
        const expected = said.some(({ hook, parts }) => {
          if (hook.event !== event && hook.name !== event) return false;
          const keys = where === "any" ? (["reason", "context", "message", "output"] as const) : [where];
          return keys.some((k) => parts[k] !== undefined && (parts[k] as string).includes(w));
        });
        expect(hookSaid(event, w, { in: where }).eval(trace).pass).toBe(expected);
      }),
      // Kept: a hook's added context found only when hookSaid reads additionalContext.
      { numRuns: RUNS, examples: [[[[{ kind: "context", context: "lint", message: undefined }, "PostToolUse"]], "lint", "context", "PostToolUse:Bash"]] },
    );
  });
});

describe("fileContains and notOffered: no evidence is never a pass", () => {
  const PATHS = ["a.txt", "b.txt", "src/c.ts"];
  const change = fc.record(
    { path: fc.constantFrom(...PATHS), change: fc.constantFrom("created" as const, "modified" as const, "deleted" as const), content: text },
    { requiredKeys: ["path", "change"] },
  );

  it("fileContains holds exactly when the kept content of that changed file contains the word", () => {
    fc.assert(
      fc.property(fc.uniqueArray(change, { selector: (c) => c.path, maxLength: 3 }), fc.constantFrom("snapshot" as const, "tool-calls" as const, undefined), fc.constantFrom(...PATHS), word, (cs, source, path, w) => {
        const changes: FileChange[] = cs.map((c) => (c.change === "deleted" || c.content === undefined ? { path: c.path, change: c.change } : c));
        const trace = makeTrace(source ? { files: { source, changes } } : {});
        const there = source === "snapshot" ? changes.find((c) => c.path === path) : undefined;
        const r = fileContains(path, w).eval(trace);
        expect(r.pass).toBe(there?.content?.includes(w) === true);
        const knowable = there !== undefined && (there.change === "deleted" || there.content !== undefined);
        expect(r.inconclusive === true).toBe(!knowable);
      }),
      { numRuns: RUNS },
    );
  });

  it("notOffered holds exactly when requests were captured, none listed the tool, and the run is complete", () => {
    const TOOLS = ["Bash", "Read", "WebFetch", "Grep"];
    const request = fc.record({ agent: fc.constantFrom("main", "Explore"), system: fc.constant(""), messages: fc.constant(""), tools: fc.subarray(TOOLS).map((ts) => ts.map((name) => ({ name, description: "" }))) });
    fc.assert(
      fc.property(fc.option(fc.array(request, { maxLength: 3 }), { nil: undefined }), fc.constantFrom(...TOOLS), health, (requests, name, h) => {
        const trace = makeTrace({ ...(requests ? { modelRequests: requests } : {}), ...h });
        let offered = false;
        for (const r of requests ?? []) for (const t of r.tools) if (t.name === name) offered = true;
        expect(notOffered(name).eval(trace).pass).toBe((requests?.length ?? 0) > 0 && !offered && trace.complete);
      }),
      { numRuns: RUNS },
    );
  });
});

describe("withinAllowedTools: the calls in scope, decided call by call", () => {
  const step = fc.oneof(
    fc.record({ name: fc.constantFrom("Read", "Grep", "Bash", "Write"), agent: fc.constantFrom("main", "toolu_sub") }),
    fc.record({ name: fc.constant("Skill"), agent: fc.constantFrom("main", "toolu_sub"), skill: fc.constantFrom("commit", "plugin:commit", "other") }),
  );

  it("holds exactly when every call made while the command was active is a Read or Grep", () => {
    fc.assert(
      fc.property(fc.array(step, { maxLength: 8 }), fc.constantFrom("/commit", "/other", "plain prompt", undefined), (steps, prompt) => {
        const calls: ToolCall[] = steps.map((s, i) => ({ id: `t${i}`, name: s.name, input: "skill" in s ? { skill: s.skill } : {}, status: "success", agent: s.agent }));
        const skills = steps.flatMap((s, i) => ("skill" in s ? [{ name: s.skill as string, callIndex: i, agent: s.agent, status: "success" as const }] : []));
        const modelRequests = prompt === undefined ? undefined : [{ agent: "main", system: "", messages: prompt.startsWith("/") ? `<command-name>${prompt}</command-name>` : prompt, tools: [] }];
        const trace = makeTrace({ calls, skills, ...(modelRequests ? { modelRequests } : {}) });
        // A call is in scope when the nearest earlier Skill call of its agent activated "commit" (or,
        // for the main agent with none, the prompt was /commit); a Skill call in scope is judged too.
        const isCommit = (n: string) => n === "commit" || n.endsWith(":commit");
        const active = (i: number): boolean => {
          const agent = calls[i]?.agent;
          for (let j = i - 1; j >= 0; j--) {
            const c = calls[j] as ToolCall;
            if (c.agent === agent && c.name === "Skill") return isCommit(String(c.input.skill));
          }
          return agent === "main" && prompt === "/commit";
        };
        const ran = prompt === "/commit" || skills.some((s) => isCommit(s.name));
        const inScope = calls.filter((_, i) => active(i));
        const expected = ran && inScope.every((c) => c.name === "Read" || c.name === "Grep");
        const r = allowedToolsCheck({ path: "commit.md", name: "commit", type: "command", allowed: ["Read", "Grep"] }).eval(trace);
        expect(r.pass, r.message).toBe(expected);
      }),
      { numRuns: RUNS },
    );
  });
});
