import { describe, expect, it } from "vitest";
import { claudeCodeDialect, classifyTrifectaLegs, holdsLethalTrifecta } from "../../src/safety.js";

const legs = (tools: string[]) => classifyTrifectaLegs(tools, claudeCodeDialect);

describe("classifyTrifectaLegs", () => {
  it("puts Bash in private data and exfiltration, WebFetch in untrusted input and exfiltration", () => {
    expect(legs(["Bash", "WebFetch"])).toEqual({ privateData: ["Bash"], untrustedInput: ["WebFetch"], exfiltration: ["Bash", "WebFetch"] });
    expect(holdsLethalTrifecta(legs(["Bash", "WebFetch"]))).toBe(true);
  });
  it("treats MCP tools as untrusted input and an exfiltration channel", () => {
    expect(holdsLethalTrifecta(legs(["Read", "mcp__github__get_issue"]))).toBe(true);
  });
  it("does not flag two legs", () => {
    expect(holdsLethalTrifecta(legs(["Read", "Grep", "Edit"]))).toBe(false);
    expect(holdsLethalTrifecta(legs(["WebFetch", "WebSearch"]))).toBe(false);
  });
  it("drops the shell's legs only when it is pinned to an effect-free program", () => {
    expect(legs(["Bash(echo:*)", "WebFetch"]).privateData).toEqual([]);
    expect(legs(["Bash(git log:*)", "WebFetch"]).privateData).toEqual(["Bash"]);
    expect(legs(["Bash(*)", "WebFetch"]).privateData).toEqual(["Bash"]);
  });
  it("gives a wildcard every leg", () => {
    expect(holdsLethalTrifecta(legs(["*"]))).toBe(true);
  });
});
