import { readFileSync } from "node:fs";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { readRecording, scriptFromTranscript } from "../../mock-model/index.js";
import { checkFromJSON, evalChecks, replayMatches, type ToolCall, type Trace } from "../../src/index.js";
import { diffReplay } from "../../src/trace/replay-diff.js";
import { convertSessionLog, isSessionLog } from "../../src/trace/session-log.js";
import { makeTrace } from "../helpers/trace.js";

const fixture = (name: string) => new URL(`../fixtures/transcripts/${name}`, import.meta.url).pathname;

describe("readRecording / scriptFromTranscript over recorded transcripts", () => {
  it("groups a claude 2.1.197 run into turns per agent, with the subagent's answer from the Agent result", () => {
    const r = readRecording(fixture("explore-subagent-lockfile-hook.jsonl"));
    expect(r.cwd).toBe("/home/dev/wf2");
    expect(r.main.turns.map((t) => t.blocks.map((b) => (b.type === "tool_use" ? `${b.name}#${b.id}` : b.type)))).toEqual([["Agent#toolu_g1"], ["Write#toolu_g2"], ["text"]]);
    expect(r.subagents).toHaveLength(1);
    expect(r.subagents[0]).toMatchObject({ id: "toolu_g1", type: "Explore", prompt: "List every config file in this repo" });
    expect(r.subagents[0].turns.map((t) => t.blocks)).toEqual([[{ type: "tool_use", id: "toolu_h1", name: "Glob", input: { pattern: "**/*.json" } }], [{ type: "text", text: "Config files: tsconfig.json" }]]);
  });

  it("makes a script with one function turn per recorded turn plus one past the end, and routes the subagent by type and exact prompt", () => {
    const script = scriptFromTranscript(fixture("explore-subagent-lockfile-hook.jsonl"));
    expect(script.turns).toHaveLength(4);
    expect(script.subagents).toHaveLength(1);
    const sub = script.subagents![0];
    expect(sub.type).toBe("Explore");
    expect(sub.prompt instanceof RegExp && sub.prompt.test("List every config file in this repo")).toBe(true);
    expect(sub.prompt instanceof RegExp && sub.prompt.test("List every config file in this repo, and more")).toBe(false);
  });

  it("refuses what holds no assistant message, naming what to pass", () => {
    expect(() => readRecording('{"type":"system","subtype":"init"}\n')).toThrow(/no assistant messages/);
    expect(() => readRecording("/no/such/recording.jsonl")).toThrow(/cannot read recording \/no\/such\/recording\.jsonl: ENOENT/);
  });
});

describe("session logs", () => {
  const log = [
    { type: "user", sessionId: "s1", uuid: "u1", cwd: "/w", gitBranch: "main", permissionMode: "default", timestamp: "2026-01-01T00:00:00.000Z", message: { role: "user", content: "do it" } },
    { type: "assistant", sessionId: "s1", uuid: "u2", timestamp: "2026-01-01T00:00:01.000Z", message: { id: "m1", model: "m", content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command: "ls" } }], usage: { input_tokens: 3, output_tokens: 1 } } },
    { type: "user", sessionId: "s1", uuid: "u3", timestamp: "2026-01-01T00:00:02.000Z", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "a" }] } },
    { type: "assistant", sessionId: "s1", uuid: "u4", timestamp: "2026-01-01T00:00:03.000Z", message: { id: "m2", model: "m", content: [{ type: "text", text: "done" }], usage: { input_tokens: 4, output_tokens: 2 } } },
  ];
  const text = log.map((e) => JSON.stringify(e)).join("\n");

  it("is told apart from stream-json by its first event", () => {
    expect(isSessionLog(text)).toBe(true);
    expect(isSessionLog(readFileSync(fixture("edit-write-bash-fail.jsonl"), "utf8"))).toBe(false);
  });

  it("converts to stream-json with a result only when the main agent ended with an answer", () => {
    const done = convertSessionLog(text);
    expect(done.facts).toEqual({ startedAt: "2026-01-01T00:00:00.000Z", endedAt: "2026-01-01T00:00:03.000Z", gitBranch: "main", hookRecord: "partial" });
    const events = done.streamJson.split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(events.map((e) => e.type)).toEqual(["system", "assistant", "user", "assistant", "result"]);
    expect(events[4]).toMatchObject({ result: "done", num_turns: 2, duration_ms: 3000, usage: { input_tokens: 7, output_tokens: 3 } });
    expect(events[4]).not.toHaveProperty("total_cost_usd");
    const cut = convertSessionLog(log.slice(0, 2).map((e) => JSON.stringify(e)).join("\n"));
    expect(cut.streamJson).not.toMatch(/"type":"result"/);
  });
});

const STATUSES = ["success", "failure", "denied", "invalid", "pending"] as const;

describe("diffReplay", () => {
  it("finds nothing between a Trace and itself, for any Trace (property)", () => {
    const call = fc.record({ name: fc.constantFrom("Bash", "Read", "Write"), status: fc.constantFrom(...STATUSES), result: fc.string({ maxLength: 8 }) });
    fc.assert(
      fc.property(fc.array(call, { maxLength: 8 }), fc.boolean(), (calls, complete) => {
        const t = makeTrace({ complete, calls: calls.map((c, i) => ({ ...c, id: `t${i}` })) });
        expect(diffReplay(t, t)).toEqual([]);
      }),
      { seed: 20261203, numRuns: 300 },
    );
  });

  it("reports each changed call once, by the first aspect that changed — against a brute-force reference (property)", () => {
    const call = fc
      .record({ status: fc.constantFrom(...STATUSES), result: fc.constantFrom("a", "b"), by: fc.constantFrom("hook", "permission") })
      .map(({ by, ...c }) => (c.status === "denied" ? { ...c, deniedBy: by as "hook" | "permission" } : c));
    fc.assert(
      fc.property(fc.array(fc.tuple(call, call, fc.boolean()), { minLength: 1, maxLength: 8 }), (pairs) => {
        const before: ToolCall[] = [];
        const after: ToolCall[] = [];
        pairs.forEach(([a, b, made], i) => {
          before.push({ id: `t${i}`, name: "Bash", input: {}, agent: "main", ...a });
          if (made) after.push({ id: `t${i}`, name: "Bash", input: {}, agent: "main", ...b });
        });
        const got = diffReplay(makeTrace({ calls: before }), makeTrace({ calls: after })).map((d) => `${d.callId}:${d.kind}`);
        // The reference: missing → call; a failure now denied by a hook with the same text is the
        // same answer (no hook events recorded); else status or denier → status; else text → result.
        const want = pairs.flatMap(([a, b, made], i) => {
          if (!made) return [`t${i}:call`];
          if (a.status === "failure" && b.status === "denied" && "deniedBy" in b && b.deniedBy === "hook" && a.result === b.result) return [];
          if (a.status !== b.status || ("deniedBy" in a ? a.deniedBy : undefined) !== ("deniedBy" in b ? b.deniedBy : undefined)) return [`t${i}:status`];
          return a.result !== b.result ? [`t${i}:result`] : [];
        });
        expect(got).toEqual(want);
      }),
      { seed: 20261204, numRuns: 300 },
    );
  });

  it("does not take a recording's silence about hooks for a hook that stopped firing", () => {
    const recorded = makeTrace({ calls: [{ id: "t1", name: "Bash", status: "failure", result: "Blocked: no" }] });
    const now: Trace = makeTrace({
      calls: [{ id: "t1", name: "Bash", status: "denied", deniedBy: "hook", result: "Blocked: no" }],
      hooks: [{ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: true, output: "", callId: "t1", at: 0 }],
    });
    expect(diffReplay(recorded, now)).toEqual([]);
    const stop = { name: "Stop", event: "Stop", exitCode: 0, outcome: "success", blocked: false, output: "", at: 1 } as const;
    expect(diffReplay(makeTrace({ ...recorded, hooks: [stop] }), { ...now, hooks: [...now.hooks, stop] }).map((d) => d.kind)).toEqual(["status"]);
  });
});

describe("replayMatches", () => {
  const diverged = makeTrace({
    calls: [{ id: "t1", name: "Read" }],
    replay: { recording: "r.jsonl", stoppedEarly: false, divergences: [{ kind: "result", agent: "main", turn: 1, callId: "t1", tool: "Read", recorded: "a", now: "b", message: "Read (t1) answered differently" }] },
  });

  it("fails closed on a Trace that is not a replay", () => {
    const [r] = evalChecks(makeTrace(), [replayMatches()]);
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(/not|no replay record/);
  });

  it("fails on a divergence, pointing at its call; passes when that kind is ignored", () => {
    const [r] = evalChecks(diverged, [replayMatches()]);
    expect(r).toMatchObject({ pass: false, callIndex: 0 });
    expect(r.message).toMatch(/turn 1 \(main\) result: Read \(t1\) answered differently\n\s+recorded: a\n\s+now:\s+b/);
    expect(evalChecks(diverged, [replayMatches({ ignore: ["result"] })])[0].pass).toBe(true);
  });

  it("round-trips through JSON and refuses unknown kinds", () => {
    const check = replayMatches({ ignore: ["result", "hook"] });
    expect(check.toJSON()).toEqual({ kind: "replayMatches", ignore: ["result", "hook"] });
    expect(checkFromJSON(check.toJSON()).toJSON()).toEqual(check.toJSON());
    expect(() => replayMatches({ ignore: ["results" as never] })).toThrow(/divergence kinds are result, status/);
  });
});
