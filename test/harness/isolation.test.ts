/** The isolation guarantee, proved against the real binary: nothing of the parent env but the allowlist reaches the run. */
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { startMockModel, type RawRequest } from "../../mock-model/index.js";
import { startTrap } from "./helpers.js";

const CANARY = "canary-7f3a9c1e5b";
/** Credentials under names a scrub list knows, and under names no list could know. */
const PLANTED = {
  ANTHROPIC_API_KEY: `sk-ant-${CANARY}`,
  ANTHROPIC_AUTH_TOKEN: CANARY,
  CLAUDE_CODE_OAUTH_TOKEN: CANARY,
  AWS_SECRET_ACCESS_KEY: CANARY,
  GITHUB_TOKEN: CANARY,
  DATABASE_URL: `postgres://app:${CANARY}@db.internal/prod`,
  MY_SERVICE_PWD: CANARY,
  STRIPE_SK: `sk_live_${CANARY}`,
  ZQX_PLAIN_NAME: CANARY,
  NODE_OPTIONS: `--title=${CANARY}`,
};

/** Every regular file under `dir`, as [path, content]. */
function filesUnder(dir: string): [string, Buffer][] {
  const out: [string, Buffer][] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.push([file, readFileSync(file)]);
  }
  return out;
}

describe("isolation (real claude binary)", () => {
  it("lets no parent variable outside the allowlist reach tool output, the trace, the mock, a proxy or any file of the run", async () => {
    // A proxy trap: if anything tried to leave through the parent's proxy setting, it would land here.
    const trap = await startTrap();
    const { trapped, url: proxy } = trap;
    const raw: RawRequest[] = [];
    const mock = await startMockModel({ onRequest: (r) => raw.push(r) });
    const saved = { ...process.env };
    Object.assign(process.env, PLANTED, { HTTPS_PROXY: proxy, HTTP_PROXY: proxy });
    let root: string | undefined;
    try {
      const result = await runHarness({
        mock,
        keep: true,
        prompt: "show me your environment",
        allowedTools: ["Bash"],
        env: { SPEC_FLAG: "from-the-spec" },
        script: { turns: [{ tools: [{ name: "Bash", input: { command: "env; env > env.txt; ls -a ~ > home.txt; echo tmp=$TMPDIR" } }] }, { text: "Done." }] },
      });
      const { trace, workDir } = result;
      root = path.dirname(workDir);
      const envOutput = trace.toolCalls[0]?.result ?? "";
      expect(trace.toolCalls[0]).toMatchObject({ name: "Bash", status: "success" });
      // The agent saw the allowlist, the spec's variable and the isolation variables…
      expect(envOutput).toContain("SPEC_FLAG=from-the-spec");
      expect(envOutput).toContain(`ANTHROPIC_BASE_URL=${mock.url}`);
      expect(envOutput).toMatch(new RegExp(`^HOME=${root}/home$`, "m"));
      expect(envOutput).toContain(`tmp=${root}/tmp`);
      expect(envOutput).toMatch(/^PATH=/m);
      // …and nothing else from the parent, under any name.
      for (const name of Object.keys(PLANTED).filter((k) => k !== "ANTHROPIC_API_KEY")) expect(envOutput).not.toMatch(new RegExp(`^${name}=`, "m"));
      // claude's sandbox sets its own proxy variables (its local filtering proxy); the parent's proxy is not among them.
      expect(envOutput).not.toContain(proxy);
      for (const m of envOutput.matchAll(/^HTTPS?_PROXY=(.*)$/gm)) expect(m[1]).toMatch(/@(localhost|127\.0\.0\.1):\d+$/);
      expect(envOutput).not.toContain(CANARY);
      expect(JSON.stringify(trace)).not.toContain(CANARY);
      expect(result.stdout + result.stderr).not.toContain(CANARY);
      expect(trace.files?.changes.find((c) => c.path === "home.txt")?.content?.split("\n")).toContain(".claude");
      expect(raw.length).toBeGreaterThan(1);
      for (const r of raw) expect(JSON.stringify(r.headers) + r.body).not.toContain(CANARY);
      // The env dump is in the work dir: the scan below would find a canary in any file the run left.
      const files = filesUnder(root);
      expect(files.map(([f]) => path.relative(root!, f))).toContain("work/env.txt");
      for (const [file, content] of files) expect(content.includes(CANARY), `${file} holds a canary`).toBe(false);
      expect(trapped).toEqual([]);
      // The CLI's own temp dir (claude-<uid>, its task output) is inside the run's TMPDIR, so it goes with the run.
      expect(readdirSync(path.join(root, "tmp")).some((name) => name.startsWith("claude-"))).toBe(true);
      await result.cleanup();
    } finally {
      for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
      Object.assign(process.env, saved);
      if (root) rmSync(root, { recursive: true, force: true });
      await mock.close();
      trap.close();
    }
  });
});
