/** The isolation guarantee, proved against the real binary: a credential in the parent env reaches nothing. */
import { describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { startMockModel, type RawRequest } from "../../mock-model/index.js";
import { startTrap } from "./helpers.js";

const CANARY = "canary-7f3a9c1e5b";
const PLANTED = {
  ANTHROPIC_API_KEY: `sk-ant-${CANARY}`,
  ANTHROPIC_AUTH_TOKEN: CANARY,
  CLAUDE_CODE_OAUTH_TOKEN: CANARY,
  AWS_SECRET_ACCESS_KEY: CANARY,
  GITHUB_TOKEN: CANARY,
};

describe("isolation (real claude binary)", () => {
  it("never lets a parent credential reach the child, the mock, or a proxy; HOME and config are fresh temp dirs", async () => {
    // A proxy trap: if anything tried to leave through the parent's proxy setting, it would land here.
    const trap = await startTrap();
    const { trapped, url: proxy } = trap;
    const raw: RawRequest[] = [];
    const mock = await startMockModel({ onRequest: (r) => raw.push(r) });
    const saved = { ...process.env };
    Object.assign(process.env, PLANTED, { HTTPS_PROXY: proxy, HTTP_PROXY: proxy });
    try {
      const { trace, workDir, cleanup } = await runHarness({
        mock,
        prompt: "show me your environment",
        allowedTools: ["Bash"],
        script: { turns: [{ tools: [{ name: "Bash", input: { command: "env > env.txt; ls -a ~ > home.txt" } }] }, { text: "Done." }] },
      });
      await cleanup();
      const env = trace.files?.changes.find((c) => c.path === "env.txt")?.content ?? "";
      expect(env).toContain("ANTHROPIC_BASE_URL=" + mock.url);
      expect(env).toMatch(new RegExp(`^HOME=${workDir.replace(/\/work$/, "/home")}$`, "m"));
      expect(env).not.toContain(CANARY);
      expect(env).not.toMatch(/^(HTTPS?_PROXY|ANTHROPIC_AUTH_TOKEN|CLAUDE_CODE_OAUTH_TOKEN)=/m);
      expect(trace.files?.changes.find((c) => c.path === "home.txt")?.content?.split("\n")).toContain(".claude");
      expect(raw.length).toBeGreaterThan(1);
      for (const r of raw) expect(JSON.stringify(r.headers) + r.body).not.toContain(CANARY);
      expect(trapped).toEqual([]);
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      await mock.close();
      trap.close();
    }
  });
});
