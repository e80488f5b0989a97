import { describe, expect, it } from "vitest";
import {
  TOOL_RESULT_STATUSES, activeLeaseIds, explainStatusOnlyNearMiss, pruneLeases, readToolResultEnvelope, tenantOf,
  type InstructionLease,
} from "../../src/safety.js";
import { parseTranscript, toolStatus } from "../../src/index.js";

describe("readToolResultEnvelope", () => {
  it("has the outcome vocabulary", () => {
    expect(TOOL_RESULT_STATUSES).toEqual(["success", "failure", "denied", "invalid", "partial", "pending", "absent"]);
  });

  it("recognises envelopes and keeps valid effects", () => {
    const effects = [
      { kind: "propose-transition", targetSkillId: "billing", reason: "invoice question" },
      { kind: "require-instruction", instructionId: "tone", deliveryLease: "next-call" },
    ];
    expect(readToolResultEnvelope({ content: "ok", effects, status: "partial" })).toEqual({ content: "ok", effects, status: "partial", malformed: [] });
    expect(readToolResultEnvelope({ content: null, effects: [], status: "denied" })).toEqual({ content: null, effects: [], status: "denied", malformed: [] });
  });

  it.each([
    ["a string", "ok"],
    ["an array", [1]],
    ["no content", { effects: [], status: "success" }],
    ["an extra key", { content: 1, effects: [], status: "success", extra: true }],
    ["effects not an array", { content: 1, effects: {} }],
    ["an unknown effect kind", { content: 1, effects: [{ kind: "route" }] }],
    ["a non-object effect", { content: 1, effects: ["x"] }],
    ["an unknown status", { content: 1, effects: [], status: "ok" }],
    ["empty effects and no status", { content: 1, effects: [] }],
    ["no effects marker", { content: 1, status: "denied" }],
  ])("declines %s", (_, value) => {
    expect(readToolResultEnvelope(value)).toBeUndefined();
  });

  it("refuses malformed effects with a reason, never half-applies them", () => {
    const read = readToolResultEnvelope({
      content: "x",
      effects: [
        { kind: "propose-transition", targetSkillId: "a" },
        { kind: "propose-transition", reason: "r" },
        { kind: "require-instruction", instructionId: "i", deliveryLease: "forever" },
        { kind: "require-instruction", deliveryLease: "next-call" },
        { kind: "require-instruction", instructionId: "ok", deliveryLease: "until-skill-exit" },
      ],
    });
    expect(read?.effects).toEqual([{ kind: "require-instruction", instructionId: "ok", deliveryLease: "until-skill-exit" }]);
    expect(read?.malformed.map((m) => m.refusalReason)).toEqual([
      "effect 1 (propose-transition → 'a') gives no reason, so it was refused; a routing proposal must say why",
      "effect 2 (propose-transition) names no targetSkillId, so it was refused; write { kind: 'propose-transition', targetSkillId, reason }",
      `effect 3 (require-instruction 'i') has deliveryLease "forever", which is not a lease; use 'next-call' or 'until-skill-exit'`,
      "effect 4 (require-instruction) names no instructionId, so it was refused; write { kind: 'require-instruction', instructionId, deliveryLease: 'next-call' | 'until-skill-exit' }",
    ]);
  });
});

describe("explainStatusOnlyNearMiss", () => {
  it("names a status-only envelope missing its marker, and nothing else", () => {
    expect(explainStatusOnlyNearMiss({ content: "no", status: "denied" })).toMatch(/missing its marker.*effects: \[\], status: 'denied'/);
    expect(explainStatusOnlyNearMiss({ content: "no", status: "nope" })).toBeUndefined();
    expect(explainStatusOnlyNearMiss({ content: "no", effects: [], status: "denied" })).toBeUndefined();
    expect(explainStatusOnlyNearMiss({ content: "no", status: "denied", id: 1 })).toBeUndefined();
  });
});

describe("leases", () => {
  const lease = (instructionId: string, deliveryLease: InstructionLease["deliveryLease"], iteration: number, skillId?: string): InstructionLease => ({
    instructionId,
    deliveryLease,
    iteration,
    toolName: "t",
    ...(skillId ? { skillId } : {}),
  });

  it("finds the tenant: the cursor, else the last activation", () => {
    expect(tenantOf("a", ["b", "c"])).toBe("a");
    expect(tenantOf(undefined, ["b", "c"])).toBe("c");
    expect(tenantOf(undefined, undefined)).toBeUndefined();
  });

  it("serves next-call leases on exactly the next pass, and until-skill-exit leases while the tenant holds", () => {
    const leases = [lease("n", "next-call", 3), lease("u", "until-skill-exit", 1, "billing"), lease("n", "next-call", 3), lease("v", "until-skill-exit", 1)];
    expect(activeLeaseIds(leases, 4, "billing")).toEqual(["n", "u"]);
    expect(activeLeaseIds(leases, 5, "billing")).toEqual(["u"]);
    expect(activeLeaseIds(leases, 4, undefined)).toEqual(["n", "v"]);
    expect(activeLeaseIds(undefined, 1, "x")).toEqual([]);
  });

  it("prunes spent and dead leases, and a dead lease stays dead when the skill is re-entered", () => {
    const leases = [lease("n", "next-call", 3), lease("u", "until-skill-exit", 1, "billing")];
    expect(pruneLeases(leases, 4, "billing")).toEqual(leases);
    expect(pruneLeases(leases, 5, "billing")).toEqual([leases[1]]);
    const afterExit = pruneLeases(leases, 5, "support");
    expect(afterExit).toEqual([]);
    expect(activeLeaseIds(pruneLeases(afterExit, 6, "billing"), 6, "billing")).toEqual([]);
  });
});

describe("envelopes in traces", () => {
  const transcript = (content: string, isError = false) =>
    [
      JSON.stringify({ type: "system", subtype: "init", tools: ["mcp__db__query"] }),
      JSON.stringify({ type: "assistant", message: { id: "m1", content: [{ type: "tool_use", id: "t1", name: "mcp__db__query", input: { sql: "select 1" } }] } }),
      JSON.stringify({ type: "user", message: { content: [{ type: "tool_result", tool_use_id: "t1", is_error: isError, content: [{ type: "text", text: content }] }] } }),
      JSON.stringify({ type: "result", subtype: "success", is_error: false, result: "done" }),
    ].join("\n");

  it("takes a call's status and effects from an envelope result", () => {
    const effects = [{ kind: "require-instruction", instructionId: "tone", deliveryLease: "next-call" }];
    const trace = parseTranscript(transcript(JSON.stringify({ content: "3 of 5 rows", effects: [...effects, { kind: "require-instruction" }], status: "partial" })));
    expect(trace.toolCalls[0]).toMatchObject({ status: "partial", effects });
    expect(toolStatus("mcp__db__query", "partial").eval(trace).pass).toBe(true);
  });

  it("lets an envelope say denied even when the CLI saw no error", () => {
    const trace = parseTranscript(transcript(JSON.stringify({ content: "not allowed", effects: [], status: "denied" })));
    expect(trace.toolCalls[0].status).toBe("denied");
    expect(trace.toolCalls[0].effects).toBeUndefined();
  });

  it("keeps the CLI's status for ordinary JSON and for envelopes without a status", () => {
    expect(parseTranscript(transcript(JSON.stringify({ content: 1, status: "denied" }))).toolCalls[0].status).toBe("success");
    expect(parseTranscript(transcript(JSON.stringify({ content: 1, effects: [{ kind: "propose-transition", targetSkillId: "a", reason: "r" }] }), true)).toolCalls[0]).toMatchObject({
      status: "failure",
      effects: [{ kind: "propose-transition", targetSkillId: "a", reason: "r" }],
    });
  });
});
