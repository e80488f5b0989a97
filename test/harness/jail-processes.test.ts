/**
 * The jail's process-count bound, for root too: RLIMIT_NPROC is not enforced for a caller that is
 * root outside, so a trial's jail joins a pids cgroup of PROCTOR_JAIL_PROCESSES tasks
 * (harness/claude/pids-cgroup.ts). A real trial forks past the bound; left out as root, the same
 * payload forks every child it asks for.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runHarness } from "../../harness/claude/run-harness.js";
import { jailTesting } from "../../harness/claude/jail.js";
import { spawnSync } from "node:child_process";
import { findOnPath } from "../../src/policy/confine-preflight.js";
import { bwrapRewrite } from "../../src/policy/confine-shell.js";
import { gatePidsGroup, openPidsCgroup, pidsCgroupBase } from "../../src/policy/pids-cgroup.js";
import { sandboxMissing } from "../../harness/claude/sandbox.js";

const missing = process.platform === "linux" ? sandboxMissing() : ["Linux"];
const isRoot = process.getuid?.() === 0;
const base = pidsCgroupBase();
const scratch = mkdtempSync(join(tmpdir(), "proctor-pids-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("where the pids cgroup lives", () => {
  const host = (cgroup: string, files: Record<string, string>) => {
    const dir = mkdtempSync(join(scratch, "h-"));
    for (const [f, text] of Object.entries(files)) {
      mkdirSync(join(dir, "fs", f, ".."), { recursive: true });
      writeFileSync(join(dir, "fs", f), text);
    }
    writeFileSync(join(dir, "cgroup"), cgroup);
    return pidsCgroupBase(join(dir, "cgroup"), join(dir, "fs"));
  };

  it("v1: the pids hierarchy at this process's path; v2: this process's group when it delegates pids; else none", () => {
    expect(host("8:pids:/a/b\n0::/\n", { "pids/a/b/cgroup.procs": "" })).toMatch(/\/fs\/pids\/a\/b$/);
    expect(host("8:cpu,pids:/\n", { "cpu,pids/cgroup.procs": "" })).toMatch(/\/fs\/cpu,pids$/);
    expect(host("0::/c\n", { "cgroup.controllers": "pids", "c/cgroup.subtree_control": "cpu pids\n" })).toMatch(/\/fs\/c$/);
    expect(host("0::/c\n", { "cgroup.controllers": "pids", "c/cgroup.subtree_control": "cpu\n" })).toBeUndefined();
    expect(host("8:pids:/gone\n", {})).toBeUndefined();
    expect(pidsCgroupBase(join(scratch, "no-such-file"))).toBeUndefined();
  });

  it.runIf(isRoot && base !== undefined)("makes a group with the bound, and removes it, killing what is left in it", () => {
    const group = openPidsCgroup(7, base);
    expect(group).toBeDefined();
    expect(readdirSync(base as string)).toContain(group?.dir.split("/").at(-1));
    group?.close();
    expect(readdirSync(base as string)).not.toContain(group?.dir.split("/").at(-1));
  });
});

/** Fork up to 400 sleeping children, say how many it got, kill them. */
const FORKS = `perl -e 'my @k; for (1..400) { my $p = fork; last unless defined $p; if (!$p) { sleep 60; exit 0 } push @k, $p } print "FORKED ", scalar(@k), "\\n"; kill 9, @k'`;

/** Observation off: strace following hundreds of forks is slow, and the bound is the jail's. */
async function forked(processes: number): Promise<number> {
  const before = process.env.PROCTOR_JAIL_PROCESSES;
  process.env.PROCTOR_JAIL_PROCESSES = String(processes);
  try {
    const { trace, cleanup } = await runHarness({ prompt: "go", observe: false, allowedTools: ["Bash"], script: { turns: [{ tools: [{ name: "Bash", input: { command: FORKS } }] }, { text: "done" }] } });
    await cleanup();
    const m = /FORKED (\d+)/.exec(String(trace.toolCalls[0]?.result ?? ""));
    if (!m) throw new Error(`the payload did not report: ${JSON.stringify(trace.toolCalls[0]?.result)}`);
    return Number(m[1]);
  } finally {
    if (before === undefined) delete process.env.PROCTOR_JAIL_PROCESSES;
    else process.env.PROCTOR_JAIL_PROCESSES = before;
  }
}

describe.skipIf(missing.length > 0)("a trial's process count is bounded", () => {
  it("PROCTOR_JAIL_PROCESSES=120: a fork loop in the agent's Bash stops short of it, and no group is left behind", async () => {
    const n = await forked(120);
    expect(n).toBeGreaterThan(0);
    expect(n).toBeLessThan(120);
    if (base) expect(readdirSync(base).filter((d) => d.startsWith(`proctor-jail-${process.pid}-`))).toEqual([]);
  });

  it.runIf(isRoot && base !== undefined)("as root, without the pids cgroup nothing bounds it: all 400 children start", async () => {
    jailTesting.omit = ["pidsCgroup"];
    try {
      expect(await forked(120)).toBe(400);
    } finally {
      jailTesting.omit = [];
    }
  });
});

describe.skipIf(missing.length > 0)("a command the gate confines is bounded too", () => {
  const bwrap = findOnPath("bwrap", process.env.PATH) as string;
  const gateRun = (pidsProcs: string | undefined) => {
    const text = bwrapRewrite(FORKS, scratch, bwrap, { PATH: process.env.PATH, PROCTOR_JAIL_PROCESSES: "60" }, pidsProcs ? { pidsProcs } : {});
    const r = spawnSync("/bin/bash", ["-c", text], { cwd: scratch, encoding: "utf8", timeout: 60_000 });
    const m = /FORKED (\d+)/.exec(r.stdout);
    if (!m) throw new Error(`the payload did not report: ${r.stdout} ${r.stderr}`);
    return Number(m[1]);
  };

  it.runIf(isRoot && base !== undefined)("as root the rewrite joins its pids group first: 60 tasks; without it all 400 children start", () => {
    // A private group with the bound (the gate's own shared one, proctor-gate-<uid>, is made by its preflight).
    const group = openPidsCgroup(60, base);
    try {
      expect(gateRun(group?.procs)).toBeLessThan(60);
    } finally {
      group?.close();
    }
    expect(gateRun(undefined)).toBe(400);
    expect(gatePidsGroup(512, base)).toMatch(/proctor-gate-0\/cgroup.procs$/);
  });

  it.runIf(!isRoot)("as a user that is not root RLIMIT_NPROC bounds it", () => {
    expect(gateRun(undefined)).toBeLessThan(400);
  });

  it("a group it cannot join stops the command before anything runs, saying so", () => {
    const r = spawnSync("/bin/bash", ["-c", bwrapRewrite("echo RAN", scratch, bwrap, { PATH: process.env.PATH }, { pidsProcs: join(scratch, "no-such-group", "cgroup.procs") })], { cwd: scratch, encoding: "utf8" });
    expect(r.stdout).not.toContain("RAN");
    expect(r.stderr).toMatch(/cannot confine this command: cannot join the process-count cgroup .*no-such-group/);
    expect(r.status).toBe(126);
  });
});
