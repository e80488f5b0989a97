/**
 * Repository discovery against git itself. Small directory trees with the layouts git's
 * `setup.c` treats specially — gitfiles with relative paths, trailing blanks or CRLF, paths with
 * `..` after a symbolic link, `.git` and HEAD as symbolic links, dangling HEAD links of bare
 * repositories, invalid look-alikes, linked worktrees (`commondir`), `core.worktree`, alternates,
 * GIT_DIR and GIT_WORK_TREE — are generated, and real git says where it is
 * (`git rev-parse --absolute-git-dir`, `--show-toplevel`) and which configuration files it reads
 * (`git config --show-origin --list`). The classifier's reading must contain all of it: the git
 * directory among its repositories, the work tree among their work trees, every file among the
 * files it read. `PROCTOR_DISCOVERY_RUNS` sets the number of trees (CI: 40).
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { isAbsolute, join, relative, resolve } from "node:path";
import fc from "fast-check";
import { afterAll, describe, expect, it } from "vitest";
import { readEffectiveConfig } from "../../src/effects/bash/context/git-config.js";
import { physicalPath } from "../../src/effects/bash/context/paths.js";

const RUNS = Number(process.env.PROCTOR_DISCOVERY_RUNS ?? 40);
const root = mkdtempSync(join(tmpdir(), "proctor-discovery-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const HEADS = ["ref", "ref-nospace", "sym-refs", "sym-other", "hex", "garbage", "dangling-refs"] as const;
type Head = (typeof HEADS)[number];
/** Git directories outside the tree; `s1 ` (a trailing blank) and `t/s1` are decoys for a wrong reading. */
const STORES = ["store/s1", "store/s1 ", "store/s2", "store/wt", "store/deep/s1", "s1"] as const;
type Store = (typeof STORES)[number];
const STYLES = ["abs", "rel", "crlf", "trailing-blank", "via-link", "no-newline"] as const;
type Style = (typeof STYLES)[number];
const LEVELS = ["w", "w/a", "w/a/b"] as const;

type DotGit =
  | { kind: "none" }
  | { kind: "dir"; head: Head; objects: boolean }
  | { kind: "gitfile"; target: Store; style: Style }
  | { kind: "link-dir"; target: Store }
  | { kind: "link-file"; target: Store; style: Style };

interface Layout {
  heads: Record<Store, Head>;
  commondir: "none" | "rel" | "trailing-blank" | "via-link" | "abs";
  worktree: "none" | "../../w" | "../../w/a" | "../../sl/../../w";
  alternates: boolean;
  dots: DotGit[];
  bare: { at: number; head: Head } | undefined;
  start: "w" | "w/a" | "w/a/b" | "la/.." | "la";
  env: "none" | "git-dir" | "git-dir-rel" | "work-tree";
}

const REF: Record<Store, Head> = { "store/s1": "ref", "store/s1 ": "ref", "store/s2": "ref", "store/wt": "ref", "store/deep/s1": "ref", s1: "ref" };
const PLAIN: Layout = { heads: REF, commondir: "none", worktree: "none", alternates: false, dots: [{ kind: "none" }, { kind: "none" }, { kind: "none" }], bare: undefined, start: "w/a/b", env: "none" };
/** Each found against the classifier before git's own rules were followed; kept as regression cases. */
const FOUND: Array<[string, Layout]> = [
  ["a bare repository whose HEAD is a dangling link to refs/heads/main", { ...PLAIN, dots: [{ kind: "gitfile", target: "store/s1", style: "abs" }, { kind: "none" }, { kind: "gitfile", target: "store/s1", style: "abs" }], bare: { at: 1, head: "dangling-refs" }, start: "w/a" }],
  ["a gitfile whose path ends in a blank", { ...PLAIN, dots: [{ kind: "none" }, { kind: "none" }, { kind: "gitfile", target: "store/s1", style: "trailing-blank" }] }],
  ["a gitfile whose path has `..` after a symbolic link", { ...PLAIN, dots: [{ kind: "none" }, { kind: "none" }, { kind: "gitfile", target: "store/deep/s1", style: "via-link" }] }],
  ["a `.git` whose HEAD links outside refs/ (not a repository to git)", { ...PLAIN, heads: { ...REF, "store/s1": "sym-other" }, dots: [{ kind: "dir", head: "ref", objects: true }, { kind: "none" }, { kind: "link-dir", target: "store/s1" }] }],
  ["a linked worktree whose commondir ends in a blank", { ...PLAIN, commondir: "trailing-blank", dots: [{ kind: "none" }, { kind: "none" }, { kind: "gitfile", target: "store/wt", style: "rel" }] }],
  ["a linked worktree whose commondir has `..` after a symbolic link", { ...PLAIN, commondir: "via-link", dots: [{ kind: "none" }, { kind: "none" }, { kind: "gitfile", target: "store/wt", style: "rel" }] }],
  ["core.worktree naming another work tree", { ...PLAIN, worktree: "../../w/a", dots: [{ kind: "none" }, { kind: "none" }, { kind: "link-dir", target: "store/s1" }] }],
];

const store = fc.constantFrom(...STORES);
const style = fc.constantFrom(...STYLES);
const head = fc.constantFrom(...HEADS);
const dotGit: fc.Arbitrary<DotGit> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: "none" as const }) },
  fc.record({ kind: fc.constant("dir" as const), head, objects: fc.boolean() }),
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("gitfile" as const), target: store, style }) },
  fc.record({ kind: fc.constant("link-dir" as const), target: store }),
  fc.record({ kind: fc.constant("link-file" as const), target: store, style }),
);
const layout: fc.Arbitrary<Layout> = fc.record({
  heads: fc.record(Object.fromEntries(STORES.map((s) => [s, fc.oneof({ weight: 4, arbitrary: fc.constant("ref" as Head) }, head)])) as Record<Store, fc.Arbitrary<Head>>),
  commondir: fc.constantFrom("none", "rel", "trailing-blank", "via-link", "abs"),
  worktree: fc.constantFrom("none", "../../w", "../../w/a", "../../sl/../../w"),
  alternates: fc.boolean(),
  dots: fc.tuple(dotGit, dotGit, dotGit),
  bare: fc.option(fc.record({ at: fc.integer({ min: 0, max: 2 }), head }), { nil: undefined }),
  start: fc.constantFrom("w", "w/a", "w/a/b", "la/..", "la"),
  env: fc.constantFrom("none", "none", "none", "git-dir", "git-dir-rel", "work-tree"),
});

/** A git directory by hand (faster than `git init`), its config carrying a key naming it. */
function makeGitDir(dir: string, h: Head, objects = true, extra = ""): void {
  mkdirSync(join(dir, "refs", "heads"), { recursive: true });
  if (objects) mkdirSync(join(dir, "objects", "info"), { recursive: true });
  writeHead(dir, h);
  writeFileSync(join(dir, "config"), `[proctor]\n\tid = ${JSON.stringify(dir)}\n${extra}`);
}

function writeHead(dir: string, h: Head): void {
  const file = join(dir, "HEAD");
  if (h === "sym-refs" || h === "dangling-refs") symlinkSync("refs/heads/main", file);
  else if (h === "sym-other") symlinkSync("../s2/HEAD", file);
  else writeFileSync(file, { ref: "ref: refs/heads/main\n", "ref-nospace": "ref:refs/heads/main\n", hex: `${"a".repeat(40)}\n`, garbage: "nonsense\n" }[h]);
  if (h === "sym-refs") writeFileSync(join(dir, "refs", "heads", "main"), `${"a".repeat(40)}\n`);
}

/** A gitfile's text naming `target` from `from` (the gitfile's directory) in the given style. */
function gitfileText(t: string, from: string, target: Store, s: Style): string {
  const abs = join(t, target);
  const rel = relative(from, abs);
  switch (s) {
    case "abs":
      return `gitdir: ${abs}\n`;
    case "rel":
      return `gitdir: ${rel}\n`;
    case "crlf":
      return `gitdir: ${rel}\r\n`;
    case "trailing-blank":
      return `gitdir: ${rel} \n`;
    case "no-newline":
      return `gitdir: ${rel}`;
    case "via-link":
      // t/sl -> t/store/deep/inner: `sl/../X` is t/store/deep/X for the kernel, t/X lexically.
      return `gitdir: ${relative(from, join(t, "sl"))}/../${target.split("/").at(-1)}\n`;
  }
}

function build(l: Layout): { t: string; start: string; env: Record<string, string> } {
  const t = mkdtempSync(join(root, "t-"));
  mkdirSync(join(t, "w", "a", "b"), { recursive: true });
  mkdirSync(join(t, "store", "deep", "inner"), { recursive: true });
  symlinkSync(join(t, "store", "deep", "inner"), join(t, "sl"));
  symlinkSync(join(t, "w", "a", "b"), join(t, "la"));
  for (const s of STORES) {
    const worktree = s === "store/s1" && l.worktree !== "none" ? `[core]\n\tworktree = ${l.worktree}\n` : "";
    makeGitDir(join(t, s), l.heads[s], true, worktree);
  }
  const wt = join(t, "store", "wt");
  const commondir = { rel: "../s1\n", "trailing-blank": "../s1 \n", "via-link": "../../sl/../s1\n", abs: `${join(t, "store", "s1")}\n` } as const;
  if (l.commondir !== "none") {
    writeFileSync(join(wt, "commondir"), commondir[l.commondir]);
    rmSync(join(wt, "config"));
    writeFileSync(join(wt, "config.worktree"), `[proctor]\n\tid = "wt-worktree"\n`);
  }
  if (l.alternates) writeFileSync(join(t, "store", "s1", "objects", "info", "alternates"), "../../s2/objects\n");
  LEVELS.forEach((level, i) => {
    const dir = join(t, level);
    const d = l.dots[i] ?? { kind: "none" };
    const dot = join(dir, ".git");
    if (d.kind === "dir") makeGitDir(dot, d.head, d.objects);
    else if (d.kind === "gitfile") writeFileSync(dot, gitfileText(t, dir, d.target, d.style));
    else if (d.kind === "link-dir") symlinkSync(join(t, d.target), dot);
    else if (d.kind === "link-file") {
      const file = join(t, "store", `gitfile-${i}`);
      writeFileSync(file, gitfileText(t, dir, d.target, d.style)); // relative to the link's directory, as git reads it
      symlinkSync(file, dot);
    }
  });
  if (l.bare) {
    const dir = join(t, LEVELS[l.bare.at] ?? "w");
    mkdirSync(join(dir, "refs", "heads"), { recursive: true });
    mkdirSync(join(dir, "objects"), { recursive: true });
    writeHead(dir, l.bare.head);
    writeFileSync(join(dir, "config"), `[proctor]\n\tid = ${JSON.stringify(`bare ${dir}`)}\n`);
  }
  const env: Record<string, string> = { HOME: join(t, "home"), GIT_CONFIG_NOSYSTEM: "1", PATH: "/usr/bin:/bin", GIT_CEILING_DIRECTORIES: root, LANG: "C" };
  if (l.env === "git-dir") env.GIT_DIR = join(t, "store", "s2");
  if (l.env === "git-dir-rel") env.GIT_DIR = relative(physicalPath("/", join(t, l.start)), join(t, "store", "s2"));
  if (l.env === "work-tree") env.GIT_WORK_TREE = join(t, "w");
  return { t, start: join(t, l.start), env };
}

function gitSays(cwd: string, env: Record<string, string>, args: string[]): string | undefined {
  const r = spawnSync("git", args, { cwd, env, encoding: "utf8" });
  return r.status === 0 ? r.stdout.replace(/\n$/, "") : undefined;
}

const real = (p: string) => {
  try {
    return realpathSync.native(p);
  } catch {
    return resolve(p);
  }
};

describe("repository discovery, with git as the oracle", () => {
  it(`reads at least the git directory, work tree and configuration files real git uses (${RUNS} trees)`, () => {
    let compared = 0;
    let failedClosed = 0;
    fc.assert(
      fc.property(layout, (l) => {
        const { t, start, env } = build(l);
        try {
          const gitDir = gitSays(start, env, ["rev-parse", "--absolute-git-dir"]);
          if (gitDir === undefined) return; // git refuses: it runs nothing, and reads no repository configuration
          const top = gitSays(start, env, ["rev-parse", "--show-toplevel"]);
          const origins = (gitSays(start, env, ["config", "--show-origin", "--list"]) ?? "")
            .split("\n")
            .filter((line) => line.startsWith("file:"))
            .map((line) => line.slice(5).split("\t")[0] ?? "")
            .map((f) => real(isAbsolute(f) ? f : join(start, f)));
          // As in-context.ts: the start directory as chdir(2) takes it, GIT_DIR/GIT_WORK_TREE from there.
          const at = physicalPath("/", start);
          const location = { start: at, ...(env.GIT_DIR ? { gitDir: physicalPath(at, env.GIT_DIR) } : {}), ...(env.GIT_WORK_TREE ? { workTree: physicalPath(at, env.GIT_WORK_TREE) } : {}) };
          const mine = readEffectiveConfig(location, env);
          if ("error" in mine) {
            failedClosed++;
            return; // undecidable: fails closed
          }
          compared++;
          const what = `layout ${JSON.stringify(l)} in ${t}`;
          expect(mine.repositories.map((r) => real(r.gitDir)), `git directory, ${what}`).toContain(real(gitDir));
          if (top !== undefined) expect(mine.repositories.map((r) => (r.workTree ? real(r.workTree) : "")), `work tree, ${what}`).toContain(real(top));
          const files = new Set(mine.entries.map((e) => real(e.origin.replace(/:\d+$/, ""))));
          for (const f of origins) expect([...files], `configuration file ${f}, ${what}`).toContain(f);
        } finally {
          rmSync(t, { recursive: true, force: true });
        }
      }),
      { numRuns: RUNS, examples: FOUND.map(([, l]) => [l]), seed: Number(process.env.PROCTOR_FC_SEED ?? 20261205) },
    );
    // Not vacuous: most trees are compared, not refused by git or failed closed.
    expect(compared).toBeGreaterThan(RUNS / 3);
    expect(failedClosed).toBeLessThan(RUNS / 3);
  }, 120_000);
});

