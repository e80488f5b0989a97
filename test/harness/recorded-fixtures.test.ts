/** The transcripts recorded with the harness (test/harness/fixtures/record-transcripts.mjs) read back as what they show. */
import { fileURLToPath } from "node:url";
import { describe, expect as vexpect, it } from "vitest";
import { denied, expect, mcp, readTranscript, skill } from "../../src/index.js";

const read = (name: string) => readTranscript(fileURLToPath(new URL(`../fixtures/transcripts/${name}.jsonl`, import.meta.url)));

describe("recorded harness transcripts", () => {
  it("harness-skill-activation: a plugin skill launches, then the command its project allows runs", () => {
    const t = read("harness-skill-activation");
    expect(t, [skill("repo-hygiene:run-checks")]);
    vexpect(t.toolCalls.map((c) => [c.name, c.status])).toEqual([["Skill", "success"], ["Bash", "success"]]);
    vexpect(t.toolCalls[1].result).toBe("checks passed for demo-app");
    vexpect(t.hooks.map((h) => h.name)).toEqual(["PreToolUse:Bash", "Stop"]);
  });

  it("harness-mcp-call: a stdio MCP server's tool is called and answers", () => {
    const t = read("harness-mcp-call");
    expect(t, [mcp("echo", "echo")]);
    vexpect(t.source.mcpServers).toEqual([{ name: "echo", status: "connected" }]);
    vexpect(t.toolCalls[0].result).toBe("echo: ping");
  });

  it("harness-api-529: retries run out and the run ends in an API error", () => {
    const t = read("harness-api-529");
    vexpect(t.outcome).toMatchObject({ isError: true, apiErrorStatus: 529 });
    vexpect(t.errors.map((e) => e.kind)).toEqual(["api-error"]);
    vexpect(t.replies).toEqual([]);
  });

  it("harness-max-turns: the turn limit ends the run", () => {
    vexpect(read("harness-max-turns").outcome).toMatchObject({ subtype: "error_max_turns", isError: true });
  });

  it("harness-dontask-denial: dontAsk denies what was not pre-approved", () => {
    const t = read("harness-dontask-denial");
    expect(t, [denied("Bash", { command: "touch b.txt" }, { by: "permission" })]);
    vexpect(t.toolCalls.map((c) => [c.name, c.status, c.deniedBy])).toEqual([["Bash", "denied", "permission"], ["Read", "success", undefined]]);
  });

  it("harness-accept-edits-denials: acceptEdits denies approval-needing commands and paths outside the project", () => {
    const t = read("harness-accept-edits-denials");
    vexpect(t.source.permissionMode).toBe("acceptEdits");
    vexpect(t.toolCalls.map((c) => [c.name, c.status, c.deniedBy])).toEqual([
      ["Bash", "denied", "permission"],
      ["Bash", "denied", "permission"],
      ["Write", "denied", "permission"],
      ["Write", "success", undefined],
    ]);
  });
});
