/**
 * A replay says exactly what the recorded model said, with only the recording's work dir moved to
 * the replay's: a path that merely starts with the same characters (`/app` and `/application.log`)
 * is a different path and stays as it was said.
 */
import { describe, expect, it } from "vitest";
import { scriptFromTranscript } from "../../mock-model/index.js";
import type { TurnContext, TurnSpec } from "../../mock-model/script/types.js";

const recording = `${[
  { type: "system", subtype: "init", cwd: "/app", session_id: "s" },
  { type: "assistant", message: { id: "m1", model: "claude-opus-4-8", role: "assistant", stop_reason: "tool_use", content: [{ type: "tool_use", id: "toolu_1", name: "Bash", input: { command: "cat /app/notes.txt /application.log /apps/x" } }] }, parent_tool_use_id: null, session_id: "s" },
].map((e) => JSON.stringify(e)).join("\n")}\n`;

const context = (cwd: string): TurnContext => ({
  agent: "main",
  turn: 0,
  request: { agent: "main", system: `You are…\n - Primary working directory: ${cwd}\n`, messages: "", tools: [] },
  toolResults: [],
  body: {},
});

describe("scriptFromTranscript: moving the work dir", () => {
  it("rewrites the work dir and leaves paths that only share its prefix", async () => {
    const script = scriptFromTranscript(recording);
    const turn = script.turns[0];
    expect(typeof turn).toBe("function");
    const spec = (await (turn as (c: TurnContext) => TurnSpec | Promise<TurnSpec>)(context("/tmp/proctor-run-x/work"))) as TurnSpec;
    const call = spec.blocks?.find((b) => b.type === "tool_use") as { input: { command: string } } | undefined;
    expect(call?.input.command).toBe("cat /tmp/proctor-run-x/work/notes.txt /application.log /apps/x");
  });
});
