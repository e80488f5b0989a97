/**
 * The strace-log reader against an independent oracle: random sequences of file operations run for
 * real through bash under the observer's strace command line, in a temp dir; the file system's
 * before/after difference says what changed, and every change must be among the effects read from
 * the log (and no effect may name a path outside the dir).
 */
import { spawnSync } from "node:child_process";
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { observerSupport } from "../../harness/observe/observer.js";
import { readStraceLog } from "../../harness/observe/read-log.js";
import { straceArgs } from "../../harness/observe/strace-args.js";
import type { ObservedEffect } from "../../src/trace/types.js";

/** Names with the characters strace escapes: spaces, quotes, `>`, non-ASCII; `sub/…` inside a directory. */
const NAMES = ["a", "b c", "q'd", 'é">', "sub", "sub/n"];
/** Symlink names: only ever created, so a later chmod or rename never goes through one. */
const LINKS = ["L1", "L2"];

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `cmd`, unless one of `names` is a FIFO: opening one with no reader would block the run (the FIFO itself is what is tested). */
const unlessFifo = (names: readonly string[], cmd: string) => `{ ${names.map((n) => `[ -p ${q(n)} ] || `).join("")}${cmd}; }`;

const op = fc.oneof(
  { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...NAMES, ...LINKS), fc.string({ maxLength: 5 })).map(([n, t]) => unlessFifo([n], `printf %s ${q(t)} > ${q(n)}`)) },
  { weight: 2, arbitrary: fc.constantFrom(...NAMES).map((n) => `mkdir ${q(n)}`) },
  fc.constantFrom(...NAMES).map((n) => unlessFifo([n], `printf x >> ${q(n)}`)),
  fc.constantFrom(...NAMES).map((n) => `rm -f ${q(n)}`),
  fc.constantFrom(...NAMES).map((n) => `rmdir ${q(n)}`),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES)).map(([a, b]) => `mv -f ${q(a)} ${q(b)}`),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...LINKS)).map(([a, l]) => `ln -s ${q(a)} ${q(l)}`),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom("600", "755", "444")).map(([n, m]) => `chmod ${m} ${q(n)}`),
  fc.constantFrom(...NAMES).map((n) => `mkfifo ${q(n)}`),
  fc.constantFrom(...NAMES).map((n) => unlessFifo([n], `truncate -s 0 ${q(n)}`)),
  fc.tuple(fc.constantFrom(...NAMES), fc.constantFrom(...NAMES)).map(([a, b]) => unlessFifo([a, b], `cp ${q(a)} ${q(b)}`)),
  fc.constantFrom("n", "m").map((n) => unlessFifo([`sub/${n}`], `(cd sub && printf y > ${q(n)})`)),
);

type Entry = { type: string; mode: number; content?: string; target?: string };

function snapshot(root: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      const st = lstatSync(p);
      const type = st.isSymbolicLink() ? "link" : st.isDirectory() ? "dir" : st.isFIFO() ? "fifo" : "file";
      out.set(p, { type, mode: st.mode & 0o7777, ...(type === "file" ? { content: readFileSync(p, "latin1") } : {}), ...(type === "link" ? { target: readlinkSync(p) } : {}) });
      if (type === "dir") walk(p);
    }
  };
  walk(root);
  return out;
}

const same = (a: Entry, b: Entry) => a.type === b.type && a.mode === b.mode && a.content === b.content && a.target === b.target;
const underOrSelf = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

/** Is the change at `p` explained by an effect? Removal or arrival through a renamed or removed ancestor counts. */
function explained(p: string, change: "created" | "modified" | "deleted", effects: readonly ObservedEffect[]): boolean {
  return effects.some((e) => {
    if (change === "deleted") return ((e.kind === "delete" || e.kind === "rmdir" || e.kind === "rename") && e.path !== undefined && underOrSelf(p, e.path)) || (e.kind === "rename" && e.to === p);
    if (e.kind === "rename") return e.to !== undefined && underOrSelf(p, e.to);
    return e.path === p && ["write", "create", "mkdir", "link", "chmod"].includes(e.kind);
  });
}

describe.skipIf(!observerSupport().usable)("strace log reader (property, real strace)", () => {
  it("every change the file system shows is among the effects read from the log, and no effect leaves the dir", () => {
    fc.assert(
      fc.property(fc.array(op, { minLength: 1, maxLength: 10 }), (ops) => {
        const root = realpathSync(mkdtempSync(path.join(tmpdir(), "proctor-observe-prop-")));
        const work = path.join(root, "w");
        const log = path.join(root, "strace.log");
        try {
          spawnSync("mkdir", [work]);
          const before = snapshot(work);
          const script = ops.map((o) => `${o} 2>/dev/null`).join("\n");
          const run = spawnSync("strace", [...straceArgs(log, true), "bash", "-c", script], { cwd: work, encoding: "utf8", timeout: 20_000 });
          expect(run.error).toBeUndefined();
          const after = snapshot(work);
          const parsed = readStraceLog(log);
          const effects = parsed.effects.filter((e) => e.errno === undefined);
          expect(parsed.gaps).toEqual([]);
          const changes: [string, "created" | "modified" | "deleted"][] = [];
          for (const [p, e] of after) {
            const b = before.get(p);
            if (!b) changes.push([p, "created"]);
            else if (!same(b, e)) changes.push([p, "modified"]);
          }
          for (const p of before.keys()) if (!after.has(p)) changes.push([p, "deleted"]);
          const missing = changes.filter(([p, c]) => !explained(p, c, effects));
          expect(missing, `script:\n${script}`).toEqual([]);
          const outside = effects.filter((e) => e.kind !== "exec" && e.kind !== "connect" && e.kind !== "signal" && e.path !== undefined && !underOrSelf(e.path, work));
          expect(outside, `script:\n${script}`).toEqual([]);
        } finally {
          rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 50 },
    );
  }, 240_000);
});
