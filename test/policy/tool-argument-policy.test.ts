import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  evaluatePermissionDecision, evaluateToolArgumentPolicy, isToolDeniedByName, type PermissionEffect,
  type ToolArgumentPolicy, type ToolArgumentRule, type ToolCallFacts, type ToolRuleEffect,
} from "../../src/safety.js";

const facts = (toolName: string, extra: Partial<ToolCallFacts> = {}): ToolCallFacts => ({ toolName, sideEffectClass: "side-effecting", ...extra });

describe("evaluatePermissionDecision", () => {
  it("allows everything with no rules", () => {
    expect(evaluatePermissionDecision({ rules: [] }, facts("Bash"))).toEqual({ effect: "allow" });
  });

  it("lets deny beat a later broad allow, and reports the deny's reason", () => {
    const policy: ToolArgumentPolicy = {
      rules: [
        { tool: "Bash", effect: "deny", reason: "no shell" },
        { tool: "*", effect: "allow" },
      ],
    };
    expect(evaluatePermissionDecision(policy, facts("Bash"))).toEqual({ effect: "deny", reason: "no shell" });
    expect(evaluatePermissionDecision(policy, facts("Read"))).toEqual({ effect: "allow" });
  });

  it("orders deny > defer > ask > allow", () => {
    const rules = (...effects: ToolRuleEffect[]): ToolArgumentPolicy => ({ rules: effects.map((effect) => ({ tool: "*", effect, reason: effect })) });
    expect(evaluatePermissionDecision(rules("allow", "ask"), facts("X"))).toEqual({ effect: "ask", reason: "ask" });
    expect(evaluatePermissionDecision(rules("ask", "defer", "allow"), facts("X"))).toEqual({ effect: "defer", reason: "defer" });
    expect(evaluatePermissionDecision(rules("defer", "deny", "ask"), facts("X"))).toEqual({ effect: "deny", reason: "deny" });
  });

  it("accepts forbid as an alias of deny", () => {
    expect(evaluatePermissionDecision({ rules: [{ tool: "Write", effect: "forbid", reason: "legacy" }] }, facts("Write"))).toEqual({ effect: "deny", reason: "legacy" });
  });

  it("matches exact names, * and trailing-* globs, case-sensitively", () => {
    const policy: ToolArgumentPolicy = { rules: [{ tool: "mcp__github__*", effect: "deny", reason: "no github" }] };
    expect(evaluatePermissionDecision(policy, facts("mcp__github__create_issue")).effect).toBe("deny");
    expect(evaluatePermissionDecision(policy, facts("mcp__gitlab__x")).effect).toBe("allow");
    expect(evaluatePermissionDecision({ rules: [{ tool: "bash", effect: "deny" }] }, facts("Bash")).effect).toBe("allow");
  });

  it("applies predicates over the facts", () => {
    const policy: ToolArgumentPolicy = {
      rules: [{ tool: "Bash", effect: "deny", when: (f) => String((f.args as { command?: string })?.command).includes("rm "), reason: "no rm" }],
    };
    expect(evaluatePermissionDecision(policy, facts("Bash", { args: { command: "rm -rf x" } })).effect).toBe("deny");
    expect(evaluatePermissionDecision(policy, facts("Bash", { args: { command: "ls" } })).effect).toBe("allow");
  });

  it("fails a throwing predicate closed: it matches a deny, never an allow", () => {
    const boom = () => {
      throw new Error("boom");
    };
    expect(evaluatePermissionDecision({ rules: [{ tool: "*", effect: "deny", when: boom, reason: "r" }] }, facts("X")).effect).toBe("deny");
    expect(evaluatePermissionDecision({ rules: [{ tool: "*", effect: "allow", when: boom }], defaultDenySensitive: true }, facts("X", { sensitive: true })).effect).toBe("deny");
  });

  it("default-denies sensitive tools only when no rule matched", () => {
    const policy: ToolArgumentPolicy = { rules: [{ tool: "Read", effect: "allow" }], defaultDenySensitive: true };
    expect(evaluatePermissionDecision(policy, facts("Read", { sensitive: true }))).toEqual({ effect: "allow" });
    expect(evaluatePermissionDecision(policy, facts("Grep", { sensitive: true }))).toMatchObject({ effect: "deny", reason: expect.stringMatching(/sensitive/) });
    expect(evaluatePermissionDecision(policy, facts("Glob"))).toEqual({ effect: "allow" });
    expect(evaluatePermissionDecision({ rules: [{ tool: "Grep", effect: "ask" }], defaultDenySensitive: true }, facts("Grep", { sensitive: true })).effect).toBe("ask");
  });

  it("always gives a non-allow effect a reason", () => {
    expect(evaluatePermissionDecision({ rules: [{ tool: "Bash", effect: "ask" }] }, facts("Bash"))).toEqual({ effect: "ask", reason: 'policy rule for "Bash" says ask for Bash' });
  });
});

describe("evaluateToolArgumentPolicy", () => {
  it("projects ask, defer and deny onto forbid", () => {
    for (const effect of ["ask", "defer", "deny", "forbid"] as const) {
      expect(evaluateToolArgumentPolicy({ rules: [{ tool: "*", effect, reason: "r" }] }, facts("X"))).toEqual({ effect: "forbid", reason: "r" });
    }
    expect(evaluateToolArgumentPolicy({ rules: [{ tool: "*", effect: "allow" }] }, facts("X"))).toEqual({ effect: "allow" });
  });
});

describe("isToolDeniedByName", () => {
  it("counts only predicate-free deny/forbid rules", () => {
    const policy: ToolArgumentPolicy = {
      rules: [
        { tool: "Bash", effect: "deny", when: () => true, reason: "predicated" },
        { tool: "Web*", effect: "forbid", reason: "no web" },
        { tool: "Write", effect: "ask" },
      ],
    };
    expect(isToolDeniedByName(policy, "Bash")).toEqual({ denied: false });
    expect(isToolDeniedByName(policy, "WebFetch")).toEqual({ denied: true, reason: "no web" });
    expect(isToolDeniedByName(policy, "Write")).toEqual({ denied: false });
  });
});

describe("policy properties", () => {
  const EFFECTS: ToolRuleEffect[] = ["allow", "deny", "ask", "defer", "forbid"];
  const TOOLS = ["Bash", "Read", "Write", "mcp__gh__issue", "WebFetch"];
  const rule: fc.Arbitrary<ToolArgumentRule> = fc.record({
    tool: fc.constantFrom("*", "Bash", "Read", "Write", "mcp__gh__*", "mcp__*", "Web*", "Nope"),
    effect: fc.constantFrom(...EFFECTS),
    reason: fc.string({ maxLength: 8 }),
    predicate: fc.option(fc.constantFrom("sensitive", "untrusted", "never", "always"), { nil: undefined }),
  }).map(({ predicate, ...r }) => ({
    ...r,
    ...(predicate === undefined
      ? {}
      : { when: (f: ToolCallFacts) => (predicate === "always" ? true : predicate === "never" ? false : predicate === "sensitive" ? f.sensitive === true : f.untrustedSource === true) }),
  }));
  const policy = fc.record({ rules: fc.array(rule, { maxLength: 8 }), defaultDenySensitive: fc.boolean() });
  const call = fc.record({
    toolName: fc.constantFrom(...TOOLS),
    sideEffectClass: fc.constantFrom("pure", "read-only", "side-effecting", "external-stateful" as const),
    sensitive: fc.boolean(),
    untrustedSource: fc.boolean(),
  });
  const effectOf = (p: ToolArgumentPolicy, f: ToolCallFacts): PermissionEffect => evaluatePermissionDecision(p, f).effect;

  /**
   * A rule's deny, ask or defer is never re-opened by an allow. (defaultDenySensitive is different
   * by design: it denies a sensitive tool that no rule matched, and an allow rule is exactly how a
   * policy lets one through — tested above.)
   */
  it("adding an allow rule anywhere never turns a rule's deny, ask or defer into allow", () => {
    fc.assert(
      fc.property(policy, call, rule, fc.nat(), (p, f, extra, at) => {
        if (effectOf({ ...p, defaultDenySensitive: false }, f) === "allow") return;
        const rules = [...p.rules];
        rules.splice(at % (rules.length + 1), 0, { ...extra, effect: "allow" });
        expect(effectOf({ ...p, rules }, f)).not.toBe("allow");
      }),
      { numRuns: 2000 },
    );
  });

  it("rule order never changes the effect, only which reason is reported", () => {
    fc.assert(
      fc.property(policy, call, fc.array(fc.nat(), { minLength: 8, maxLength: 8 }), (p, f, keys) => {
        const shuffled = p.rules.map((r, i) => ({ r, k: keys[i % keys.length] * 31 + i })).sort((a, b) => a.k - b.k).map(({ r }) => r);
        expect(effectOf({ ...p, rules: shuffled }, f)).toBe(effectOf(p, f));
        expect(effectOf({ ...p, rules: [...p.rules].reverse() }, f)).toBe(effectOf(p, f));
      }),
      { numRuns: 2000 },
    );
  });
});
