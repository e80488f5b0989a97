import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createServer } from "node:net";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type ConfineStep, confineCommand, unixSocketFilter } from "../../src/policy/confine.js";

const hasBwrap = spawnSync("bwrap", ["--ro-bind", "/", "/", "true"]).status === 0;
const work = mkdtempSync(join(tmpdir(), "proctor-confine-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function run(command: string, omit: ConfineStep[] = []): { status: number | null; out: string } {
  const r = spawnSync("/bin/bash", ["-c", confineCommand(command, { cwd: work, omit })], { encoding: "utf8", timeout: 20_000 });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("unixSocketFilter", () => {
  it("is whole instructions ending in returns", () => {
    const f = unixSocketFilter();
    expect(f.length % 8).toBe(0);
    expect(new DataView(f.buffer).getUint16(f.length - 8, true)).toBe(0x06);
  });
});

describe.runIf(hasBwrap)("confined command (real bwrap)", () => {
  it("reads like bash -c", () => {
    const r = run("echo hello; ls / | head -1");
    expect(r.status).toBe(0);
    expect(r.out).toBe(execFileSync("/bin/bash", ["-c", "echo hello; ls / | head -1"], { encoding: "utf8" }));
  });

  it("refuses redirections and sed w into the work dir; the recipe is what refuses", () => {
    expect(run("echo x > pwned1").status).not.toBe(0);
    run("sed -e 'w PWNED' --version");
    expect(existsSync(join(work, "pwned1")) || existsSync(join(work, "PWNED"))).toBe(false);
  });

  it("refuses socket(AF_UNIX) only with the seccomp step", () => {
    const py = `python3 -c 'import socket; socket.socket(socket.AF_UNIX); print("OPENED")'`;
    expect(run(py).out).not.toContain("OPENED");
    expect(run(py, ["seccompUnix"]).out).toContain("OPENED");
  });

  it("refuses a remount of / only with --cap-drop ALL (as root)", () => {
    const c = "mount -o remount,rw / && echo REMOUNTED";
    expect(run(c).out).not.toContain("REMOUNTED");
    if (process.getuid?.() === 0) expect(run(c, ["capDrop"]).out).toContain("REMOUNTED");
  });

  it("refuses /dev/tcp only with --unshare-net", async () => {
    // spawn, not spawnSync: the listener runs on this event loop
    const server = createServer((s) => s.end());
    await new Promise<void>((res) => server.listen(0, "127.0.0.1", res));
    const port = (server.address() as { port: number }).port;
    const c = `exec 3<>/dev/tcp/127.0.0.1/${port} && echo CONNECTED`;
    const confined = spawnSync("/bin/bash", ["-c", confineCommand(c, { cwd: work })], { encoding: "utf8" });
    expect(confined.stdout).not.toContain("CONNECTED");
    const open = await new Promise<string>((res) => {
      const p = spawn("/bin/bash", ["-c", confineCommand(c, { cwd: work, omit: ["unshareNet"] })]);
      let o = "";
      p.stdout.on("data", (d: Buffer) => (o += d));
      p.on("close", () => res(o));
    });
    server.close();
    expect(open).toContain("CONNECTED");
  });

  it("keeps a work dir under /tmp visible only with the re-bind", () => {
    expect(run("pwd").out.trim()).toBe(work);
    expect(run("pwd", ["rebindWorkDir"]).status).not.toBe(0);
  });
  it("refuses a sysctl write only with /proc/sys read-only (writes back the same value, as root)", () => {
    const c = "v=$(cat /proc/sys/vm/overcommit_ratio); echo $v > /proc/sys/vm/overcommit_ratio && echo WROTE";
    expect(run(c).out).not.toContain("WROTE");
    if (process.getuid?.() === 0) expect(run(c, ["procSysRo"]).out).toContain("WROTE");
  });

  it("refuses a writer run by git config (core.pager) in the work dir", () => {
    run("git init -q . 2>/dev/null; git -c core.pager='touch PAGER_PWNED' -p log");
    expect(existsSync(join(work, "PAGER_PWNED"))).toBe(false);
  });
});
