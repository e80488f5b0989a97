/** The progress line: live on a TTY, a few plain lines otherwise. */
import { describe, expect, it } from "vitest";
import { measure, tool } from "../../src/index.js";
import { renderProgress } from "../../src/measure/progress.js";
import { makeTrace, usage } from "../helpers/trace.js";

const state = {
  name: "bash-eval",
  done: 12,
  total: 20,
  errored: 1,
  checks: [
    { label: "tool(Bash)", passes: 5, n: 11 },
    { label: "notTool(Bash, {\"command\":/rm -rf/})", passes: 11, n: 11 },
  ],
  costUsd: 0.01234,
  elapsedMs: 12_345,
};

function sink(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, columns: 80, write: (t: string) => writes.push(t) } };
}

describe("renderProgress", () => {
  it("shows trials done/total, errors, each check's rate so far, cost and time", () => {
    expect(renderProgress(state)).toBe('bash-eval 12/20 trials · 1 errored · tool(Bash) 45% · notTool(Bash, {"command":/rm -rf/}) 100% · $0.0123 · 12.3 s');
  });
  it("fits a narrow terminal by folding checks into '+N more'", () => {
    expect(renderProgress(state, 80)).toBe("bash-eval 12/20 trials · 1 errored · tool(Bash) 45% · +1 more · $0.0123 · 12.3 s");
    expect(renderProgress(state, 70)).toBe("bash-eval 12/20 trials · 1 errored · +2 more · $0.0123 · 12.3 s");
    const tiny = renderProgress(state, 30);
    expect(tiny).toHaveLength(30);
    expect(tiny.endsWith("…")).toBe(true);
  });
});

describe("progress while measuring", () => {
  const run = () => makeTrace({ calls: [{ name: "Bash" }], usage });
  it("redraws one line in place on a TTY and ends it with a newline", async () => {
    const { writes, stream } = sink(true);
    await measure({ run, checks: [tool("Bash")], trials: 5, progress: { stream, mode: "live" } });
    expect(writes.every((w) => w.startsWith("\r\x1b[2K"))).toBe(true);
    expect(writes.at(-1)).toMatch(/5\/5 trials · tool\(Bash\) 100% · \$0\.1000 · [\d.]+ s\n$/);
  });
  it("writes plain lines (no escapes) when not a TTY: here just the final one", async () => {
    const { writes, stream } = sink(false);
    await measure({ run, checks: [tool("Bash")], trials: 5, name: "e", progress: { stream } });
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatch(/^e 5\/5 trials · tool\(Bash\) 100% · \$0\.1000 · [\d.]+ s\n$/);
  });
  it("adds why a run stopped to the final line", async () => {
    const { writes, stream } = sink(false);
    await measure({ run, checks: [tool("Bash")], trials: 50, budget: { maxUsd: 0.05 }, progress: { stream } });
    expect(writes.at(-1)).toContain("· cost budget $0.0500");
  });
  it("goes line-based under CI even on a TTY", async () => {
    const { createProgress } = await import("../../src/measure/progress.js");
    const { writes, stream } = sink(true);
    const p = createProgress({ stream }, { CI: "1" });
    p.update(state);
    p.finish(state);
    expect(writes.join("")).not.toContain("\x1b");
  });
});
