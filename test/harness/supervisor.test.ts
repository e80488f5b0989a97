/**
 * The supervisor's bookkeeping, on the real script: any sequence of register/unregister messages,
 * then the driver's pipe closing without a goodbye, kills exactly the processes carrying a tag
 * still registered and removes exactly the dirs still registered; after a goodbye it does nothing.
 * The reference is a Map and a Set, as the driver's own registry keeps them.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
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
