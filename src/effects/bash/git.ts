/**
 * `git`: read-only only for inspection subcommands, used without the options that write
 * (`--output`), run other programs (`-c`, `--ext-diff`, `--textconv`, `grep -O`, signature
 * checks that run gpg, `--help` that runs man or a browser) or turn a listing into a change
 * (`branch -D`, `tag -d`, `config k v`).
 *
 * Global options are an allow-list. The inspection subcommands have hundreds of display
 * options, so for them the options that write or run a program are enumerated from the git
 * documentation of each subcommand (git 2.39–2.47) instead. What a repository's own
 * configuration makes git run (`core.fsmonitor`, `diff.external`, textconv drivers, `core.pager`)
 * is not in the text; the repository-aware verdict reads it.
 */
import { scanOptions, type OptionSpec } from "./options.js";
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "./verdict.js";
import { at, ownEntry } from "../../util/narrow.js";

/** Options of the log/diff family that take a separate value. */
const LOG_VALUED = ["max-count", "skip", "author", "committer", "grep", "since", "after", "until", "before"];

/**
 * The log/diff/show family: `--output` writes; `--ext-diff` and `--textconv` run configured
 * programs; `--show-signature` runs gpg; `--remerge-diff` runs configured merge drivers.
 */
const INSPECT: OptionSpec = {
  long: { output: "writes", "ext-diff": "runs", textconv: "runs", "show-signature": "runs", "remerge-diff": "runs" },
  shortValued: "nSG",
  longValued: LOG_VALUED,
};

/** `cat-file --filters` runs the clean/smudge filters, `--textconv` the textconv drivers. */
const CAT_FILE: OptionSpec = { long: { filters: "runs", textconv: "runs" } };

const PLAIN: OptionSpec = {};

/** Subcommands that only read, with the options that would make them do more. */
const INSPECTION: Record<string, OptionSpec> = {
  status: PLAIN,
  log: INSPECT,
  show: INSPECT,
  diff: INSPECT,
  whatchanged: INSPECT,
  shortlog: INSPECT,
  "diff-tree": INSPECT,
  "diff-index": INSPECT,
  "diff-files": INSPECT,
  "range-diff": INSPECT,
  "show-branch": PLAIN,
  "rev-list": INSPECT,
  "rev-parse": PLAIN,
  blame: { shortValued: "L", long: { textconv: "runs" } },
  annotate: { shortValued: "L", long: { textconv: "runs" } },
  grep: { short: { O: "runs" }, long: { "open-files-in-pager": "runs", "ext-grep": "runs", textconv: "runs" }, shortValued: "efABCm", longValued: ["max-depth", "threads", "max-count"] },
  "ls-files": PLAIN,
  "ls-tree": PLAIN,
  "cat-file": CAT_FILE,
  describe: PLAIN,
  "name-rev": PLAIN,
  "merge-base": PLAIN,
  "show-ref": PLAIN,
  "for-each-ref": PLAIN,
  "count-objects": PLAIN,
  var: PLAIN,
  "check-ignore": PLAIN,
  "check-attr": PLAIN,
  "check-mailmap": PLAIN,
  "check-ref-format": PLAIN,
  cherry: PLAIN,
  version: PLAIN,
};

/**
 * Global options (before the subcommand) that take a value. Their value must be fixed text:
 * `-C "$d"` could name a repository whose configuration runs programs.
 */
const GLOBAL_VALUED = new Set(["-C", "--git-dir", "--work-tree", "--namespace", "--attr-source"]);
/**
 * Global flags. `-p`/`--paginate` stays: git pages only when standard output is a terminal, where
 * plain `git log` pages as well, and the pager it runs comes from configuration and environment
 * (`core.pager`, `GIT_PAGER`, `PAGER`), which the environment rules and the repository-aware
 * verdict decide, not this flag.
 */
const GLOBAL_FLAGS = new Set([
  "--no-pager", "-P", "-p", "--paginate", "--bare", "--no-replace-objects", "--literal-pathspecs", "--glob-pathspecs",
  "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-advice", "--no-lazy-fetch", "--version", "-v",
  "--exec-path", "--html-path", "--man-path", "--info-path", "-h",
]);

/** `--pretty`/`--format` names git defines itself; any other name is an alias from configuration. */
const BUILTIN_PRETTY = new Set(["oneline", "short", "medium", "full", "fuller", "reference", "email", "raw", "mboxrd"]);

/**
 * Formats that run gpg: `%G?`, `%GS`, `%GK`… (log family) and `%(signature…)` (ref-filter). A
 * `--pretty=NAME` that is not a built-in is a `pretty.NAME` alias whose text is in configuration.
 */
function formatProblem(sub: string, args: readonly Arg[]): BashVerdict | undefined {
  for (const [i, arg] of args.entries()) {
    const v = arg.value;
    if (v === undefined || !v.startsWith("--")) continue;
    if (v === "--") break;
    const eq = v.indexOf("=");
    const name = v.slice(2, eq === -1 ? undefined : eq);
    if (!["pretty", "format"].includes(name)) continue;
    const valueArg = eq !== -1 ? { value: v.slice(eq + 1), text: arg.text } : name === "format" ? args[i + 1] : undefined;
    if (!valueArg) continue;
    const value = valueArg.value;
    if (value === undefined) return undecidable(`\`git ${sub} ${v}\`: the format is computed at run time, and some formats run gpg`);
    if (/%G/.test(value)) return undecidable(`\`git ${sub} --${name}=${value}\` shows signature checks, which run gpg`);
    if (/%\(\s*signature/.test(value)) return undecidable(`\`git ${sub} --${name}=${value}\` checks signatures, which runs gpg`);
    const alias = /^(?:format:|tformat:)/.test(value) || value.includes("%") || BUILTIN_PRETTY.has(value) || value === "";
    if (!alias && name === "pretty") return undecidable(`\`git ${sub} --pretty=${value}\` names a format alias from configuration`);
    if (!alias && name === "format" && sub !== "for-each-ref" && sub !== "branch" && sub !== "tag") {
      return undecidable(`\`git ${sub} --format=${value}\` names a format alias from configuration`);
    }
  }
  return undefined;
}

/** Anything git could read as `--help` runs man, info or a web browser (`help.format`, `man.viewer`). */
function asksForHelp(args: readonly Arg[]): Arg | undefined {
  for (const a of args) {
    if (a.value === "--") return undefined;
    if (a.value !== undefined && a.value.length >= 3 && "--help".startsWith(a.value)) return a;
  }
  return undefined;
}

function scanned(command: string, args: readonly Arg[], spec: OptionSpec, what: string): BashVerdict {
  return scanOptions(command, args, spec).verdict ?? readOnly(what);
}

const FILTERS = ["contains", "no-contains", "merged", "no-merged", "points-at"];

/** `git branch`: listing only — any other option or a bare name creates, moves or deletes. */
function branch(args: readonly Arg[]): BashVerdict {
  const scan = scanOptions("git branch", args, {
    only: { short: "arvqli", long: ["all", "remotes", "verbose", "quiet", "list", "show-current", "color", "no-color", "column", "no-column", "ignore-case", "omit-empty", "abbrev", "no-abbrev", "sort", "format", ...FILTERS] },
    longValued: ["sort", "format", ...FILTERS],
  });
  if (scan.verdict) return scan.verdict;
  const listing = scan.seen.has("l") || scan.seen.has("list") || FILTERS.some((f) => scan.seen.has(f));
  const [operand] = scan.operands;
  if (operand && !listing) return sideEffecting(`\`git branch ${operand.text}\` creates a branch`);
  return readOnly("git branch lists branches");
}

/** `git tag`: listing (and verifying) only. */
function tag(args: readonly Arg[]): BashVerdict {
  const scan = scanOptions("git tag", args, {
    only: { short: "lniv", long: ["list", "contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format", "color", "column", "no-column", "ignore-case", "omit-empty", "verify"] },
    shortAttached: "n",
    longValued: ["sort", "format", ...FILTERS],
  });
  if (scan.verdict) return scan.verdict;
  if (scan.seen.has("v") || scan.seen.has("verify")) return undecidable("`git tag -v` checks signatures, which runs gpg");
  const listing = ["l", "list", "n", ...FILTERS].some((f) => scan.seen.has(f));
  const [operand] = scan.operands;
  if (operand && !listing) return sideEffecting(`\`git tag ${operand.text}\` creates a tag`);
  return readOnly("git tag lists tags");
}

/** `git config`: reading keys and listing only. */
function config(args: readonly Arg[]): BashVerdict {
  const reads = ["get", "get-all", "get-regexp", "get-urlmatch", "list", "get-color", "get-colorbool"];
  const scan = scanOptions("git config", args, {
    only: {
      short: "lfz",
      long: [...reads, "show-origin", "show-scope", "name-only", "null", "global", "system", "local", "worktree", "file", "blob", "type", "bool", "int", "bool-or-int", "path", "expiry-date", "default", "includes", "no-includes", "no-type"],
    },
    shortValued: "f",
    longValued: ["file", "blob", "type", "default"],
  });
  if (scan.verdict) return scan.verdict;
  const [first] = scan.operands;
  if (first?.value === "get" || first?.value === "list") return readOnly(`git config ${first.value} reads configuration`);
  if (first && first.value === undefined) return undecidable(`\`git config ${first.text}\`: the action is computed at run time`);
  if (first?.value !== undefined && ["set", "unset", "rename-section", "remove-section", "edit"].includes(first.value)) return sideEffecting(`\`git config ${first.value}\` changes configuration`);
  const reading = reads.some((r) => scan.seen.has(r)) || scan.seen.has("l");
  if (!reading && scan.operands.length > 1) return sideEffecting("`git config KEY VALUE` sets a configuration value");
  return readOnly("git config reads configuration");
}

/** `git stash`, `git reflog`, `git worktree`, `git notes`, `git remote`: only their listing actions. */
function withAction(sub: string, args: readonly Arg[], allowed: Record<string, OptionSpec>, bare: boolean): BashVerdict {
  const first = args.findIndex((a) => a.value === undefined || !a.value.startsWith("-"));
  const action = first === -1 ? undefined : args[first];
  if (!action) return bare ? scanned(`git ${sub}`, args, allowed[""] ?? PLAIN, `git ${sub} lists`) : sideEffecting(`\`git ${sub}\` without an action changes state`);
  if (action.value === undefined) return undecidable(`\`git ${sub} ${action.text}\`: the action is computed at run time`);
  const spec = ownEntry(allowed, action.value);
  if (!spec) return sideEffecting(`\`git ${sub} ${action.value}\` changes state`);
  return scanned(`git ${sub} ${action.value}`, [...args.slice(0, first), ...args.slice(first + 1)], spec, `git ${sub} ${action.value} reads`);
}

function remote(args: readonly Arg[]): BashVerdict {
  return withAction("remote", args, { "": { only: { short: "v", long: ["verbose"] } }, "get-url": { only: { short: "", long: ["push", "all"] } } }, true);
}

function symbolicRef(args: readonly Arg[]): BashVerdict {
  const scan = scanOptions("git symbolic-ref", args, { only: { short: "q", long: ["quiet", "short", "no-recurse", "recurse"] } });
  if (scan.verdict) return scan.verdict;
  if (scan.operands.length !== 1) return sideEffecting("`git symbolic-ref NAME REF` updates a reference");
  return readOnly("git symbolic-ref reads a reference");
}

const SUBCOMMANDS: Record<string, (args: readonly Arg[]) => BashVerdict> = {
  branch,
  tag,
  config,
  remote,
  "symbolic-ref": symbolicRef,
  stash: (args) => withAction("stash", args, { list: INSPECT, show: INSPECT }, false),
  help: () => undecidable("`git help` runs man, info or a web browser"),
  "verify-commit": () => undecidable("`git verify-commit` checks signatures, which runs gpg"),
  "verify-tag": () => undecidable("`git verify-tag` checks signatures, which runs gpg"),
  reflog: (args) => withAction("reflog", args, { "": INSPECT, show: INSPECT, exists: PLAIN }, true),
  worktree: (args) => withAction("worktree", args, { list: PLAIN }, false),
  notes: (args) => withAction("notes", args, { "": PLAIN, list: PLAIN, show: PLAIN }, true),
};

/** Classify `git ARGS`. */
/**
 * Configuration a read-only command may set with `git -c KEY=VALUE`: display only, no program,
 * no file. The pager keys are here because git starts a pager only when standard output is a
 * terminal (see PROGRAM_KEYS: core.pager), which a shell tool's command never has.
 */
const INERT_CONFIG = /^(?:core\.pager|pager\.[^.]+|color\.[a-z.]+|core\.quotepath|core\.abbrev|log\.(?:decorate|abbrevcommit|date|showroot|follow)|diff\.(?:noprefix|mnemonicprefix|renames|relative|context|algorithm|indentheuristic|colormoved|statgraphwidth)|advice\.[a-z]+|column\.ui|status\.(?:short|branch|showuntrackedfiles|relativepaths)|grep\.(?:linenumber|patterntype|extendedregexp)|user\.(?:name|email)|init\.defaultbranch)$/i;

/** Is `KEY=VALUE` (or `KEY` alone) from `git -c` one that only changes how output looks? */
export function isInertGitConfig(setting: string | undefined): boolean {
  if (setting === undefined) return false;
  const eq = setting.indexOf("=");
  const key = eq === -1 ? setting : setting.slice(0, eq);
  if (!INERT_CONFIG.test(key)) return false;
  // A pager runs only on a terminal; still, only the pass-through ones and on/off are taken on trust.
  return !/^(?:core\.pager|pager\.)/i.test(key) || eq === -1 || PAGER_VALUES.test(setting.slice(eq + 1));
}

const PAGER_VALUES = /^(?:cat|less|more|true|false|yes|no|on|off|0|1|)$/i;

export function classifyGit(args: readonly Arg[]): BashVerdict {
  let i = 0;
  for (; i < args.length; i++) {
    const arg = at(args, i);
    const v = arg.value;
    if (v === undefined) return undecidable(`\`git ${arg.text}\`: the subcommand is computed at run time`);
    if (!v.startsWith("-")) break;
    const name = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
    if (v === "-c" && isInertGitConfig(args[i + 1]?.value)) {
      i++;
      continue;
    }
    if (name === "-c" || name === "--config-env") return undecidable(`\`git ${v}\` sets configuration for this run, which can make git run any program`);
    if (name === "--exec-path" && v.includes("=")) return undecidable("`git --exec-path=…` makes git run its helpers from another directory");
    if (name === "--super-prefix") return undecidable("`git --super-prefix` is git's internal option for submodules");
    if (name === "--list-cmds") continue;
    if (name === "--help") return args.length === 1 ? readOnly("git --help lists git's commands") : undecidable("`git --help COMMAND` runs man, info or a web browser");
    if (GLOBAL_VALUED.has(name)) {
      const value = v.includes("=") ? { value: v.slice(v.indexOf("=") + 1), text: arg.text } : args[++i];
      if (value === undefined) return undecidable(`\`git ${v}\` lacks its value`);
      if (value.value === undefined) return undecidable(`\`git ${name}\` gets ${value.text}, computed at run time, which could name a repository whose configuration runs programs`);
      continue;
    }
    if (!GLOBAL_FLAGS.has(v)) return sideEffecting(`\`git ${v}\` is not an option proctor knows to be read-only`);
  }
  const sub = args[i]?.value;
  if (sub === undefined) return readOnly("git without a subcommand prints help or its version");
  const rest = args.slice(i + 1);
  const help = asksForHelp(rest);
  if (help) return undecidable(`\`git ${sub} ${help.value}\` runs man, info or a web browser`);
  const rule = ownEntry(SUBCOMMANDS, sub);
  const spec = ownEntry(INSPECTION, sub);
  const classify = rule ?? (spec && ((r: readonly Arg[]) => scanned(`git ${sub}`, r, spec, `git ${sub} reads`)));
  if (!classify) return sideEffecting(`\`git ${sub}\` is not a read-only git subcommand`);
  const format = formatProblem(sub, rest);
  if (format) return format;
  return classify(rest);
}
