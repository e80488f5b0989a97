/**
 * The README's gate hook, taken from README.md as written (its settings JSON and its policy YAML),
 * copied into a fixture's .claude/ and run through the real claude (whichever PROCTOR_CLAUDE
 * selects; CI runs both): with PROCTOR_BIN set as the README says, the gate runs and denies the
 * recursive delete on its policy's word, a healthy trial; without it the hook cannot start inside
 * the trial, and the trial is unhealthy — never a pass of `denied`.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect as vexpect, it } from "vitest";
import { runHarness } from "../../harness/index.js";
import { denied, measure } from "../../src/index.js";
import { CLI } from "../helpers/cli.js";
import { claudeVersion } from "../helpers/claude-version.js";

const README = readFileSync(new URL("../../README.md", import.meta.url), "utf8");

/** The fenced block of `lang` in the README whose text matches `marker` (exactly one). */
function readmeBlock(lang: string, marker: RegExp): string {
  const blocks = [...README.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, "gm"))].map((m) => m[1] ?? "").filter((b) => marker.test(b));
  if (blocks.length !== 1) throw new Error(`README.md has ${blocks.length} \`\`\`${lang} blocks matching ${marker}; this test reads exactly one`);
  return blocks[0] as string;
}

const SETTINGS = readmeBlock("json", /" gate --purity/);
const POLICY = readmeBlock("yaml", /^# \.claude\/proctor-policy\.yaml/);
const TS = readmeBlock("ts", /PROCTOR_BIN/);

// What the test's package install would hold: node_modules/.bin/proctor, an executable that runs the bin.
const bin = mkdtempSync(join(tmpdir(), "proctor-readme-bin-"));
const PROCTOR_BIN = join(bin, "proctor");
writeFileSync(PROCTOR_BIN, `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
chmodSync(PROCTOR_BIN, 0o755);
afterAll(() => rmSync(bin, { recursive: true, force: true }));

async function runReadmeGate(env: Record<string, string>) {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  const result = await runHarness({
    prompt: "clean up",
    files: { ".claude/settings.json": SETTINGS, ".claude/proctor-policy.yaml": POLICY, "build/out.txt": "built\n" },
    env,
    sandbox: { off: "the gate confines each call itself; bubblewrap cannot nest inside claude's sandbox" },
    timeoutMs: 90_000,
    reject: false,
    script: { turns: [{ tools: [{ name: "Bash", input: { command: "rm -rf build" } }] }, { text: "Stopped." }] },
  });
  await result.cleanup();
  return result.trace;
}

describe(`the README's gate hook, as written, in a trial (claude ${claudeVersion()})`, { timeout: 180_000 }, () => {
  it("the README's test example sets what this test sets", () => {
    vexpect(TS).toContain("env: { PROCTOR_BIN:");
    vexpect(TS).toContain("sandbox: { off:");
    vexpect(SETTINGS).toContain("${PROCTOR_BIN:-$CLAUDE_PROJECT_DIR/node_modules/.bin/proctor}");
    vexpect(JSON.parse(SETTINGS)).toHaveProperty("hooks.PreToolUse");
  });

  it("with PROCTOR_BIN the gate runs and denies on its policy's word: a healthy trial", async () => {
    const trace = await runReadmeGate({ PROCTOR_BIN });
    vexpect(trace.health?.items.filter((i) => i.status === "failed")).toEqual([]);
    const hook = trace.hooks.find((h) => h.name === "PreToolUse:Bash");
    vexpect(hook?.decision).toBe("deny");
    vexpect(hook?.stdout).toMatch(/no recursive deletes/);
    const report = await measure({ run: () => trace, checks: [denied("Bash", { command: /rm -rf/ }, { by: "hook" })], trials: 1, progress: false });
    vexpect([report.trials.errored, report.checks[0]?.passes]).toEqual([0, 1]);
  });

  it("without it the hook cannot start in the trial: unhealthy, naming the hook and what the shell printed — never a pass of denied", async () => {
    const trace = await runReadmeGate({});
    const item = trace.health?.items.find((i) => i.name === "hooks-ok");
    vexpect(item?.status).toBe("failed");
    vexpect(item?.message).toMatch(/PreToolUse:Bash could not start its command \(exit 2, which claude took as a deliberate block\): \/bin\/sh: \d+: .*\/work\/node_modules\/\.bin\/proctor: not found/);
    const report = await measure({ run: () => trace, checks: [denied("Bash", { command: /rm -rf/ })], trials: 1, progress: false });
    vexpect([report.trials.errored, report.checks[0]?.passes, report.errors[0]?.code, report.errors[0]?.health]).toEqual([1, 0, "RUN_UNHEALTHY", ["hooks-ok"]]);
  });
});
