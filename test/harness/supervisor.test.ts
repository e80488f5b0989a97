/**
 * The supervisor's bookkeeping, on the real script: any sequence of register/unregister messages,
 * then the driver's pipe closing without a goodbye, kills exactly the processes carrying a tag
 * still registered and removes exactly the dirs still registered; after a goodbye it does nothing.
 * The reference is a Map and a Set, as the driver's own registry keeps them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { SUPERVISOR_PROGRAM } from "../../harness/process/supervisor.js";

const root = mkdtempSync(path.join(tmpdir(), "proctor-supervisor-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const GROUPS = 3;
const DIRS = 3;

type Op = { op: "+g"; group: number; tag: number } | { op: "-g"; group: number } | { op: "+d"; dir: number } | { op: "-d"; dir: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ op: fc.constant("+g" as const), group: fc.nat(GROUPS - 1), tag: fc.nat(GROUPS - 1) }),
  fc.record({ op: fc.constant("-g" as const), group: fc.nat(GROUPS - 1) }),
  fc.record({ op: fc.constant("+d" as const), dir: fc.nat(DIRS - 1) }),
  fc.record({ op: fc.constant("-d" as const), dir: fc.nat(DIRS - 1) }),
);

/** A process alone in its own group, carrying tag `tag` as a run's processes do. */
function leader(tag: string): ChildProcess {
  const child = spawn("sleep", ["30"], { detached: true, stdio: "ignore", env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PROCTOR_RUN_TAG: tag } });
  child.unref();
  return child;
}

const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

describe.runIf(process.platform === "linux")("the supervisor script", () => {
  it("kills what is still registered, and only that, when the pipe closes", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(op, { maxLength: 12 }), fc.boolean(), async (ops, goodbye) => {
        run++;
        const tags = Array.from({ length: GROUPS }, (_, i) => `t${process.pid}x${run}x${i}`);
        const leaders = tags.map(leader);
        const exits = leaders.map((l) => once(l, "exit"));
        const dirs = Array.from({ length: DIRS }, (_, i) => path.join(root, `run ${run} dir ${i}`));
        for (const d of dirs) mkdirSync(d);
        try {
          const groups = new Map<number, number>(); // group index → tag index
          const registered = new Set<number>();
          const lines: string[] = [];
          for (const o of ops) {
            const pid = (i: number) => leaders[i]!.pid;
            if (o.op === "+g") {
              groups.set(o.group, o.tag);
              lines.push(`+g ${pid(o.group)} ${tags[o.tag]}`);
            } else if (o.op === "-g") {
              groups.delete(o.group);
              lines.push(`-g ${pid(o.group)}`);
            } else if (o.op === "+d") {
              registered.add(o.dir);
              lines.push(`+d ${dirs[o.dir]}`);
            } else {
              registered.delete(o.dir);
              lines.push(`-d ${dirs[o.dir]}`);
            }
          }
          if (goodbye) lines.push("bye");
          const supervisor = spawn("/bin/sh", ["-c", SUPERVISOR_PROGRAM, "proctor-supervisor", "0", "proctor-supervisor-of=test"], { stdio: ["pipe", "ignore", "ignore"], env: {} });
          supervisor.stdin!.end(lines.map((l) => `${l}\n`).join(""));
          await once(supervisor, "exit");
          // A process dies when a registered entry names its tag (the tag sweep), whichever group the entry names.
          const doomed = new Set(goodbye ? [] : groups.values());
          await Promise.race([Promise.all(exits.map((e, i) => (doomed.has(i) ? e : undefined))), new Promise((r) => setTimeout(r, 5_000))]);
          expect(leaders.map(alive)).toEqual(tags.map((_, i) => !doomed.has(i)));
          expect(dirs.map((d) => existsSync(d))).toEqual(dirs.map((_, i) => goodbye || !registered.has(i)));
        } finally {
          for (const l of leaders) if (alive(l)) l.kill("SIGKILL");
          for (const d of dirs) rmSync(d, { recursive: true, force: true });
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);
});

/**
 * The whole path, through the module a driver uses: a real node process registers runs (a long
 * `sleep` in its own group, carrying its tag) and temp dirs with hostile names, unregisters some,
 * and dies by SIGKILL. Afterwards every registered sleep is dead and every registered dir gone;
 * what was unregistered, and a process whose tag merely starts with a registered tag, are untouched.
 */
describe.runIf(process.platform === "linux")("a driver killed by SIGKILL", () => {
  const live = path.resolve(import.meta.dirname, "../../dist/harness/process/live.js");
  const driver = path.join(root, "driver.mjs");
  writeFileSync(
    driver,
    `import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { trackDir, trackRun, untrackDir, untrackRun } from ${JSON.stringify(live)};
const plan = JSON.parse(process.argv[2]);
const sleep = (tag) => {
  const child = spawn("sleep", ["300"], { detached: true, stdio: "ignore", env: { PATH: process.env.PATH, PROCTOR_RUN_TAG: tag } });
  child.unref();
  return child.pid;
};
const out = { kept: [], doomed: [], bystander: [] };
for (const dir of plan.dirs) { mkdirSync(dir.path); trackDir(dir.path); for (let i = 0; i < dir.churn; i++) { untrackDir(dir.path); trackDir(dir.path); } if (dir.untrack) untrackDir(dir.path); }
for (const g of plan.groups) {
  const pid = sleep(g.tag);
  trackRun({ pgid: pid, tag: g.tag });
  for (let i = 0; i < g.churn; i++) { untrackRun(pid); trackRun({ pgid: pid, tag: g.tag }); }
  if (g.untrack) { untrackRun(pid); out.kept.push(pid); } else out.doomed.push(pid);
  // Same tag plus a suffix: not this run's, whatever a prefix match would say.
  out.bystander.push(sleep(g.tag + "0"));
}
process.stdout.write(JSON.stringify(out) + "\\n");
setInterval(() => {}, 1000);
`,
  );
  const aliveNow = (pid: number) => {
    try {
      process.kill(pid, 0);
      return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
    } catch {
      return false;
    }
  };
  // Any printable name a temp dir could have: spaces, quotes, globs, `$`, backslashes; not `/`, not a newline.
  const name = fc.string({ unit: fc.constantFrom(..." *?[]{}$`'\"\\~#%!&;|<>()-=abc0"), minLength: 1, maxLength: 12 }).filter((n) => n !== "." && n !== "..");
  let run = 0;

  it("kills the registered runs and removes the registered dirs, nothing else", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.record({ name, churn: fc.nat(3), untrack: fc.boolean() }), { selector: (d) => d.name, maxLength: 8 }),
        fc.array(fc.record({ churn: fc.nat(3), untrack: fc.boolean() }), { minLength: 1, maxLength: 4 }),
        async (dirSpecs, groupSpecs) => {
          run++;
          const base = path.join(root, `driver ${run}`);
          mkdirSync(base);
          const dirs = dirSpecs.map((d) => ({ path: path.join(base, d.name), churn: d.churn, untrack: d.untrack }));
          const groups = groupSpecs.map((g, i) => ({ tag: `${process.pid}d${run}g${i}`, ...g }));
          const child = spawn(process.execPath, [driver, JSON.stringify({ dirs, groups })], { stdio: ["ignore", "pipe", "inherit"] });
          const [line] = (await once(child.stdout!, "data")) as [Buffer];
          const pids = JSON.parse(line.toString()) as { kept: number[]; doomed: number[]; bystander: number[] };
          try {
            child.kill("SIGKILL");
            await once(child, "exit");
            const done = () => pids.doomed.every((p) => !aliveNow(p)) && dirs.every((d) => d.untrack || !existsSync(d.path));
            const until = Date.now() + 15_000;
            while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
            expect(pids.doomed.filter(aliveNow)).toEqual([]);
            expect(dirs.filter((d) => existsSync(d.path) !== d.untrack).map((d) => d.path)).toEqual([]);
            expect([...pids.kept, ...pids.bystander].filter((p) => !aliveNow(p))).toEqual([]);
            // A sibling the dirs' names could glob to is untouched.
            expect(existsSync(base)).toBe(true);
          } finally {
            for (const p of [...pids.kept, ...pids.doomed, ...pids.bystander]) if (aliveNow(p)) process.kill(p, "SIGKILL");
          }
        },
      ),
      {
        numRuns: 8,
        // Names that glob to their untracked siblings, whatever the random ones do.
        examples: [
          [
            [
              { name: "*", churn: 0, untrack: false },
              { name: "[ab]", churn: 1, untrack: false },
              { name: "a", churn: 0, untrack: true },
              { name: "b b", churn: 2, untrack: true },
              { name: "$HOME \\*", churn: 0, untrack: false },
            ],
            [
              { churn: 2, untrack: false },
              { churn: 1, untrack: true },
            ],
          ],
        ],
      },
    );
  }, 180_000);
});

describe.runIf(process.platform === "linux")("the leader check", () => {
  const live = path.resolve(import.meta.dirname, "../../dist/harness/process/live.js");
  const group = path.resolve(import.meta.dirname, "../../dist/harness/process/group.js");
  const state = (pid: number) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
    } catch {
      return "gone";
    }
  };
  const startOf = (pid: number) => {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]!;
  };

  it("still kills the group of a leader that exited unreaped when its driver died (an empty environment, the same start time)", async () => {
    // The leader starts a member that drops the environment (so no tag sweep finds it), then exits; the driver, busy, never reaps it.
    const driver = path.join(root, "zombie-driver.mjs");
    writeFileSync(
      driver,
      `import { spawn } from "node:child_process";
import { trackRun } from ${JSON.stringify(live)};
import { startTimeOf } from ${JSON.stringify(group)};
const tag = process.argv[2];
const leader = spawn("/bin/sh", ["-c", "env -i sleep 300 & echo $!; exec sleep 0.3"], { detached: true, stdio: ["ignore", "pipe", "ignore"], env: { PATH: process.env.PATH, PROCTOR_RUN_TAG: tag } });
trackRun({ pgid: leader.pid, tag, since: startTimeOf(leader.pid) });
leader.stdout.once("data", (d) => {
  process.stdout.write(JSON.stringify({ leader: leader.pid, member: Number(String(d).trim()) }) + "\\n", () => { for (;;); });
});
`,
    );
    const child = spawn(process.execPath, [driver, `${process.pid}zombie`], { stdio: ["ignore", "pipe", "inherit"] });
    const [line] = (await once(child.stdout!, "data")) as [Buffer];
    const { leader: leaderPid, member } = JSON.parse(line.toString()) as { leader: number; member: number };
    try {
      const until = Date.now() + 5_000;
      while (state(leaderPid) !== "Z" && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(state(leaderPid)).toBe("Z");
      child.kill("SIGKILL");
      await once(child, "exit");
      const deadline = Date.now() + 10_000;
      while (!["gone", "Z"].includes(state(member)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(state(member)).toMatch(/^(gone|Z)$/);
    } finally {
      if (!["gone", "Z"].includes(state(member))) process.kill(member, "SIGKILL");
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    }
  }, 30_000);

  it("signals a group whose leader started when the driver said, and never one whose leader started at another time", async () => {
    // Leaders without the tag: only the start time can vouch for them.
    const ours = spawn("sleep", ["30"], { detached: true, stdio: "ignore", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    const reused = spawn("sleep", ["30"], { detached: true, stdio: "ignore", env: { PATH: process.env.PATH ?? "/usr/bin:/bin" } });
    try {
      const oursExit = once(ours, "exit");
      const supervisor = spawn("/bin/sh", ["-c", SUPERVISOR_PROGRAM, "proctor-supervisor", "0", "proctor-supervisor-of=test"], { stdio: ["pipe", "ignore", "ignore"], env: {} });
      supervisor.stdin!.end(`+g ${ours.pid} t${process.pid}a ${startOf(ours.pid!)}\n+g ${reused.pid} t${process.pid}b ${Number(startOf(reused.pid!)) + 1}\n`);
      await once(supervisor, "exit");
      await Promise.race([oursExit, new Promise((r) => setTimeout(r, 5_000))]);
      expect(alive(ours)).toBe(false);
      expect(alive(reused)).toBe(true);
    } finally {
      for (const c of [ours, reused]) if (alive(c)) c.kill("SIGKILL");
    }
  }, 30_000);
});
