/**
 * How a jailed trial's refusals are read from what its programs printed (harness/claude/jail.ts):
 * fixed lines from bash, coreutils, node, python and perror, and a property whose oracle is the
 * template that wrote the line — it knows the path and the errno it put there.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { attributeJailDenials, jailRefusals, mockPort, settingsPaths } from "../../harness/claude/jail.js";
import { runHarness } from "../../harness/claude/run-harness.js";
import { refuseSandboxConflict } from "../../harness/claude/sandbox.js";
import type { ToolCall, Trace } from "../../src/trace/types.js";

const ROOT = "/tmp/proctor-run-AbC123";

function traceWith(results: readonly { result: string; status?: ToolCall["status"]; name?: string }[], hookStderr: string[] = []): Trace {
  return {
    toolCalls: results.map((r, i) => ({ id: `t${i}`, name: r.name ?? "Bash", input: {}, status: r.status ?? "failure", result: r.result })),
    hooks: hookStderr.map((stderr, i) => ({ name: "PreToolUse:Bash", event: "PreToolUse", exitCode: 0, outcome: "success", blocked: false, output: "", stderr, at: i })),
    errors: [],
  } as unknown as Trace;
}

describe("the jail's refusals in a trial's output", () => {
  it("reads the path before the error text, the errno and what was refused", () => {
    const refused = jailRefusals(
      traceWith([
        { result: "/bin/bash: line 1: /work/x/y: Read-only file system" },
        { result: "touch: cannot touch '/etc/z': Read-only file system" },
        { result: "Error: EROFS: read-only file system, open '/srv/a.txt'" },
        { result: "socket: Permission denied" },
        { result: "io_uring_setup: Operation not permitted" },
        { result: "mount: /: permission denied." },
        { result: "flock: No locks available" },
        { result: "all fine\nnothing refused" },
        { result: `/bin/bash: ${ROOT}/work/secret: Permission denied` },
      ]),
      ROOT,
    );
    expect(refused.map((r) => [r.callId, r.what, r.target, r.errno])).toEqual([
      ["t0", "write", "/work/x/y", "EROFS"],
      ["t1", "write", "/etc/z", "EROFS"],
      ["t2", "write", "/srv/a.txt", "EROFS"],
      ["t3", "socket", "", "EACCES"],
      ["t4", "syscall", "", "EPERM"],
      ["t5", "mount", "", "EACCES"],
      ["t6", "lock", "", "ENOLCK"],
    ]);
  });

  it("names a hook's refusal by the hook, and marks only failed Bash calls denied by the sandbox", () => {
    const trace = traceWith(
      [
        { result: "x: Read-only file system", status: "failure" },
        { result: "x: Read-only file system", status: "success" },
        { result: "no refusal here", status: "failure" },
        { result: "write failed: EROFS: read-only file system, open '/o/m'", status: "success", name: "mcp__writer__write" },
      ],
      ["/bin/sh: 1: cannot create /o/h: Read-only file system"],
    );
    const refused = jailRefusals(trace, ROOT);
    expect(refused.filter((r) => r.owner === "PreToolUse:Bash").map((r) => r.target)).toEqual(["/o/h"]);
    expect(refused.filter((r) => r.owner === "writer").map((r) => r.target)).toEqual(["/o/m"]);
    const marked = attributeJailDenials(trace, ROOT);
    expect(marked.toolCalls.map((c) => [c.status, c.deniedBy])).toEqual([
      ["denied", "sandbox"],
      ["success", undefined],
      ["failure", undefined],
      ["success", undefined],
    ]);
  });

  it("property: each generated refusal line yields one entry with the path and errno its template put there", () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/).filter((s) => s !== "." && s !== "..");
    const outsidePath = fc.array(segment, { minLength: 1, maxLength: 5 }).map((parts) => `/${["srv", ...parts].join("/")}`);
    const templates: readonly [string, (p: string) => string][] = [
      ["EROFS", (p) => `/bin/bash: line 3: ${p}: Read-only file system`],
      ["EROFS", (p) => `touch: cannot touch '${p}': Read-only file system`],
      ["EROFS", (p) => `Error: EROFS: read-only file system, open '${p}'`],
      ["EROFS", (p) => `OSError: [Errno 30] Read-only file system: '${p}'`],
      ["EACCES", (p) => `/bin/sh: 1: cannot create ${p}: Permission denied`],
      ["EACCES", (p) => `PermissionError: [Errno 13] Permission denied: '${p}'`],
    ];
    fc.assert(
      fc.property(outsidePath, fc.integer({ min: 0, max: templates.length - 1 }), fc.boolean(), (p, t, insideRoot) => {
        const [errno, line] = templates[t] as [string, (p: string) => string];
        const target = insideRoot ? `${ROOT}/work${p}` : p;
        const refused = jailRefusals(traceWith([{ result: `before\n${line(target)}\nafter` }]), ROOT);
        // A permission refusal on a path inside the trial is the file's own mode, not the jail.
        if (errno === "EACCES" && insideRoot) return refused.length === 0;
        return refused.length === 1 && refused[0]?.target === target && refused[0]?.errno === errno && refused[0]?.callId === "t0";
      }),
      { numRuns: 300 },
    );
  });
});

describe("what a jailed trial refuses before it starts", () => {
  it("sandbox.jail: false on the mock tier (it always runs in the jail), naming the way out", async () => {
    await expect(runHarness({ prompt: "x", script: { turns: [{ text: "y" }] }, sandbox: { jail: false } })).rejects.toThrow(/spec\.sandbox\.jail is false, but the mock tier always runs in proctor's jail[\s\S]*sandbox: \{ off: "why" \}/);
  });

  it("claude's own sandbox turned on in the spec's settings (it cannot nest), naming both ways out", () => {
    const on = { on: true, allowedDomains: [], jail: true } as const;
    expect(() => refuseSandboxConflict("runHarness", { sandbox: { enabled: true } }, on, true)).toThrow(/cannot start[\s\S]*sandbox: \{ off: "why" \}/);
    expect(() => refuseSandboxConflict("runHarness", { sandbox: { enabled: true } }, on, false)).not.toThrow();
    expect(() => refuseSandboxConflict("runHarness", { sandbox: { enabled: true } }, { on: false, reason: "r" }, true)).toThrow(/enabled is true but the run's sandbox is off/);
  });

  it("a mock that is not on loopback: only 127.0.0.1 is served inside", () => {
    expect(mockPort("http://127.0.0.1:4567")).toEqual({ host: "127.0.0.1", port: 4567 });
    expect(() => mockPort("http://10.0.0.2:4567")).toThrow(/only 127\.0\.0\.1 is served[\s\S]*--no-sandbox/);
  });
});


describe("the paths a trial's own hook commands name", () => {
  it("are shown when they exist, each itself; the kernel's trees, / and missing paths are not", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "proctor-settings-paths-"));
    try {
      const script = path.join(dir, "go-on.mjs");
      writeFileSync(script, "");
      const settings = {
        hooks: {
          SubagentStop: [{ hooks: [{ type: "command", command: `node ${script}` }] }],
          PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `FOO=${dir}/missing.sh cat /proc/self/status; "${script}" && ls /` }] }],
        },
        statusLine: { type: "command", command: `sh ${dir}` },
        env: { NOT_A_COMMAND: script },
      };
      expect(settingsPaths(settings).sort()).toEqual([dir, script].sort());
      expect(settingsPaths(undefined)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
