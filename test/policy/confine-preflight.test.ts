/** The preflight's answers for made-up machines (the real one is exercised by the gate's tests), and the macOS profile. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { confinePreflightFor, findOnPath } from "../../src/policy/confine-preflight.js";
import { sandboxExecProfile, sandboxExecRewrite } from "../../src/policy/confine-shell.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-preflight-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const bin = join(dir, "bin");
mkdirSync(bin);
writeFileSync(join(bin, "bwrap"), "#!/bin/sh\n", { mode: 0o755 });
writeFileSync(join(bin, "not-executable"), "", { mode: 0o644 });
const ctx = { platform: "linux" as const, env: { PATH: bin, HOME: dir }, cwd: dir, uid: 0 };

describe("confinePreflightFor", () => {
  it("finds only executable files on PATH", () => {
    expect(findOnPath("bwrap", `/nonexistent::${bin}`)).toBe(join(bin, "bwrap"));
    expect(findOnPath("not-executable", bin)).toBeUndefined();
  });

  it("confines with the bwrap on PATH, or says how to install it", () => {
    expect(confinePreflightFor(ctx)).toEqual({ ok: true, confiner: { kind: "bwrap", path: join(bin, "bwrap"), perl: "/usr/bin/perl" } });
    const none = confinePreflightFor({ ...ctx, env: { PATH: "/nonexistent" } });
    expect(none).toMatchObject({ ok: false, why: "bubblewrap (bwrap) is not on PATH" });
    expect(!none.ok && none.howto).toMatch(/apt-get install -y bubblewrap/);
  });

  it("sees Claude Code's sandbox switched on by a --settings argument of an ancestor (inline JSON or a file)", () => {
    const file = join(dir, "s.json");
    writeFileSync(file, JSON.stringify({ sandbox: { enabled: true } }));
    for (const argv of [["claude", "-p", "--settings", '{"sandbox":{"enabled":true}}'], ["claude", `--settings=${file}`]]) {
      const answer = confinePreflightFor({ ...ctx, ancestors: () => [["/bin/sh", "-c", "hook"], argv] });
      expect(answer).toMatchObject({ ok: false, why: expect.stringMatching(/Claude Code's own sandbox is on \(sandbox\.enabled in --settings/) });
    }
    expect(confinePreflightFor({ ...ctx, ancestors: () => [["claude", "--settings", '{"sandbox":{"enabled":false}}']] }).ok).toBe(true);
  });

  it("names the platforms it cannot confine on", () => {
    expect(confinePreflightFor({ ...ctx, platform: "win32" })).toMatchObject({ ok: false, why: expect.stringMatching(/no confinement for win32/) });
  });
});

describe("the macOS rewrite (untested on macOS in CI)", () => {
  it("denies writes and network, allows the throw-away TMPDIR, and quotes the command", () => {
    const profile = sandboxExecProfile();
    expect(profile).toMatch(/\(deny file-write\*\)\n\(allow file-write\* \(subpath \(param "TMP"\)\)/);
    expect(profile).toContain("(deny network*)");
    expect(sandboxExecRewrite("echo 'x'", "/usr/bin/sandbox-exec")).toContain(`/bin/bash -c 'echo '\\''x'\\'''`);
  });
});
