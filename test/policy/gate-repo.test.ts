/**
 * `proctor gate --purity bounded` judges a Bash command in the repository the hook event names
 * (`cwd`), with its own environment: the built CLI, hook JSON on stdin, a real repository per key
 * that real git proves hostile (test/effects/repo-context.test.ts), and the same command in a
 * clean repository.
 */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/effects/bash/classify.js";
import { execa } from "execa";
import { CLI } from "../helpers/cli.js";
import { shellQuote } from "../../src/policy/confine.js";
import { DEMOS, git, makeRepo, makeSandbox, markerExists, removeSandboxes, runShell, touch, type Demo } from "../helpers/git-repos.js";

afterAll(removeSandboxes);

/** The built CLI with exactly `env` (nothing inherited: the machine's git configuration must not leak in). */
const proctor = (args: string[], options: { input?: string; env: Record<string, string>; cwd?: string }) =>
  execa("node", [CLI, ...args], { reject: false, input: options.input ?? "", env: options.env, extendEnv: false, ...(options.cwd === undefined ? {} : { cwd: options.cwd }) });

const payload = (cwd: string, command: string) =>
  JSON.stringify({ session_id: "s", transcript_path: "/t", cwd, hook_event_name: "PreToolUse", permission_mode: "default", tool_name: "Bash", tool_input: { command }, tool_use_id: "toolu_1" });

async function gate(cwd: string, command: string, env: Record<string, string>) {
  const r = await proctor(["gate", "--purity", "bounded"], { input: payload(cwd, command), env, cwd: "/" });
  expect(r.exitCode, r.stderr).toBe(0);
  return r.stdout === "" ? undefined : (JSON.parse(r.stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string; updatedInput?: { command: string } });
}

/** Let through on the classifier's word: allowed, and confined (the command rewritten to run in bubblewrap). */
function expectConfined(answer: Awaited<ReturnType<typeof gate>>, command: string) {
  expect(answer?.permissionDecision).toBe("allow");
  expect(answer?.updatedInput?.command).toContain(`proctor-jail ${shellQuote(command)}`);
}

function demoRepo(demo: Demo, hostile: boolean) {
  const sb = makeSandbox();
  const repo = demo.create ? demo.create(sb, hostile) : makeRepo(sb, "repo", demo.attributes);
  demo.prepare?.(sb, repo);
  if (hostile) demo.setup(sb, repo);
  return { sb, repo, env: { ...sb.env, ...(hostile ? (demo.env?.(sb) ?? {}) : {}) } };
}

describe("proctor gate in the event's repository", () => {
  it.each(DEMOS.map((d) => [d.key, d] as const))("denies the command %s makes run a program, and lets it through in a clean repository", async (_, demo) => {
    const bad = demoRepo(demo, true);
    const denied = await gate(bad.repo, demo.command, bad.env);
    expect(denied?.permissionDecision).toBe("deny");
    expect(denied?.permissionDecisionReason).toMatch(/^proctor gate: \[purity bounded\] Bash command is (undecidable|side-effecting)/);

    const clean = demoRepo(demo, false);
    const answer = await gate(clean.repo, demo.command, clean.env);
    // In a clean repository the gate answers exactly what the text alone says (read-only: let through, confined).
    if (explainBash(demo.command, { cwd: clean.repo, env: clean.env }).effect === "read-only") expectConfined(answer, demo.command);
    else expect(answer?.permissionDecision).toBe("deny");
  });

  it("denies `git -C vendor/evil log --help` for a bare repository committed inside a cloned project, and inside it (man runs)", async () => {
    const sb = makeSandbox();
    const project = makeRepo(sb, "project");
    const evil = join(project, "vendor", "evil");
    for (const d of ["objects/info", "refs/heads"]) {
      mkdirSync(join(evil, d), { recursive: true });
      writeFileSync(join(evil, d, ".keep"), "");
    }
    writeFileSync(join(evil, "HEAD"), "ref: refs/heads/main\n");
    writeFileSync(join(evil, "config"), `[core]\n\tbare = true\n[log]\n\tshowSignature = true\n[man]\n\tviewer = x\n[man "x"]\n\tcmd = ${touch(sb)}\n`);
    git(sb, project, ["add", "-A"]);
    git(sb, project, ["commit", "-qm", "vendor"]);
    const victim = join(sb.root, "victim");
    git(sb, sb.root, ["clone", "-q", project, victim]);
    runShell(sb, victim, "git -C vendor/evil log --help");
    expect(markerExists(sb)).toBe(true);
    // `--help` runs man or a browser, so the text alone is already undecidable (issue 11's tool
    // grammar); the committed bare repository's own configuration is proven at the classifier level
    // in test/effects/repo-context.test.ts (textconv through its info/attributes).
    expect((await gate(victim, "git log --help", sb.env))?.permissionDecision).toBe("deny");
    const denied = await gate(victim, "git -C vendor/evil log --help", sb.env);
    expect(denied?.permissionDecision).toBe("deny");
    expect((await gate(join(victim, "vendor", "evil"), "git log --help", sb.env))?.permissionDecision).toBe("deny");
  });

  it("uses its own environment: PATH with a relative entry makes a bare command undecidable", async () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    expectConfined(await gate(repo, "ls -la", sb.env), "ls -la");
    const denied = await gate(repo, "ls -la", { ...sb.env, PATH: `.:${sb.env.PATH}` });
    expect(denied?.permissionDecisionReason).toMatch(/relative entry "\."/);
  });

  it("proctor bash-effect --cwd judges a command there, as the gate would", async () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    git(sb, repo, ["config", "diff.external", touch(sb)]);
    expect((await proctor(["bash-effect", "git diff"], { env: sb.env })).stdout).toBe("read-only");
    const r = await proctor(["bash-effect", "--explain", "--cwd", repo, "git diff"], { env: sb.env });
    expect(r.stdout).toMatch(/^undecidable\t`git diff` would run a program here: .*\.git\/config:\d+ sets diff\.external/);
  });

  it("judges an event without cwd in the gate's own directory", async () => {
    const sb = makeSandbox();
    const repo = makeRepo(sb);
    git(sb, repo, ["config", "core.fsmonitor", `${touch(sb)}; false`]);
    const input = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" } });
    const r = await proctor(["gate", "--purity", "bounded"], { input, env: sb.env, cwd: repo });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    cpSync(repo, join(sb.root, "copy"), { recursive: true }); // a copied repository carries its configuration
    expect((await gate(join(sb.root, "copy"), "git status", sb.env))?.permissionDecision).toBe("deny");
  });
});
