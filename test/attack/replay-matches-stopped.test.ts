/**
 * A replay that stopped at a divergence did not replay what came after: ignoring the kind of the
 * divergence it stopped at does not make the untested rest a match.
 */
import { describe, expect, it } from "vitest";
import { evalChecks, replayMatches } from "../../src/index.js";
import { makeTrace } from "../helpers/trace.js";

const divergence = { kind: "result", agent: "main", turn: 1, callId: "toolu_1", tool: "Read", recorded: "a", now: "b", message: "Read (toolu_1) answered differently" } as const;

describe("replayMatches on a replay that stopped early", () => {
  it("fails even when the divergence it stopped at is ignored", () => {
    const trace = makeTrace({ calls: [{ id: "toolu_1", name: "Read" }], replay: { recording: "run.jsonl", divergences: [divergence], stoppedEarly: true } });
    const [r] = evalChecks(trace, [replayMatches({ ignore: ["result"] })]);
    expect(r.pass).toBe(false);
    expect(r.message).toMatch(/stopped/);
  });

  it("passes the same ignored divergence when the replay ran to the end", () => {
    const trace = makeTrace({ calls: [{ id: "toolu_1", name: "Read" }], replay: { recording: "run.jsonl", divergences: [divergence], stoppedEarly: false } });
    expect(evalChecks(trace, [replayMatches({ ignore: ["result"] })])[0].pass).toBe(true);
  });
});
