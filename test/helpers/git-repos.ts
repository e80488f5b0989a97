/**
 * Throwaway git repositories whose configuration makes read commands run a program — one per
 * entry of PROGRAM_KEYS — for tests that prove it with real git (a marker file appears) and then
 * check that the classifier and the gate refuse the command. Real git always runs under a
 * scrubbed environment (HOME in the sandbox, no system configuration), so the machine's own
 * configuration cannot leak in.
 */
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Sandbox {
  readonly root: string;
  readonly home: string;
  /** The file a configured program creates when it runs. */
  readonly marker: string;
  /** The scrubbed environment real git (and the classifier's context) use. */
  readonly env: Record<string, string>;
}

const sandboxes: string[] = [];

export function makeSandbox(): Sandbox {
  const root = mkdtempSync(join(tmpdir(), "proctor-repo-"));
  sandboxes.push(root);
  const home = join(root, "home");
  mkdirSync(home);
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "/usr/bin:/bin",
    HOME: home,
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "t",
    GIT_AUTHOR_EMAIL: "t@example.test",
    GIT_COMMITTER_NAME: "t",
    GIT_COMMITTER_EMAIL: "t@example.test",
    LANG: "C",
  };
  return { root, home, marker: join(root, "MARKER"), env };
}

export function removeSandboxes(): void {
  for (const dir of sandboxes.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** Run git; throws on failure with its stderr. */
export function git(sb: Sandbox, cwd: string, args: string[], input?: string): string {
  const r = spawnSync("git", args, { cwd, env: sb.env, input, encoding: "utf8" });
  if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${r.stderr}`);
  return r.stdout.trim();
}

/** Run a shell command the way a shell tool does: bash, pipes for stdio (no terminal). */
export function runShell(sb: Sandbox, cwd: string, command: string, env: Record<string, string> = sb.env): { status: number | null; stderr: string } {
  const r = spawnSync("bash", ["-c", command], { cwd, env, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 20_000 });
  return { status: r.status, stderr: r.stderr };
}

/** `touch MARKER`, quoted for a git config value run through the shell. */
export const touch = (sb: Sandbox) => `touch '${sb.marker}'`;

/** An executable script that creates the marker (for keys that name a program rather than a shell command). */
export function markerScript(sb: Sandbox, name = "prog"): string {
  const path = join(sb.root, name);
  writeFileSync(path, `#!/bin/sh\ntouch '${sb.marker}'\nexit 1\n`);
  chmodSync(path, 0o755);
  return path;
}

/** A repository with one committed file `f` (and `.gitattributes` when given), in `root/name`. */
export function makeRepo(sb: Sandbox, name = "repo", attributes?: string): string {
  const dir = join(sb.root, name);
  mkdirSync(dir, { recursive: true });
  git(sb, dir, ["init", "-q", "-b", "main"]);
  writeFileSync(join(dir, "f"), "one\n");
  if (attributes !== undefined) writeFileSync(join(dir, ".gitattributes"), `${attributes}\n`);
  git(sb, dir, ["add", "-A"]);
  git(sb, dir, ["commit", "-qm", "one"]);
  return dir;
}

/** Make HEAD a commit carrying a (fake) signature of the given armor, so that verifying it runs the verifier. */
export function signHead(sb: Sandbox, repo: string, armor: "PGP SIGNATURE" | "SIGNED MESSAGE" = "PGP SIGNATURE"): void {
  const tree = git(sb, repo, ["rev-parse", "HEAD^{tree}"]);
  const parent = git(sb, repo, ["rev-parse", "HEAD"]);
  const body = `tree ${tree}\nparent ${parent}\nauthor t <t@example.test> 1 +0000\ncommitter t <t@example.test> 1 +0000\ngpgsig -----BEGIN ${armor}-----\n \n AAAA\n -----END ${armor}-----\n\nsigned\n`;
  const commit = git(sb, repo, ["hash-object", "-t", "commit", "-w", "--stdin"], body);
  git(sb, repo, ["update-ref", "HEAD", commit]);
}

/** A merge commit whose merge conflicted on `f` (for --remerge-diff). */
export function makeConflictedMerge(sb: Sandbox, repo: string): void {
  git(sb, repo, ["checkout", "-qb", "side"]);
  writeFileSync(join(repo, "f"), "side\n");
  git(sb, repo, ["commit", "-qam", "side"]);
  git(sb, repo, ["checkout", "-q", "main"]);
  writeFileSync(join(repo, "f"), "main\n");
  git(sb, repo, ["commit", "-qam", "main"]);
  spawnSync("git", ["merge", "-q", "side"], { cwd: repo, env: sb.env });
  writeFileSync(join(repo, "f"), "merged\n");
  git(sb, repo, ["commit", "-qam", "merge"]);
}

/** One proof that a key makes a command run a program. */
export interface Demo {
  /** The PROGRAM_KEYS (or PROGRAM_ENV) entry it proves. */
  readonly key: string;
  /** `.gitattributes` line the repository needs, if any. */
  readonly attributes?: string;
  /** The shell command run in the repository. */
  readonly command: string;
  /** Configure the repository (and sandbox); runs after the repository exists. */
  readonly setup: (sb: Sandbox, repo: string) => void;
  /** Extra environment for the command (and the classifier's context). */
  readonly env?: (sb: Sandbox) => Record<string, string>;
  /** Prepare the repository in the same way as `setup` but with no configuration (history, signatures). */
  readonly prepare?: (sb: Sandbox, repo: string) => void;
  /** Create the repository instead of `makeRepo` (hostile, or its clean counterpart); returns its path. */
  readonly create?: (sb: Sandbox, hostile: boolean) => string;
}

/** A blobless clone of a local server (hostile), or a full clone of it (clean): in the first, reading a blob fetches it. */
export function makePartialClone(sb: Sandbox, hostile: boolean): string {
  const srv = makeRepo(sb, "srv");
  git(sb, srv, ["config", "uploadpack.allowFilter", "true"]);
  git(sb, srv, ["config", "uploadpack.allowAnySHA1InWant", "true"]);
  const repo = join(sb.root, "repo");
  git(sb, sb.root, ["clone", "-q", ...(hostile ? ["--filter=blob:none"] : []), "--no-checkout", `file://${srv}`, repo]);
  return repo;
}

const set = (sb: Sandbox, repo: string, ...pairs: [string, string][]) => {
  for (const [k, v] of pairs) git(sb, repo, ["config", k, v]);
};
const modify = (repo: string) => writeFileSync(join(repo, "f"), "two\n");
/** Same content, another mtime: git status must refresh the entry and write the index (which runs post-index-change). */
export const restat = (repo: string) => utimesSync(join(repo, "f"), 1_000_000_000, 1_000_000_000);

/** Every key whose program real git runs offline on a command the text calls read-only. */
export const DEMOS: readonly Demo[] = [
  { key: "core.fsmonitor", command: "git status", setup: (sb, r) => set(sb, r, ["core.fsmonitor", `${touch(sb)}; false`]) },
  {
    key: "core.hooksPath",
    command: "git status",
    prepare: (_, r) => restat(r),
    setup: (sb, r) => {
      mkdirSync(join(r, ".githooks"));
      writeFileSync(join(r, ".githooks", "post-index-change"), `#!/bin/sh\n${touch(sb)}\n`);
      chmodSync(join(r, ".githooks", "post-index-change"), 0o755);
      set(sb, r, ["core.hooksPath", ".githooks"]);
    },
  },
  { key: "diff.external", command: "git diff", prepare: (_, r) => modify(r), setup: (sb, r) => set(sb, r, ["diff.external", `${touch(sb)}; true`]) },
  { key: "diff.<driver>.command", attributes: "* diff=x", command: "git diff", prepare: (_, r) => modify(r), setup: (sb, r) => set(sb, r, ["diff.x.command", `${touch(sb)}; true`]) },
  { key: "diff.<driver>.textconv", attributes: "* diff=x", command: "git show", setup: (sb, r) => set(sb, r, ["diff.x.textconv", `${touch(sb)}; cat`]) },
  { key: "filter.<driver>.clean", attributes: "* filter=x", command: "git status --short", prepare: (_, r) => modify(r), setup: (sb, r) => set(sb, r, ["filter.x.clean", `${touch(sb)}; cat`]) },
  { key: "filter.<driver>.smudge", attributes: "* filter=x", command: "git cat-file --filters HEAD:f", setup: (sb, r) => set(sb, r, ["filter.x.smudge", `${touch(sb)}; cat`]) },
  { key: "filter.<driver>.process", attributes: "* filter=x", command: "git status", prepare: (_, r) => modify(r), setup: (sb, r) => set(sb, r, ["filter.x.process", touch(sb)]) },
  { key: "merge.<driver>.driver", attributes: "* merge=x", command: "git log --remerge-diff -1", prepare: makeConflictedMerge, setup: (sb, r) => set(sb, r, ["merge.x.driver", `${touch(sb)}; false`]) },
  { key: "man.viewer", command: "git log --help", setup: (sb, r) => set(sb, r, ["man.viewer", "x"], ["man.x.cmd", touch(sb)]) },
  { key: "man.<tool>.cmd", command: "git status --help", setup: (sb, r) => set(sb, r, ["man.viewer", "x"], ["man.x.cmd", touch(sb)]) },
  { key: "man.<tool>.path", command: "git diff --help", setup: (sb, r) => set(sb, r, ["man.viewer", "man"], ["man.man.path", markerScript(sb)]) },
  { key: "log.showSignature", command: "git log -1", prepare: (sb, r) => signHead(sb, r), setup: (sb, r) => set(sb, r, ["log.showSignature", "true"], ["gpg.program", markerScript(sb)]) },
  { key: "pretty.<name>", command: "git log -1 --pretty=sig", prepare: (sb, r) => signHead(sb, r), setup: (sb, r) => set(sb, r, ["pretty.sig", "format:%GS"], ["gpg.program", markerScript(sb)]) },
  { key: "format.pretty", command: "git show -s", prepare: (sb, r) => signHead(sb, r), setup: (sb, r) => set(sb, r, ["format.pretty", "format:%G?"], ["gpg.program", markerScript(sb)]) },
  { key: "gpg.program", command: "git log -1 --show-signature", prepare: (sb, r) => signHead(sb, r), setup: (sb, r) => set(sb, r, ["gpg.program", markerScript(sb)]) },
  { key: "gpg.<format>.program", command: "git log -1 --format='%G?'", prepare: (sb, r) => signHead(sb, r, "SIGNED MESSAGE"), setup: (sb, r) => set(sb, r, ["gpg.x509.program", markerScript(sb)]) },
  {
    key: "remote.<name>.promisor",
    command: "git show HEAD:f",
    create: makePartialClone,
    setup: (sb, r) => set(sb, r, ["remote.origin.uploadpack", `${touch(sb)}; git-upload-pack`]),
  },
  {
    key: "extensions.partialClone",
    command: "git cat-file -p HEAD:f",
    create: makePartialClone,
    setup: (sb, r) => {
      git(sb, r, ["config", "--unset", "remote.origin.promisor"]);
      set(sb, r, ["core.repositoryFormatVersion", "1"], ["extensions.partialClone", "origin"], ["remote.origin.uploadpack", `${touch(sb)}; git-upload-pack`]);
    },
  },
  ...(["trace2.normalTarget", "trace2.perfTarget", "trace2.eventTarget"] as const).map(
    (key): Demo => ({
      key,
      command: "git rev-parse HEAD",
      // git reads trace2 settings from the system and global files only.
      setup: (sb) => writeFileSync(join(sb.home, ".gitconfig"), `[trace2]\n\t${key.split(".")[1]} = ${sb.marker}\n`),
    }),
  ),
  { key: "GIT_EXTERNAL_DIFF", command: "git diff", prepare: (_, r) => modify(r), setup: (sb) => markerScript(sb), env: (sb) => ({ GIT_EXTERNAL_DIFF: join(sb.root, "prog") }) },
  { key: "GIT_TRACE", command: "git rev-parse HEAD", setup: () => {}, env: (sb) => ({ GIT_TRACE: sb.marker }) },
];

export const markerExists = (sb: Sandbox) => existsSync(sb.marker);
