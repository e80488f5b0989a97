/**
 * Recall: how many everyday read-only commands (everyday-commands.ts) the classifier calls
 * read-only. Each command is first shown to change nothing: all of them run under real bash, one
 * after another, in a scratch repository, which must be byte for byte and timestamp for timestamp
 * as it was (on a change, each runs alone in a fresh copy to name the culprit). Then the share
 * called read-only must not drop below the floor measured when the corpus was written
 * (docs/safety.md states it). A command added to the corpus that is not read-only fails the first
 * test; a classifier change that loses recall fails the second.
 */
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { explainBash } from "../../src/effects/bash/classify.js";
import { loadShellParser } from "../../src/effects/bash/parser.js";
import { EVERYDAY } from "./everyday-commands.js";

/** The share of EVERYDAY called read-only, text alone and in the scratch repository, when last measured. */
const RECALL_FLOOR = { text: 353 / 357, context: 353 / 357 };

const root = mkdtempSync(join(tmpdir(), "proctor-recall-"));
const pristine = join(root, "pristine");
const home = join(root, "home");
const env: Record<string, string> = {
  PATH: `${dirname(process.execPath)}:/usr/local/bin:/usr/bin:/bin`,
  HOME: home,
  LANG: "C",
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "t",
  GIT_AUTHOR_EMAIL: "t@example.test",
  GIT_COMMITTER_NAME: "t",
  GIT_COMMITTER_EMAIL: "t@example.test",
};

function run(cwd: string, command: string): void {
  const r = spawnSync("bash", ["-c", command], { cwd, env, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`fixture: \`${command}\` failed: ${r.stderr}`);
}

const FILES: Record<string, string> = {
  "README.md": "# Demo\n\nA readme. See docs/guide.md.\n\n## Use\nRun it.\n",
  "package.json": `${JSON.stringify({ name: "demo", version: "1.0.0", scripts: { test: "vitest", build: "tsc" }, dependencies: { a: "1" } }, null, 2)}\n`,
  "notes.txt": "beta\nalpha\nbeta\ngamma\n",
  "data.csv": "a,3\nb,1\nc,2\n",
  "data.json": `${JSON.stringify({ items: [1, 2, 3] })}\n`,
  "config.yaml": "name: demo\nversion: 2\n",
  "script.sh": "#!/bin/sh\necho hi\ntouch SHOULD_NOT_EXIST\n",
  "src/index.ts": "import { add } from './util';\n// TODO: more\nexport function main() {\n  return add(1, 2);\n}\n",
  "src/util.ts": "export function add(a: number, b: number) {\n  return a + b;\n}\n",
  "docs/guide.md": "# Guide\n\nThe guide.\n",
  ".gitignore": "node_modules\n",
};

/** The scratch repository: two commits on main, a feature branch, a tag, a stash, an upstream. */
function buildFixture(dir: string): void {
  mkdirSync(home, { recursive: true });
  for (const [name, body] of Object.entries(FILES)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), body);
  }
  run(dir, "git init -q -b main && git config core.checkStat minimal && git config core.trustctime false && git add -A && git commit -qm one");
  run(dir, "echo 'more' >> README.md && git commit -qam two && git tag v1.0 && git branch feature HEAD~1");
  run(dir, "git config remote.origin.url /nonexistent && git config remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*' && git config branch.main.remote origin && git config branch.main.merge refs/heads/main && git update-ref refs/remotes/origin/main HEAD~1");
  run(dir, "echo stash >> notes.txt && git stash -q");
  mkdirSync(join(dir, "arch"));
  writeFileSync(join(dir, "arch", "a.txt"), "in the archive\n");
  run(dir, "tar cf x.tar -C arch a.txt && tar czf x.tgz -C arch a.txt && printf 'gz\\n' | gzip > x.gz && printf 'xz\\n' | xz > x.xz && printf 'bz\\n' | bzip2 > x.bz2 && rm -r arch");
  run(dir, `python3 -c "import zipfile; z = zipfile.ZipFile('x.zip', 'w'); z.writestr('a.txt', 'zipped\\n'); z.close()"`);
  // Old timestamps, then one status: no later command finds a racily clean entry to refresh.
  const old = new Date("2020-01-01T00:00:00Z");
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.name === ".git") continue;
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      utimesSync(p, old, old);
    }
  };
  walk(dir);
  run(dir, "git status >/dev/null && git update-index --refresh >/dev/null || true");
}

/** Every entry under `dir`: type, size, mtime (in seconds: a copy keeps no more) and content hash. */
function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const stack = [""];
  for (let rel = stack.pop(); rel !== undefined; rel = stack.pop()) {
    for (const e of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      const s = lstatSync(join(dir, p));
      if (e.isDirectory()) {
        out.set(p, "dir");
        stack.push(p);
      } else out.set(p, `${s.size}:${Math.round(s.mtimeMs / 1000)}:${e.isFile() ? createHash("sha1").update(readFileSync(join(dir, p))).digest("hex") : "other"}`);
    }
  }
  return out;
}

function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const keys = new Set([...before.keys(), ...after.keys()]);
  return [...keys].filter((k) => before.get(k) !== after.get(k)).map((k) => `${k}: ${before.get(k) ?? "(absent)"} -> ${after.get(k) ?? "(absent)"}`);
}

/** Run the commands under bash in `dir`, one after another (one driver process for all). */
function drive(dir: string, commands: readonly string[]): Promise<void> {
  const list = `${dir}.commands`;
  writeFileSync(list, commands.map((c) => `${c}\0`).join(""));
  const driver = `while IFS= read -r -d '' cmd; do (cd "$1" && timeout -s KILL 20 bash -c "$cmd" </dev/null >/dev/null 2>&1); done < "$2"; rm -f "$2"`;
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-c", driver, "driver", dir, list], { env, stdio: "ignore" });
    child.on("error", reject);
    child.on("close", () => resolve());
  });
}

/** Each share of `commands` in its own copy of the fixture, the shares at once; the differences found in each copy. */
async function runInCopies(commands: readonly string[], shares: number): Promise<string[]> {
  const before = snapshot(pristine);
  const size = Math.ceil(commands.length / shares);
  const copies = Array.from({ length: Math.ceil(commands.length / size) }, (_, k) => {
    const dir = mkdtempSync(join(root, "copy-"));
    cpSync(pristine, dir, { recursive: true, preserveTimestamps: true });
    return { dir, commands: commands.slice(k * size, (k + 1) * size) };
  });
  await Promise.all(copies.map((c) => drive(c.dir, c.commands)));
  const changed = copies.flatMap((c) => differences(before, snapshot(c.dir)).map((d) => `${d} (after one of: ${c.commands.length === 1 ? c.commands[0] : `${c.commands.length} commands`})`));
  for (const c of copies) rmSync(c.dir, { recursive: true, force: true });
  return changed;
}

beforeAll(async () => {
  await loadShellParser();
  buildFixture(pristine);
}, 120_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the everyday corpus", () => {
  it("sees a command that changes the scratch repository", async () => {
    expect(await runInCopies(["touch x.tar", "git log -1 && echo x >> notes.txt"], 2)).toHaveLength(2);
  }, 120_000);

  it(`holds only commands that change nothing (${EVERYDAY.length} commands, run under real bash)`, async () => {
    expect(new Set(EVERYDAY).size).toBe(EVERYDAY.length);
    const changed = await runInCopies(EVERYDAY, 4);
    if (changed.length === 0) return;
    // Name the culprits: each command alone in a copy of its own.
    const culprits: string[] = [];
    for (const command of EVERYDAY) culprits.push(...(await runInCopies([command], 1)));
    expect.fail(`the corpus changed the scratch repository:\n${changed.join("\n")}\nculprits:\n${culprits.join("\n")}`);
  }, 600_000);

  it("is called read-only at least as often as when last measured", () => {
    const context = { cwd: pristine, env };
    const text = EVERYDAY.filter((c) => explainBash(c).effect === "read-only");
    const here = EVERYDAY.filter((c) => explainBash(c, context).effect === "read-only");
    const missed = EVERYDAY.filter((c) => explainBash(c).effect !== "read-only").map((c) => `${c}  // ${explainBash(c).reason}`);
    const share = (n: number) => n / EVERYDAY.length;
    console.log(`recall on ${EVERYDAY.length} everyday commands: ${text.length} read-only from the text (${(100 * share(text.length)).toFixed(1)} %), ${here.length} in the scratch repository (${(100 * share(here.length)).toFixed(1)} %)\nmissed:\n${missed.join("\n")}`);
    expect(share(text.length)).toBeGreaterThanOrEqual(RECALL_FLOOR.text);
    expect(share(here.length)).toBeGreaterThanOrEqual(RECALL_FLOOR.context);
  });
});
