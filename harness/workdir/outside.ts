/**
 * Snapshots of a trial's writable roots beyond the work dir — its HOME, its TMPDIR, the per-trial
 * copies of plugins and MCP servers — so a write there (a server's state file, a hook's cache, a
 * tool's config) is a recorded fact, not an invisible side effect. The CLI's own bookkeeping (its
 * session logs, backups, task output, its own rule in the global git ignore file) is left out;
 * everything else counts.
 */
import type { FileChange, OutsideWrites } from "../../src/trace/types.js";
import { diffSnapshots, takeSnapshot, type Snapshot } from "./snapshot.js";

/** One root: the name changes are reported under, the directory, and where it was copied from. */
export interface OutsideRoot {
  readonly name: string;
  readonly path: string;
  readonly copiedFrom?: string;
}

/** What a run's other roots are, whether Bash was sandboxed, and what the run could write unobserved. */
export interface OutsidePlan {
  readonly roots: readonly OutsideRoot[];
  readonly sandbox: OutsideWrites["sandbox"];
  readonly uncovered: readonly string[];
}

/**
 * Under the trial's config dir (`$HOME/.claude`) only what configures claude counts — settings,
 * memory, skills, agents, commands, hooks, installed plugins: the rest is the CLI's own bookkeeping
 * (session logs, backups, caches), which changes from version to version. Elsewhere in HOME, the
 * CLI's and npm's logs are left out.
 */
const CLAUDE_CONFIG = /^\.claude\/(settings[^/]*\.json|CLAUDE\.md|keybindings\.json|(skills|agents|commands|hooks|output-styles|rules)(\/|$)|plugins\/(?!(store|cache|marketplaces)(\/|$)|known_marketplaces\.json$|installed_plugins\.json$))/;
const HOME_BOOKKEEPING = [/^\.claude\.json(\.backup.*|\.lock)?$/, /^\.npm\/_logs(\/|$)/, /^\.cache\/claude-cli-nodejs(\/|$)/];
/**
 * Claude's per-run folders under TMPDIR (`claude-UID/-PROJECT/SESSION/…`: background task output),
 * its cwd files, and the probe claude 2.1.332 writes to learn whether file watching works
 * (`claude-UID/fswatch-probe-XXXX/probe`, seen on a fresh machine); anything else under `claude-UID/`
 * stays the run's, the folder is writable by the agent too. And Node's compile cache
 * (`module.enableCompileCache()`'s default folder, which npm 11 turns on: claude 2.1.332 runs npm,
 * and on Node 22.1 or later each run writes it), derived bytecode like `__pycache__`.
 */
const TMP_BOOKKEEPING = [/^claude-\d+\/-[^/]*(\/|$)/, /^claude-[0-9a-f]+-cwd$/, /^claude-\d+\/fswatch-probe-[^/]*(\/|$)/, /^node-compile-cache(\/|$)/];
/** Interpreter bytecode caches: derived from the source beside them, never state a trial can pass on. */
const DERIVED = /(^|\/)__pycache__(\/|$)/;

const GLOBAL_GIT_IGNORE = ".config/git/ignore";

/**
 * claude 2.1.332 adds a rule for `.claude/.cc-writes/` (its own write-tracking folder, in any
 * directory) to the global git ignore file. That file counts as the CLI's bookkeeping only while
 * every rule in it is such a `.claude/` rule: a line of anyone else's makes the whole write the run's.
 */
export function isClaudeGitIgnore(change: FileChange): boolean {
  if (change.path !== GLOBAL_GIT_IGNORE || change.change === "deleted" || typeof change.content !== "string") return false;
  const rules = change.content.split("\n").map((l) => l.trim()).filter((l) => l && !l.startsWith("#"));
  return rules.length > 0 && rules.every((l) => /^(\*\*\/)?\.claude\/[^\s]*$/.test(l));
}

/** Whether a path under the named root is left out of the snapshot. */
export function isBookkeeping(rootName: string, rel: string): boolean {
  if (DERIVED.test(rel)) return true;
  if (rootName === "$HOME") return rel.startsWith(".claude/") ? !(CLAUDE_CONFIG.test(rel) || CLAUDE_CONFIG.test(`${rel}/`)) : HOME_BOOKKEEPING.some((p) => p.test(rel));
  if (rootName === "$TMPDIR") return TMP_BOOKKEEPING.some((p) => p.test(rel));
  return false;
}

/** Before-snapshots of every root, by name. */
export function snapshotRoots(roots: readonly OutsideRoot[]): Map<string, Snapshot> {
  return new Map(roots.map((r) => [r.name, takeSnapshot(r.path, (rel) => isBookkeeping(r.name, rel))]));
}

/** What changed under the roots since `before`, each path prefixed with its root's name. */
export function diffRoots(plan: OutsidePlan, before: Map<string, Snapshot>): OutsideWrites {
  const changes: FileChange[] = [];
  for (const root of plan.roots) {
    const after = takeSnapshot(root.path, (rel) => isBookkeeping(root.name, rel));
    const { changes: own } = diffSnapshots(root.path, before.get(root.name) ?? new Map(), after);
    for (const c of own) if (!(root.name === "$HOME" && isClaudeGitIgnore(c))) changes.push({ ...c, path: `${root.name}/${c.path}` });
  }
  return {
    sandbox: plan.sandbox,
    roots: plan.roots.map((r) => ({ name: r.name, path: r.path, ...(r.copiedFrom ? { copiedFrom: r.copiedFrom } : {}) })),
    changes,
    uncovered: [...plan.uncovered],
  };
}
