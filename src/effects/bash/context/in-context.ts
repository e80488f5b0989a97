/**
 * The classifier's second opinion, from the surroundings a command will run in: the repository
 * (its git configuration, hooks and submodules), PATH, and the environment. The text alone says
 * what a command line asks for; in an untrusted repository `git status` can run the repository
 * author's program (`core.fsmonitor`), so a read-only verdict must also hold *here*.
 *
 * Called for each simple command the text already found read-only; answers a verdict to combine
 * with it (`worse`), or `undefined` when the surroundings change nothing. Never throws.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { DECOMPRESSORS } from "../archives.js";
import { classifyCommand, findExecNames, innermostCommand } from "../commands.js";
import { isInertGitConfig } from "../git.js";
import { undecidable, worse, type Arg, type BashVerdict } from "../verdict.js";
import { entryKey, type ConfigEntry } from "./config-syntax.js";
import { findRepositories, pathExists, readEffectiveConfig, type GitLocation, type Repository } from "./git-config.js";
import { checkPathLookup } from "./path-safety.js";
import { physicalPath, realpathOr } from "./paths.js";
import { PROGRAM_ENV, programKeysFor } from "./program-keys.js";
import { at } from "../../../util/narrow.js";

/**
 * Where a command will run: its starting directory and its environment. Without one,
 * `classifyBash` judges the text alone and assumes a repository and PATH you trust.
 */
export interface BashContext {
  /** The directory the command line starts in (absolute). */
  readonly cwd: string;
  /** The environment it runs with: PATH, HOME, XDG_CONFIG_HOME, GIT_* … */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/**
 * One command line's view of its context. `cd` moves later commands, so it keeps every directory
 * a command may start in — a superset, since a `cd` in a subshell or a failed `cd` moves nothing.
 */
export class ContextScope {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly cwds = new Set<string>();
  /** Set when a `cd` leaves the directory unknowable (a target computed at run time). */
  lost?: string;
  private roots?: string[] | undefined;

  constructor(context: BashContext) {
    this.env = context.env;
    // The process starts where chdir(2) takes it (`l/..` after a link is the link target's parent);
    // a shell's logical `cd ..` starts from the path as written, or from PWD when it names the same directory.
    this.cwds.add(resolve(context.cwd));
    this.cwds.add(isAbsolute(context.cwd) ? physicalPath("/", context.cwd) : resolve(context.cwd));
    const pwd = context.env.PWD;
    if (pwd !== undefined && isAbsolute(pwd) && realpathOr(pwd) === realpathOr(context.cwd)) this.cwds.add(resolve(pwd));
  }

  /** Directories whose contents the repository controls: every start directory and its work tree. */
  controlled(): string[] {
    if (this.roots) return this.roots;
    const roots = new Set(this.cwds);
    for (const cwd of this.cwds) {
      try {
        for (const repo of findRepositories({ start: cwd }, this.env)) if (repo.workTree) roots.add(repo.workTree);
      } catch {
        // An unreadable repository is judged where git commands are; PATH keeps the start directories.
      }
    }
    this.roots = [...roots];
    return this.roots;
  }

  /** `cd DIR` (or `pushd DIR`): later commands may start there too. */
  move(target: string | undefined): void {
    this.roots = undefined;
    if (target === undefined) {
      this.lost = "a `cd` to a directory computed at run time";
      return;
    }
    const env = this.env;
    const bases = [...this.cwds];
    if (target === "-") {
      if (env.OLDPWD) this.cwds.add(resolve(env.OLDPWD));
      else this.lost = "`cd -` with no OLDPWD";
      return;
    }
    // Not `~`: `expandTilde` has made an unquoted one HOME, so a `~` left here names a directory `~`.
    if (target === "") {
      if (env.HOME) this.cwds.add(resolve(env.HOME));
      else this.lost = "`cd` with no HOME";
      return;
    }
    // `cd` is logical (`l/..` is `.`) but `cd -P`, and `cd` when the logical path fails, are physical: both.
    if (isAbsolute(target)) {
      this.cwds.add(resolve(target));
      this.cwds.add(physicalPath("/", target));
      return;
    }
    for (const base of bases) {
      this.cwds.add(resolve(base, target));
      this.cwds.add(physicalPath(base, target));
    }
    // CDPATH entries are searched before the current directory for a name not starting with `.`.
    if (env.CDPATH && !/^\.\.?(?:\/|$)/.test(target)) {
      for (const entry of env.CDPATH.split(":")) for (const base of bases) this.cwds.add(resolve(base, entry || ".", target));
    }
  }
}

export { physicalPath } from "./paths.js";

/** Start a scope for one command line. */
export function openScope(context: BashContext): ContextScope {
  return new ContextScope(context);
}

const SYSTEM_PATH = /^\/(?:usr\/(?:local\/)?)?s?bin\/([^/]+)$/;

/**
 * An argument as the shell passes it, tilde expanded: an unquoted leading `~` or `~/` is HOME;
 * `~user`, `~+`, `~-` are not worked out (`undefined`, like a computed value). Bash expands a
 * tilde prefix (up to the first unquoted `/`) only when none of it is quoted: `~''`, `~""/x`,
 * `''~` and `"~"` name a directory `~`, not HOME; a prefix with a quote in it is not worked out.
 */
function expandTilde(arg: Arg, env: Readonly<Record<string, string | undefined>>): string | undefined {
  const value = arg.value;
  // `text` is the word as written (in backticks for messages): a leading ~ there is unquoted.
  const written = arg.text.replace(/^`/, "");
  if (value === undefined || !value.startsWith("~")) return value;
  if (!written.startsWith("~")) return value; // a quoted tilde: no expansion
  if (!/^~(?:\/|`$)/.test(written)) return undefined;
  return env.HOME ? join(env.HOME, value.slice(1)) : undefined;
}

/** Consult the context for one simple command the text found read-only. */
export function classifyInContext(name: string, args: readonly Arg[], scope: ContextScope): BashVerdict | undefined {
  try {
    const outer = judge(name, args, scope);
    // `env … git log` and `xargs git grep` run git here too, found through the same PATH.
    const inner = innermostCommand(name, args);
    if (inner.name === name || inner.name === "cd" || inner.name === "pushd") return outer;
    // `env -C DIR git status` runs git, and finds its repository and relative PATH entries, in DIR.
    const here = inner.chdirs ? movedScope(scope, inner.chdirs) : scope;
    if (here === undefined) return undecidable(`\`${name}\` moves to a directory proctor cannot tell before it runs \`${inner.name}\``);
    const nested = judge(inner.name, inner.args, here, true);
    return outer && nested ? worse(outer, nested) : outer ?? nested;
  } catch (error) {
    return undecidable(`proctor could not inspect the command's surroundings (${(error as Error).message})`);
  }
}

/** A scope for a command run after `env -C` moves, from every directory the line may be in; `undefined` when a move is unknowable. */
function movedScope(scope: ContextScope, chdirs: readonly Arg[]): ContextScope | undefined {
  const moved = new ContextScope({ cwd: "/", env: scope.env });
  moved.cwds.clear();
  if (scope.lost) moved.lost = scope.lost;
  for (const cwd of scope.cwds) {
    let dir = cwd;
    for (const c of chdirs) {
      const target = expandTilde(c, scope.env);
      if (target === undefined) return undefined;
      dir = physicalPath(dir, target);
    }
    moved.cwds.add(dir);
  }
  return moved;
}

const RUNS_DECOMPRESSORS = new Set(["tar", "gunzip", "zcat"]);
/** Environment variables a tool reads extra options (or a default archive) from. */
const OPTION_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  tar: ["TAR_OPTIONS", "TAPE"],
  gzip: ["GZIP"],
  gunzip: ["GZIP"],
  zcat: ["GZIP"],
  unzip: ["UNZIP", "UNZIPOPT", "ZIPINFO", "ZIPINFOOPT"],
  zipinfo: ["ZIPINFO", "ZIPINFOOPT"],
};

/** `exec`: run by `env` or `xargs`, which find it on PATH even when Bash has a builtin of that name. */
function judge(name: string, args: readonly Arg[], scope: ContextScope, exec = false): BashVerdict | undefined {
  const command = name.includes("/") ? SYSTEM_PATH.exec(name)?.[1] ?? name : name;
  if (command === "cd" || command === "pushd") {
    const afterDashes = args.findIndex((a) => a.value === "--");
    // `pushd -n DIR` only adds DIR to the stack, but a later `popd` or `pushd +N` moves there: it counts as a move.
    // Every other entry of the stack is a directory already counted, so `popd`, `dirs` and rotations move nowhere new.
    const operands = afterDashes === -1 ? args.filter((a) => a.value === undefined || a.value === "-" || !/^-[LPe@n]+$/.test(a.value)) : args.slice(afterDashes + 1);
    const operand = operands[0];
    if (operand === undefined) scope.move("");
    else if (command === "pushd" && operand.value !== undefined && /^[+-]\d+$/.test(operand.value)) return undefined; // rotates the stack: dirs already seen
    else scope.move(expandTilde(operand, scope.env));
    return undefined;
  }
  let verdict: BashVerdict | undefined;
  const note = (v: BashVerdict | undefined) => {
    if (v) verdict = verdict ? worse(verdict, v) : v;
  };
  note(checkStartupFile(scope));
  const controlled = () => (scope.lost ? undefined : scope.controlled());
  if (!name.includes("/")) note(checkPathLookup(name, scope.env.PATH, controlled, exec));
  // Programs the command itself runs through PATH: find -exec's, and the decompressors of tar and gzip's scripts.
  const runs = command === "find" ? findExecNames(args) : RUNS_DECOMPRESSORS.has(command) ? DECOMPRESSORS : [];
  for (const program of runs) note(checkPathLookup(program, scope.env.PATH, controlled, true));
  for (const variable of OPTION_VARIABLES[command] ?? []) {
    if (scope.env[variable]) note(undecidable(`the environment sets ${variable}, which adds options to \`${command}\``));
  }
  if (command === "git") note(classifyGitInContext(args, scope));
  if (command === "rg") note(classifyRipgrepInContext(args, scope));
  return verdict;
}

/**
 * A non-interactive bash sources BASH_ENV before it runs anything: a relative path, or one inside
 * the repository, makes every command line run the repository's script first.
 */
function checkStartupFile(scope: ContextScope): BashVerdict | undefined {
  const file = scope.env.BASH_ENV;
  if (file === undefined || file === "") return undefined;
  if (!isAbsolute(file)) return undecidable(`BASH_ENV is the relative path ${JSON.stringify(file)}: the shell would source a script from the directory it starts in`);
  const roots = scope.lost ? undefined : scope.controlled();
  const inside = roots === undefined || roots.some((r) => file === r || file.startsWith(`${r}/`));
  return inside ? undecidable(`BASH_ENV (${file}) is a script inside the directory the command runs in, which the shell sources first`) : undefined;
}

/** ripgrep reads extra arguments (`--pre=…` among them) from the file RIPGREP_CONFIG_PATH names. */
function classifyRipgrepInContext(args: readonly Arg[], scope: ContextScope): BashVerdict | undefined {
  const file = scope.env.RIPGREP_CONFIG_PATH;
  if (!file) return undefined;
  // A relative path is read from the directory rg runs in: every one a `cd` may have led to.
  if (!isAbsolute(file) && scope.lost) return undecidable(`RIPGREP_CONFIG_PATH ${file} is relative, and ${scope.lost} leaves unknown which directory rg reads it from`);
  const paths = new Set([...scope.cwds].map((cwd) => resolve(cwd, file)));
  if (paths.size === 0) return undecidable(`RIPGREP_CONFIG_PATH ${file} is relative to a directory proctor cannot tell`);
  for (const path of paths) {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      return undecidable(`cannot read RIPGREP_CONFIG_PATH ${file}, whose arguments rg would add (${(error as Error).message})`);
    }
    const extra = text.split(/\r?\n/).filter((l) => l.trim() !== "" && !l.trim().startsWith("#")).map((l) => ({ value: l.trim(), text: l.trim() }));
    const v = classifyCommand("rg", [...extra, ...args]);
    if (v.effect !== "read-only") return { effect: v.effect === "side-effecting" ? "undecidable" : v.effect, reason: `RIPGREP_CONFIG_PATH (${file}) adds arguments: ${v.reason}` };
  }
  return undefined;
}

const GLOBAL_VALUED = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix"]);

/** `git …` in its repository: configuration keys, hooks and environment that would run a program. */
function classifyGitInContext(args: readonly Arg[], scope: ContextScope): BashVerdict | undefined {
  const dirs: string[] = [];
  let gitDir: string | undefined;
  let workTree: string | undefined;
  let bare = false;
  let i = 0;
  for (; i < args.length; i++) {
    const arg = at(args, i);
    const v = arg.value;
    if (v === undefined) return undecidable(`\`git ${arg.text}\` is computed at run time, so proctor cannot tell which repository git reads`);
    if (!v.startsWith("-")) break;
    const eq = v.indexOf("=");
    const opt = v.startsWith("--") && eq !== -1 ? v.slice(0, eq) : v;
    if (v === "-c" && isInertGitConfig(args[i + 1]?.value)) {
      i++;
      continue;
    }
    if (opt === "-c" || opt === "--config-env") return undecidable(`\`git ${v}\` sets configuration for this run, which can make git run any program`);
    if (opt === "--bare") bare = true;
    if (!GLOBAL_VALUED.has(opt)) continue;
    let value: string | undefined;
    if (eq !== -1 && v.startsWith("--")) value = v.slice(eq + 1);
    else {
      const next = args[++i];
      if (next === undefined) return undefined; // git refuses the line
      value = expandTilde(next, scope.env);
      if (value === undefined) return undecidable(`\`git ${v} ${next.text}\`: proctor cannot tell which directory that is`);
    }
    if (opt === "-C") dirs.push(value);
    else if (opt === "--git-dir") gitDir = value;
    else if (opt === "--work-tree") workTree = value;
  }
  const rest = args.slice(i + 1).map((a) => a.value ?? "");
  let sub = args[i]?.value;
  if (sub === undefined) {
    if (!args.some((a) => a.value === "--help")) return undefined; // `git --version` reads nothing
    sub = "help";
  }
  const signature = verifiesSignatures(sub, rest);
  if (signature) return undecidable(`\`git ${sub}\` ${signature}: verifying a signature runs gpg (or gpg.program), which also creates ~/.gnupg`);
  if (scope.lost) return undecidable(`${scope.lost} leaves unknown which repository \`git ${sub}\` reads`);

  const env = scope.env;
  for (const e of PROGRAM_ENV) {
    const value = env[e.name];
    if (value === undefined || (e.off?.(value) ?? false) || !e.reach(sub, rest)) continue;
    return undecidable(`\`git ${sub}\` would run a program here: the environment sets ${e.name} (${e.runs}; ${e.doc})`);
  }
  for (const cwd of scope.cwds) {
    const start = dirs.reduce((at, d) => (d === "" ? at : physicalPath(at, d)), cwd);
    // `--bare` makes the starting directory the git directory unless GIT_DIR names one.
    const dir = gitDir ?? env.GIT_DIR ?? (bare ? "." : undefined);
    const tree = workTree ?? env.GIT_WORK_TREE;
    const location: GitLocation = { start, ...(dir ? { gitDir: physicalPath(start, dir) } : {}), ...(tree ? { workTree: physicalPath(start, tree) } : {}) };
    const config = readEffectiveConfig(location, env);
    if ("error" in config) return undecidable(`cannot tell what \`git ${sub}\` would run here: ${config.error}`);
    const found = checkEntries(sub, rest, config.entries) ?? checkHooks(sub, config.entries, config.repositories, env);
    if (found) return found;
  }
  return undefined;
}

/** Signature verification, by option, format or subcommand: always a program (gpg). */
function verifiesSignatures(sub: string, rest: readonly string[]): string | undefined {
  if (sub === "verify-commit" || sub === "verify-tag") return "verifies signatures";
  for (const a of rest) {
    if (a.startsWith("--show-sig")) return `with ${a}`;
    if (/%G|%\(signature/.test(a)) return `with the signature format ${JSON.stringify(a)}`;
  }
  if (sub === "tag" && rest.some((a) => a === "--verify" || a.startsWith("--verif") || /^-[a-zA-Z]*v/.test(a))) return "-v";
  return undefined;
}

function checkEntries(sub: string, rest: readonly string[], entries: readonly ConfigEntry[]): BashVerdict | undefined {
  // Every offending setting is named, so that one fix is not followed by another refusal.
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.section === "alias" && entry.subsection === undefined && entry.name === sub.toLowerCase()) {
      found.push(`${entry.origin} defines alias.${entry.name}, named like the subcommand`);
    }
    for (const key of programKeysFor(entry.section, entry.subsection, entry.name)) {
      if (key.never !== undefined || key.judgedBy !== undefined || !key.reach(sub, rest)) continue;
      if (key.off?.(entry.value) || (key.when && !key.when(entry.value))) continue;
      found.push(`${entry.origin} sets ${entryKey(entry)} (${key.key}: ${key.runs}; ${key.doc})`);
    }
  }
  if (found.length === 0) return undefined;
  const more = found.length > 4 ? `; and ${found.length - 4} more` : "";
  return undecidable(`\`git ${sub}\` would run a program here: ${found.slice(0, 4).join("; ")}${more}`);
}

/** The hook that read commands run: `post-index-change`, when status or diff refresh and write the index. */
const READ_HOOKS = ["post-index-change"];

function checkHooks(sub: string, entries: readonly ConfigEntry[], repositories: readonly Repository[], env: Readonly<Record<string, string | undefined>>): BashVerdict | undefined {
  const dirs: string[] = [];
  for (const repo of repositories) dirs.push(join(repo.commonDir, "hooks"));
  for (const e of entries) {
    if (e.section !== "core" || e.subsection !== undefined || e.name !== "hookspath") continue;
    if (e.value === undefined || e.value === "") continue;
    const v = e.value.startsWith("~/") && env.HOME ? join(env.HOME, e.value.slice(2)) : e.value;
    if (isAbsolute(v)) dirs.push(v);
    // Relative to where hooks run: the work tree, or the git directory of a bare repository.
    else for (const repo of repositories) dirs.push(resolve(repo.workTree ?? repo.gitDir, v), resolve(repo.gitDir, v));
  }
  for (const dir of dirs) {
    for (const hook of READ_HOOKS) {
      const file = join(dir, hook);
      if (pathExists(file)) return undecidable(`\`git ${sub}\` would run a program here: the hook ${file} runs when git refreshes the index (githooks(5) ${hook})`);
    }
  }
  return undefined;
}
