/**
 * Hooks that are about no tool call (Stop, SubagentStop, UserPromptSubmit, SessionStart) are part
 * of what the world answered: when a recording shows hook events, a run-level hook that now fires,
 * no longer fires or decides differently is a divergence.
 */
import { describe, expect, it } from "vitest";
import { diffReplay } from "../../src/trace/replay-diff.js";
import type { HookEvent } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const hook = (name: string, blocked: boolean, callId?: string): HookEvent => ({ name, event: name.split(":")[0], exitCode: 0, outcome: "success", blocked, output: "", at: 0, ...(callId ? { callId } : {}) });
const calls = [{ id: "toolu_1", name: "Bash", input: { command: "ls" } }];

describe("diffReplay: run-level hooks", () => {
  it("a UserPromptSubmit hook that now runs is a hook divergence", () => {
    const recorded = makeTrace({ calls, hooks: [hook("PreToolUse:Bash", false, "toolu_1"), hook("Stop", false)] });
    const now = makeTrace({ calls, hooks: [hook("UserPromptSubmit", false), hook("PreToolUse:Bash", false, "toolu_1"), hook("Stop", false)] });
    expect(diffReplay(recorded, now).map((d) => d.kind)).toEqual(["hook"]);
  });

  it("a Stop hook that no longer blocks is a hook divergence", () => {
    const recorded = makeTrace({ calls, hooks: [hook("PreToolUse:Bash", false, "toolu_1"), hook("Stop", true), hook("Stop", false)] });
    const now = makeTrace({ calls, hooks: [hook("PreToolUse:Bash", false, "toolu_1"), hook("Stop", false)] });
    expect(diffReplay(recorded, now).map((d) => d.kind)).toEqual(["hook"]);
  });

  it("the same run-level hooks are no divergence", () => {
    const recorded = makeTrace({ calls, hooks: [hook("PreToolUse:Bash", false, "toolu_1"), hook("Stop", true), hook("Stop", false)] });
    expect(diffReplay(recorded, makeTrace({ calls, hooks: recorded.hooks })).map((d) => d.kind)).toEqual([]);
  });
});
