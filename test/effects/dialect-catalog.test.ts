/**
 * The Claude Code catalog must match the binary proctor tests with: every tool a real run of the
 * CLI in devDependencies advertises is classified, so an upgrade that adds a tool fails here
 * instead of being silently called "unknown".
 */
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { runCodex, runHarness } from "../../harness/index.js";
import { claudeCodeDialect, classifyToolEffect, codexDialect, BUILT_IN_TOOL_ACCESS } from "../../src/safety.js";
import { parseTranscript } from "../../src/index.js";

const unclassified = (tools: readonly string[]) => tools.filter((t) => !claudeCodeDialect.mcpToolPattern.test(t) && classifyToolEffect(t, claudeCodeDialect) === "unknown");

describe("claudeCodeDialect", () => {
  it("classifies every tool the real CLI advertises, in its init line and in its API request", async () => {
    const result = await runHarness({ prompt: "say hi", script: { turns: [{ text: "hi" }] } });
    try {
      const advertisedTools = result.trace.source.tools ?? [];
      const requestTools = (result.trace.modelRequests ?? []).flatMap((r) => r.tools.map((t) => t.name));
      expect(advertisedTools.length).toBeGreaterThan(5);
      expect(requestTools).toContain("Bash");
      expect(unclassified(advertisedTools), `unclassified tools in claude ${result.trace.source.agentVersion}'s init line`).toEqual([]);
      expect(unclassified(requestTools), `unclassified tools in claude ${result.trace.source.agentVersion}'s API request`).toEqual([]);
    } finally {
      await result.cleanup();
    }
  });

  it("classifies every tool in the recorded fixtures' init lines", () => {
    const dir = new URL("../fixtures/transcripts/", import.meta.url);
    const files = readdirSync(dir).filter((f) => f.endsWith(".jsonl"));
    expect(files.length).toBeGreaterThan(0);
    for (const f of files) {
      const tools = parseTranscript(readFileSync(new URL(f, dir), "utf8")).source.tools ?? [];
      expect(unclassified(tools), f).toEqual([]);
    }
  });

  it("keeps older tool names classified", () => {
    expect(unclassified(["Task", "MultiEdit", "LS", "BashOutput", "KillBash", "KillShell", "TodoWrite", "NotebookRead", "ExitPlanMode"])).toEqual([]);
  });

  it("gives every Claude Code file tool an access class for the rungs", () => {
    for (const t of ["Read", "Glob", "Grep", "LS", "NotebookRead"]) expect(BUILT_IN_TOOL_ACCESS[t]).toBe("read");
    for (const t of ["Edit", "MultiEdit", "Write", "NotebookEdit"]) expect(BUILT_IN_TOOL_ACCESS[t]).toBe("write");
  });
});

describe("codexDialect", () => {
  it("classifies every tool the real codex binary offers in its API request", async () => {
    const result = await runCodex({ prompt: "say hi", script: { turns: [{ text: "hi" }] } });
    try {
      const offered = [...new Set((result.trace.modelRequests ?? []).flatMap((r) => r.tools.map((t) => t.name)))];
      expect(offered).toContain("exec_command");
      const unknown = offered.filter((t) => !codexDialect.mcpToolPattern.test(t) && classifyToolEffect(t, codexDialect) === "unknown");
      expect(unknown, `unclassified tools in codex ${result.trace.source.agentVersion ?? ""}'s API request`).toEqual([]);
    } finally {
      await result.cleanup();
    }
  });
});
