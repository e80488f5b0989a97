import { describe, expect, it } from "vitest";
import { buildRuleOfTwoPolicy, claudeCodeDialect, evaluatePermissionDecision, toolCallFacts } from "../../src/safety.js";

const decide = (profile: Parameters<typeof buildRuleOfTwoPolicy>[0], tool: string) =>
  evaluatePermissionDecision(buildRuleOfTwoPolicy(profile).policy, toolCallFacts(tool, {}, claudeCodeDialect)).effect;

describe("buildRuleOfTwoPolicy", () => {
  it("without external side effects: a read-only floor and a deny over writer tools", () => {
    const c = buildRuleOfTwoPolicy({ untrustedInput: true, sensitiveData: true, externalSideEffects: false });
    expect(c).toMatchObject({ capability: "read-only", heldLegs: ["untrusted-input", "sensitive-data"], holdsFullTrifecta: false });
    const p = { untrustedInput: true, sensitiveData: true, externalSideEffects: false };
    expect(decide(p, "Write")).toBe("deny");
    expect(decide(p, "Bash")).toBe("deny");
    expect(decide(p, "WebFetch")).toBe("deny");
    expect(decide(p, "mcp__x__y")).toBe("deny");
    expect(decide(p, "Read")).toBe("allow");
    expect(decide(p, "Grep")).toBe("allow");
  });

  it("without sensitive data: sensitive tools are default-denied", () => {
    const c = buildRuleOfTwoPolicy({ untrustedInput: true, sensitiveData: false, externalSideEffects: true });
    expect(c.policy.defaultDenySensitive).toBe(true);
    expect(c.capability).toBeUndefined();
    const p = { untrustedInput: true, sensitiveData: false, externalSideEffects: true };
    expect(decide(p, "Read")).toBe("deny");
    expect(decide(p, "Bash")).toBe("deny");
    expect(decide(p, "Glob")).toBe("allow");
    expect(decide(p, "Write")).toBe("allow");
    expect(decide(p, "WebFetch")).toBe("allow");
  });

  it("without untrusted input: untrusted sources are denied", () => {
    const p = { untrustedInput: false, sensitiveData: true, externalSideEffects: true };
    expect(decide(p, "WebFetch")).toBe("deny");
    expect(decide(p, "WebSearch")).toBe("deny");
    expect(decide(p, "mcp__gh__get_issue")).toBe("deny");
    expect(decide(p, "Read")).toBe("allow");
    expect(decide(p, "Write")).toBe("allow");
  });

  it("surfaces the full trifecta instead of silently permitting it", () => {
    const c = buildRuleOfTwoPolicy({ untrustedInput: true, sensitiveData: true, externalSideEffects: true });
    expect(c).toMatchObject({ holdsFullTrifecta: true, heldLegs: ["untrusted-input", "sensitive-data", "external-side-effects"] });
  });
});
