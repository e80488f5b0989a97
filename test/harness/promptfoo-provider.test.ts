/** The promptfoo provider called as promptfoo calls it: new Provider({ id, config }).callApi(prompt, { vars }). */
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { validateTrace } from "../../src/index.js";
import { ProctorProvider } from "../../harness/index.js";

const APP = fileURLToPath(new URL("../../examples/fixtures/app", import.meta.url));

describe("ProctorProvider", () => {
  it("runs the prompt through the real binary against the mock model: output, tokenUsage, cost, and the Trace in metadata", async () => {
    const provider = new ProctorProvider({ config: { fixture: APP } });
    expect(provider.id()).toBe("proctor");
    const script = { turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }], usage: { inputTokens: 100, outputTokens: 20 } }, { text: "Read it." }] };
    const r = await provider.callApi("read the notes", { vars: { script } });
    expect(r.error).toBeUndefined();
    expect(r.output).toBe("Read it.");
    const trace = validateTrace(r.metadata?.trace);
    expect(trace.toolCalls.map((c) => [c.name, c.status])).toEqual([["Read", "success"]]);
    expect(r.tokenUsage).toMatchObject({ completion: trace.usage!.outputTokens, total: expect.any(Number) });
    expect(r.tokenUsage!.total).toBe(trace.usage!.inputTokens + trace.usage!.cacheCreationTokens + trace.usage!.cacheReadTokens + trace.usage!.outputTokens);
    expect(r.cost).toBe(trace.usage!.costUsd);
    expect(r.metadata?.tier).toBe("mock");
  });

  it("a failed run is promptfoo's error (never a graded pass), with the partial Trace kept", async () => {
    const provider = new ProctorProvider({ config: { fixture: APP, script: { turns: [{ tools: [{ name: "Read", input: { file_path: "notes.txt" } }] }] } } });
    const r = await provider.callApi("read the notes");
    expect(r.error).toMatch(/proctor provider: the run failed: .*script/i);
    expect(r.metadata?.trace?.toolCalls[0]?.name).toBe("Read");
  });

  it("explains what is missing: a script for the mock tier, a key (or the tier) for the real one", async () => {
    expect((await new ProctorProvider({ config: { tier: "mock" } }).callApi("x")).error).toMatch(/the mock tier needs a script/);
    const key = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      expect((await new ProctorProvider({ config: {} }).callApi("x")).error).toMatch(/the real tier needs ANTHROPIC_API_KEY/);
    } finally {
      if (key !== undefined) process.env.ANTHROPIC_API_KEY = key;
    }
  });
});
