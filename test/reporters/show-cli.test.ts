/** `proctor show` as a real process: plain text off a terminal, colour on request, --checks, --html, Trace JSON input. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { readTranscript } from "../../src/index.js";
import { proctor } from "../helpers/cli.js";
import { makeTrace } from "../helpers/trace.js";

const fixture = new URL("../fixtures/transcripts/explore-subagent-lockfile-hook.jsonl", import.meta.url).pathname;
const dir = mkdtempSync(join(tmpdir(), "proctor-show-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const checks = join(dir, "checks.json");
writeFileSync(checks, JSON.stringify([{ kind: "notTool", name: "Write" }, { kind: "tool", name: "Glob" }]));

describe("proctor show", () => {
  it("prints a plain timeline when stdout is not a terminal, and colour with FORCE_COLOR", async () => {
    const plain = await proctor(["show", fixture]);
    expect(plain.exitCode).toBe(0);
    expect(plain.stdout).toContain("#2 ⊘ Write  /home/dev/wf2/package-lock.json  denied by hook");
    expect(plain.stdout).not.toMatch(/\x1b\[/);
    const coloured = await proctor(["show", fixture], { env: { FORCE_COLOR: "1" } });
    expect(coloured.stdout).toMatch(/\x1b\[33m⊘/);
  });

  it("with --checks, shows each failure at its call and exits 1", async () => {
    const r = await proctor(["show", fixture, "--checks", checks]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toMatch(/#2 ⊘ Write[\s\S]*✗ notTool\(Write\) {2}expected no call to Write[\s\S]*reply 1/);
    expect(r.stdout).toContain("checks 1 of 2 failed");
  });

  it("--html writes one self-contained page; a Trace JSON file works as input", async () => {
    const traceFile = join(dir, "trace.json");
    writeFileSync(traceFile, JSON.stringify(readTranscript(fixture), null, 2));
    const out = join(dir, "out", "pages", "trace.html"); // folders that do not exist yet are made
    const r = await proctor(["show", traceFile, "--checks", checks, "--html", out]);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain(`wrote ${out} (3 calls, 1 of 2 checks failed)`);
    const html = readFileSync(out, "utf8");
    expect(html).toContain('id="call-2"');
    expect(html).toContain("default-src 'none'");
  });

  it("exits 2 on a missing file or an invalid Trace, naming it", async () => {
    const missing = await proctor(["show", join(dir, "nope.jsonl")]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toContain("nope.jsonl: ENOENT");
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ version: 1, toolCalls: "x" }, null, 2));
    const invalid = await proctor(["show", bad]);
    expect(invalid.exitCode).toBe(2);
    expect(invalid.stderr).toMatch(/bad\.json looks like a Trace but is not a valid one[\s\S]*toolCalls/);
  });

  it("shows the command a hook rewrote a call to, and a hook's JSON answer as its decision and whole reason first", async () => {
    const reason = "rm -rf outside the work dir is refused by the project's gate; ask before deleting anything under /home or /etc, and keep temporary files in the work dir";
    const trace = makeTrace({
      calls: [
        { id: "t1", name: "Bash", input: { command: "ls" }, result: "a.txt", ran: { command: "proctor gate exec --confine -- ls", by: "hook" } },
        { id: "t2", name: "Bash", input: { command: "rm -rf /home/x" }, status: "denied", deniedBy: "hook", result: reason },
      ],
      hooks: [
        { name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: false, decision: "allow", output: JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "allow", updatedInput: { command: "proctor gate exec --confine -- ls" } } }), callId: "t1", at: 0 },
        { name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: true, decision: "deny", output: JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } }), callId: "t2", at: 1 },
      ],
    });
    const file = join(dir, "gate-trace.json");
    writeFileSync(file, JSON.stringify(trace));
    const r = await proctor(["show", file]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("ran proctor gate exec --confine -- ls  (rewritten by a hook)");
    // Decision, then the reason in full, readable: not escaped JSON cut before the reason.
    expect(r.stdout).toContain(`hook PreToolUse:Bash · exit 0 · blocked · deny: ${JSON.stringify(reason)}`);
    expect(r.stdout).toContain('hook PreToolUse:Bash · exit 0 · allow · updated input {"command":"proctor gate exec --confine -- ls"}');
    expect(r.stdout).not.toContain("hookSpecificOutput");
    const html = join(dir, "gate.html");
    await proctor(["show", file, "--html", html]);
    expect(readFileSync(html, "utf8")).toContain("ran <code>proctor gate exec --confine -- ls</code>");
  });
});
