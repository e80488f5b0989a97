/**
 * Nothing outlives a run, proved on the real binary: a script driving runHarness, and `proctor
 * run`, are killed mid-tool-call (the agent's Bash `true && sleep 30` is running: claude 2.1.332 refuses a leading sleep) by SIGINT, SIGTERM,
 * SIGHUP or SIGKILL; afterwards no process of the run is left — found by the marker variable the
 * run's spec.env sets and by the process groups the run's processes were in, never by name — and
 * the temp dir the driver was given is empty.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../helpers/cli.js";

const DRIVER = new URL("./fixtures/driver.mjs", import.meta.url).pathname;
const SLOW_EVAL = new URL("./fixtures/slow.eval.mjs", import.meta.url).pathname;
const linux = process.platform === "linux";

interface Proc {
  readonly pid: number;
  readonly pgrp: number;
  readonly cmd: string;
}

/** Live (not zombie) processes, with their group and command line, that match `keep`. */
function processes(keep: (pid: string, pgrp: number) => boolean): Proc[] {
  const out: Proc[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (fields[0] === "Z" || !keep(name, Number(fields[2]))) continue;
      out.push({ pid: Number(name), pgrp: Number(fields[2]), cmd: readFileSync(`/proc/${name}/cmdline`, "utf8").replace(/\0/g, " ").trim() });
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

const marked = (mark: string) => processes((pid) => {
  try {
    return readFileSync(`/proc/${pid}/environ`).includes(Buffer.from(`RUN_MARK=${mark}\0`));
  } catch {
    return false;
  }
});
/** The supervisor a driver started (its pid is in the supervisor's argv). */
const supervisorOf = (driverPid: number) => processes((pid) => {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(`proctor-supervisor-of=${driverPid}\0`);
  } catch {
    return false;
  }
});
const inGroups = (groups: ReadonlySet<number>) => processes((_, pgrp) => groups.has(pgrp));

async function waitFor<T>(probe: () => T, done: (value: T) => boolean, seconds: number): Promise<T> {
  let value = probe();
  for (let i = 0; i < seconds * 10 && !done(value); i++) {
    await new Promise((r) => setTimeout(r, 100));
    value = probe();
  }
  return value;
}

let cleanupAfter: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanupAfter) f();
  cleanupAfter = [];
});

/** Start a driver with its own TMPDIR and a run marker; resolve once the agent's `sleep 30` runs. */
async function startDriver(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; driverPid: number; mark: string; tmp: string; groups: Set<number>; output: () => string }> {
  const tmp = mkdtempSync(path.join(tmpdir(), "proctor-hygiene-"));
  const mark = `mark-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env, TMPDIR: tmp, DRIVER_MARK: mark }, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (d) => (output += d));
  child.stderr!.on("data", (d) => (output += d));
  cleanupAfter.push(() => {
    child.kill("SIGKILL");
    for (const p of marked(mark)) process.kill(p.pid, "SIGKILL");
    rmSync(tmp, { recursive: true, force: true });
  });
  const sleeping = await waitFor(() => marked(mark), (ps) => ps.some((p) => p.cmd === "sleep 30") || child.exitCode !== null, 60);
  expect(sleeping.map((p) => p.cmd), `the agent's sleep never started; driver said:\n${output}`).toContain("sleep 30");
  expect(supervisorOf(child.pid!)).toHaveLength(1);
  return { child, driverPid: child.pid!, mark, tmp, groups: new Set(sleeping.map((p) => p.pgrp)), output: () => output };
}

/**
 * After the driver is gone: no marked process, nothing in the run's groups, an empty TMPDIR.
 * `atExit`: the driver cleaned up before it died, so look once, right away; otherwise (SIGKILL,
 * which no handler sees) give the supervisor its time.
 */
async function expectNothingLeft(run: { mark: string; tmp: string; groups: Set<number>; driverPid: number }, atExit: boolean): Promise<void> {
  const seconds = atExit ? 0 : 20;
  const left = await waitFor(() => [...marked(run.mark), ...inGroups(run.groups)], (ps) => ps.length === 0, seconds);
  expect(left, "processes of the run still alive").toEqual([]);
  const files = await waitFor(() => readdirSync(run.tmp), (f) => f.length === 0, seconds);
  expect(files, "temp dirs left in the driver's TMPDIR").toEqual([]);
  // The supervisor goes too, once its driver is gone.
  const supervisor = await waitFor(() => supervisorOf(run.driverPid), (ps) => ps.length === 0, 20);
  expect(supervisor, "the supervisor outlived its driver").toEqual([]);
}

describe.runIf(linux)("nothing outlives a run (real claude binary)", () => {
  it.each(["SIGINT", "SIGTERM", "SIGKILL"] as const)("a script calling runHarness, killed by %s mid-tool-call, leaves no process and no temp dir", async (signal) => {
    const run = await startDriver([DRIVER]);
    // The run's processes sit in groups other than the driver's: the group kill cannot hit the test.
    expect(run.groups.has(process.pid)).toBe(false);
    run.child.kill(signal);
    const [code, diedOf] = (await once(run.child, "exit")) as [number | null, NodeJS.Signals | null];
    // With no handler of its own, the script dies of the signal, as it would without proctor.
    expect({ code, diedOf }, run.output()).toEqual({ code: null, diedOf: signal });
    await expectNothingLeft(run, signal !== "SIGKILL");
  });

  it("a script with its own SIGINT handler decides: it aborts the run, which is cleaned up before the promise settles", async () => {
    const run = await startDriver([DRIVER], { OWN_HANDLER: "1" });
    run.child.kill("SIGINT");
    const [code] = (await once(run.child, "exit")) as [number | null];
    expect(code, run.output()).toBe(3);
    expect(run.output()).toContain("run ended: killed");
    await expectNothingLeft(run, true);
  });

  it.each([
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const)("proctor run, stopped by %s, cleans up, says which evals were cut short and exits %i", async (signal, exitCode) => {
    const run = await startDriver([CLI, "run", SLOW_EVAL, "--mock", "--quiet"]);
    run.child.kill(signal);
    const [code] = (await once(run.child, "exit")) as [number | null];
    expect(code, run.output()).toBe(exitCode);
    expect(run.output()).toContain(`proctor run: interrupted by ${signal}`);
    expect(run.output()).toMatch(/cut short:\n {2}slow sleeper: cut short after 1 of 2 trials\n {2}never started: not started/);
    await expectNothingLeft(run, true);
  });

  it("proctor run stopped by SIGHUP (its terminal closed) cleans up and exits 129", async () => {
    const run = await startDriver([CLI, "run", SLOW_EVAL, "--mock", "--quiet"]);
    run.child.kill("SIGHUP");
    const [code] = (await once(run.child, "exit")) as [number | null];
    expect(code, run.output()).toBe(129);
    await expectNothingLeft(run, true);
  });

  it("proctor run killed by SIGKILL leaves no process and no temp dir", async () => {
    const run = await startDriver([CLI, "run", SLOW_EVAL, "--mock", "--quiet"]);
    run.child.kill("SIGKILL");
    await once(run.child, "exit");
    await expectNothingLeft(run, false);
  });
});
