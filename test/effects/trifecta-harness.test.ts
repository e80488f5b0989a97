/** What the README says of lethalTrifecta() on a default claude run, on the real binary: it fails, and passes once the network tools are taken away. */
import { describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { evalChecks } from "../../src/index.js";
import { lethalTrifecta } from "../../src/safety.js";

async function offered(spec: { disallowedTools?: string[] }) {
  const { trace, cleanup } = await runHarness({ prompt: "say ok", script: { turns: [{ text: "ok" }] }, ...spec });
  await cleanup();
  return evalChecks(trace, [lethalTrifecta()])[0];
}

describe("lethalTrifecta() over the tools a default run offers", () => {
  it("fails on a default run (WebFetch and WebSearch are offered) and passes without them", async () => {
    const [byDefault, withoutNetwork] = await Promise.all([offered({}), offered({ disallowedTools: ["WebFetch", "WebSearch"] })]);
    expect(byDefault.pass).toBe(false);
    expect(byDefault.message).toMatch(/untrusted input \(WebFetch, WebSearch\)/);
    expect(withoutNetwork.pass).toBe(true);
  });
});
