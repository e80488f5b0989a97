/** The work-dir snapshot diff and the child environment, without the binary. */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { scrubEnv } from "../../harness/index.js";
import { buildChildEnv, ownedVariables } from "../../harness/claude/env.js";
import { diffSnapshots, takeSnapshot } from "../../harness/workdir/snapshot.js";

const dir = mkdtempSync(path.join(tmpdir(), "proctor-snapshot-test-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("work dir snapshots", () => {
  it("finds created, modified and deleted files, with content for small text only, ignoring .git", () => {
    const root = path.join(dir, "w");
    mkdirSync(path.join(root, "src"), { recursive: true });
    mkdirSync(path.join(root, ".git"), { recursive: true });
    writeFileSync(path.join(root, "keep.txt"), "same");
    writeFileSync(path.join(root, "src", "edit.ts"), "old");
    writeFileSync(path.join(root, "gone.txt"), "bye");
    const before = takeSnapshot(root);
    writeFileSync(path.join(root, "keep.txt"), "same");
    writeFileSync(path.join(root, "src", "edit.ts"), "new");
    rmSync(path.join(root, "gone.txt"));
    writeFileSync(path.join(root, "bin.dat"), Buffer.from([0, 1, 2]));
    writeFileSync(path.join(root, "big.txt"), "x".repeat(70_000));
    writeFileSync(path.join(root, ".git", "index"), "churn");
    symlinkSync("keep.txt", path.join(root, "link"));
    expect(diffSnapshots(root, before, takeSnapshot(root))).toEqual({
      source: "snapshot",
      changes: [
        { path: "big.txt", change: "created" },
        { path: "bin.dat", change: "created" },
        { path: "gone.txt", change: "deleted" },
        { path: "link", change: "created" },
        { path: "src/edit.ts", change: "modified", content: "new" },
      ],
    });
  });
});

describe("the child environment", () => {
  const parent = {
    PATH: "/usr/bin",
    LANG: "C.UTF-8",
    ANTHROPIC_API_KEY: "sk-real",
    ANTHROPIC_AUTH_TOKEN: "tok",
    CLAUDE_CODE_OAUTH_TOKEN: "oauth",
    CLAUDE_CODE_USE_BEDROCK: "1",
    CLAUDECODE: "1",
    AWS_SECRET_ACCESS_KEY: "aws",
    GITHUB_TOKEN: "gh",
    MY_SERVICE_PASSWORD: "pw",
    HTTPS_PROXY: "http://proxy:3128",
    IS_SANDBOX: "yes",
  };

  it("scrubs credentials, provider switches, proxies and sandbox switches, keeping the rest", () => {
    expect(scrubEnv(parent)).toEqual({ PATH: "/usr/bin", LANG: "C.UTF-8" });
  });

  it("sets the isolation variables last, so the spec's env cannot move HOME or the endpoint", () => {
    const env = buildChildEnv(parent, { FOO: "bar", HOME: "/root" }, { home: "/t/home", tmp: "/t/tmp", configDir: "/t/home/.claude", baseUrl: "http://127.0.0.1:1", apiKey: "sk-mock", maxRetries: 2 });
    expect(env).toMatchObject({ FOO: "bar", HOME: "/t/home", CLAUDE_CONFIG_DIR: "/t/home/.claude", ANTHROPIC_BASE_URL: "http://127.0.0.1:1", ANTHROPIC_API_KEY: "sk-mock", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1", CLAUDE_CODE_MAX_RETRIES: "2" });
    expect(env.ANTHROPIC_AUTH_TOKEN).toBeUndefined();
    expect(ownedVariables({ FOO: "1", ANTHROPIC_AUTH_TOKEN: "x", CLAUDE_CODE_USE_VERTEX: "1", CLAUDE_CODE_MAX_OUTPUT_TOKENS: "10" })).toEqual(["ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_USE_VERTEX"]);
  });
});
