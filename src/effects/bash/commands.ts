/**
 * The command catalog: which simple commands only observe, and under which arguments.
 *
 * An allow-list on purpose — a command that is missing here is `side-effecting`, never silently
 * read-only. Commands that run other commands are `undecidable`.
 */
import { classifyGetent, classifyGzip, classifyKill, classifySyntaxCheck, classifyTar, classifyZipinfo } from "./everyday.js";
import { classifyGit } from "./git.js";
import { scanOptions, type OptionSpec } from "./options.js";
import { classifyAwk } from "./tools/awk.js";
import { classifyEnv, envCommand } from "./tools/env.js";
import { classifySed } from "./tools/sed.js";
import { versionQuery } from "./tools/versions.js";
import { classifyXargs, xargsCommand } from "./tools/xargs.js";
import { classifyYq } from "./tools/yq.js";
import { classifyXxd } from "./tools/xxd.js";
import { classifyUnzip } from "./tools/unzip.js";
import { classifyUniq } from "./tools/uniq.js";

export { INERT_VARIABLES, isInertVariable } from "./tools/env.js";
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "./verdict.js";
import { ownEntry } from "../../util/narrow.js";

/** Read-only whatever their arguments: no option makes them write a file or run a program. */
const ALWAYS_READ_ONLY = new Set([
  // files and text
  "cat", "tac", "xzcat", "bzcat", "nl", "head", "tail", "wc", "ls", "dir", "vdir", "stat", "readlink", "realpath", "basename", "dirname",
  "cut", "tr", "paste", "join", "comm", "fold", "fmt", "expand", "unexpand", "rev", "column", "od", "hexdump",
  "strings", "cksum", "sum", "md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum",
  "base32", "base64", "cmp", "grep", "egrep", "fgrep", "jq", "du", "df", "seq",
  // the system and the session
  "pwd", "echo", "true", "false", ":", "test", "[", "exit", "whoami", "id", "groups", "uname", "arch", "nproc", "printenv",
  "uptime", "free", "tty", "locale", "ps", "pgrep", "pidof", "which", "whereis", "type", "sleep", "lscpu",
  // navigation and shell options change only this shell
  "cd", "pushd", "popd", "dirs", "set", "shopt",
]);

/** Commands whose whole job is to run another command (or code) — what runs is not in their name. */
const RUNNERS = new Set([
  "eval", "exec", "source", ".", "sh", "bash", "zsh", "dash", "ksh", "fish", "csh", "tcsh", "busybox",
  "sudo", "doas", "su", "runuser", "nohup", "timeout", "time", "watch", "nice", "ionice", "stdbuf", "strace",
  "ltrace", "chroot", "setsid", "flock", "unbuffer", "parallel", "script", "builtin", "trap", "alias", "coproc",
  "node", "nodejs", "python", "python2", "python3", "perl", "ruby", "php", "deno", "bun", "lua", "npx", "bunx",
  "pnpx", "osascript", "expect", "let", "read", "mapfile", "readarray", "getopts", "export", "declare", "typeset",
  "local", "readonly", "unset",
]);

function scan(command: string, args: readonly Arg[], spec: OptionSpec): BashVerdict {
  return scanOptions(command, args, spec).verdict ?? readOnly(`${command} reads`);
}

/** Read-only unless an operand beyond `max` names a file it would write. */
function operandsAtMost(command: string, args: readonly Arg[], spec: OptionSpec, max: number, what: string): BashVerdict {
  const s = scanOptions(command, args, spec);
  if (s.verdict) return s.verdict;
  const beyond = s.operands[max];
  if (beyond) return sideEffecting(`\`${command} … ${beyond.text}\` ${what}`);
  return readOnly(`${command} reads`);
}

const FIND_WRITES = new Set(["-delete", "-fprint", "-fprint0", "-fprintf", "-fls"]);
const FIND_RUNS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** Commands `find -exec` may run: read-only by name, or by a rule that needs no context (not git, rg, or runners). */
const NOT_UNDER_FIND = new Set(["git", "rg", "env", "xargs", "command", "find", "fd", "fdfind", "sh", "bash", "dash", "kill"]);

/**
 * `find … -exec CMD ARG… ;` (or `{} +`): read-only when CMD is, with every `{}` a file name
 * computed at run time. `-ok`/`-okdir` ask on the terminal. Returns the index of the terminator.
 */
function findExec(args: readonly Arg[], at: number): { verdict: BashVerdict; end: number } {
  const action = args[at]?.value ?? "";
  if (action.startsWith("-ok")) return { verdict: undecidable(`\`find ${action}\` asks on the terminal before it runs a command`), end: at };
  let end = at + 1;
  while (end < args.length && !(args[end]?.value === ";" || (args[end]?.value === "+" && args[end - 1]?.value === "{}"))) end++;
  const name = args[at + 1];
  if (end >= args.length || name === undefined || end === at + 1) return { verdict: undecidable(`\`find ${action}\` without its terminator`), end };
  if (name.value === undefined || name.value.includes("/") || NOT_UNDER_FIND.has(name.value) || (!ALWAYS_READ_ONLY.has(name.value) && !ownEntry(RULES, name.value))) {
    return { verdict: undecidable(`\`find ${action}\` runs ${name.text}, a command proctor does not judge under find`), end };
  }
  const inner = args.slice(at + 2, end).map((a) => (a.value?.includes("{}") ? { text: a.text } : a));
  const v = classifyCommand(name.value, inner);
  return { verdict: v.effect === "read-only" ? v : undecidable(`\`find ${action} ${name.value}\`: ${v.reason}`), end };
}

/** The commands `find -exec` runs (for checks that look them up on PATH). */
export function findExecNames(args: readonly Arg[]): string[] {
  const names: string[] = [];
  for (let i = 0; i < args.length; i++) if (args[i]?.value !== undefined && FIND_RUNS.has(args[i]?.value as string) && args[i + 1]?.value) names.push(args[i + 1]?.value as string);
  return names;
}

/** Rules for commands whose arguments decide their effect. */
const RULES: Record<string, (args: readonly Arg[], command: string) => BashVerdict> = {
  git: classifyGit,
  sed: classifySed,
  gsed: classifySed,
  awk: (args, c) => classifyAwk(c, args),
  gawk: (args, c) => classifyAwk(c, args),
  mawk: (args, c) => classifyAwk(c, args),
  nawk: (args, c) => classifyAwk(c, args),
  "original-awk": (args, c) => classifyAwk(c, args),
  find(args) {
    for (let i = 0; i < args.length; i++) {
      const arg = args[i] as Arg;
      if (arg.value === undefined) return undecidable(`\`find\` gets the argument ${arg.text}, computed at run time, where it could be an action`);
      if (FIND_RUNS.has(arg.value)) {
        const run = findExec(args, i);
        if (run.verdict.effect !== "read-only") return run.verdict;
        i = run.end;
        continue;
      }
      if (FIND_WRITES.has(arg.value)) return sideEffecting(`\`find ${arg.value}\` ${arg.value === "-delete" ? "deletes files" : "writes a file"}`);
    }
    return readOnly("find lists files");
  },
  fd: (args) => scan("fd", args, fdSpec),
  fdfind: (args) => scan("fdfind", args, fdSpec),
  rg: (args) =>
    scan("rg", args, {
      short: { z: "runs" },
      // --pre runs a preprocessor; -z/--search-zip runs decompressors it finds through PATH.
      long: { pre: "runs", "hostname-bin": "runs", "search-zip": "runs" },
      shortValued: "efgtTABCmMjEdr",
      longValued: ["regexp", "file", "glob", "iglob", "type", "type-not", "type-add", "max-count", "max-columns", "threads", "sort", "sortr", "color", "colors", "encoding", "max-depth", "max-filesize", "replace", "path-separator", "context-separator", "ignore-file", "engine", "pre-glob", "after-context", "before-context", "context"],
      prefixes: false,
    }),
  sort: (args) =>
    scan("sort", args, {
      short: { o: "writes" },
      long: { output: "writes", "compress-program": "runs" },
      shortValued: "ktST",
      longValued: ["key", "field-separator", "buffer-size", "temporary-directory", "parallel", "files0-from", "batch-size", "random-source", "sort"],
    }),
  uniq: classifyUniq,
  xxd: classifyXxd,
  tree: (args) => scan("tree", args, { short: { o: "writes", R: "writes" }, shortValued: "LPIHT", longValued: ["charset", "filelimit", "timefmt", "sort", "fromfile"], prefixes: false }),
  // -z/-Z look inside compressed files by running decompressors found through PATH.
  file: (args) => scan("file", args, { short: { C: "writes", z: "runs", Z: "runs" }, long: { compile: "writes", uncompress: "runs", "uncompress-noreport": "runs" }, shortValued: "emfFP", longValued: ["magic-file", "files-from", "separator", "exclude", "exclude-quiet", "parameter"] }),
  // GNU diff -l/--paginate pipes its output through `pr`, found through PATH.
  diff: (args) =>
    scan("diff", args, {
      short: { l: "runs" },
      long: { paginate: "runs" },
      shortValued: "CUFIxXSDWL",
      longValued: ["context", "unified", "show-function-line", "ignore-matching-lines", "exclude", "exclude-from", "starting-file", "ifdef", "width", "label", "from-file", "to-file", "line-format", "old-line-format", "new-line-format", "unchanged-line-format", "old-group-format", "new-group-format", "changed-group-format", "unchanged-group-format", "horizon-lines", "color", "palette", "tabsize"],
    }),
  date(args) {
    const s = scanOptions("date", args, { short: { s: "writes" }, long: { set: "writes" }, shortValued: "dfr", shortAttached: "I", longValued: ["date", "file", "reference"] });
    if (s.verdict) return s.verdict;
    const setting = s.operands.find((o) => !o.value?.startsWith("+"));
    if (setting) return setting.value === undefined ? undecidable(`\`date ${setting.text}\` could set the clock`) : sideEffecting(`\`date ${setting.text}\` sets the system clock`);
    return readOnly("date prints the date");
  },
  hostname: (args) => operandsAtMost("hostname", args, { short: { F: "writes", b: "writes" }, long: { file: "writes", boot: "writes" } }, 0, "sets the host name"),
  tee: (args) => operandsAtMost("tee", args, {}, 0, "is a file tee writes to"),
  yq: classifyYq,
  // kislyuk's yq ships xq and tomlq with the same options, -i among them.
  xq: classifyYq,
  tomlq: classifyYq,
  xargs: (args) => classifyXargs(args, classifyCommand),
  printf(args) {
    const first = args[0];
    if (first?.value === undefined && first) return undecidable(`\`printf ${first.text}\`: the first argument could be -v, which assigns a variable`);
    if (first?.value === "-v") return undecidable("`printf -v` assigns a shell variable");
    return readOnly("printf prints");
  },
  command(args) {
    const flags = args.map((a) => a.value).filter((v): v is string => v?.startsWith("-") === true);
    const lookup = flags.length > 0 && flags.every((v) => /^-[vVp]+$/.test(v)) && flags.some((v) => /[vV]/.test(v));
    if (lookup && args.every((a) => a.value !== undefined)) return readOnly("command -v looks a name up");
    return undecidable("`command` runs another command");
  },
  env: (args) => classifyEnv(args, classifyCommand),
  unzip: classifyUnzip,
  tar: classifyTar,
  gzip: (args, c) => classifyGzip(c, args),
  gunzip: (args, c) => classifyGzip(c, args),
  zcat: (args, c) => classifyGzip(c, args),
  zipinfo: (args, c) => classifyZipinfo(c, args),
  getent: classifyGetent,
  kill: (args) => classifyKill(args) ?? sideEffecting("`kill` sends a signal"),
  sh: (args, c) => classifySyntaxCheck(c, args) ?? undecidable(`\`${c}\` runs other commands or code, which proctor cannot see`),
  bash: (args, c) => classifySyntaxCheck(c, args) ?? undecidable(`\`${c}\` runs other commands or code, which proctor cannot see`),
  dash: (args, c) => classifySyntaxCheck(c, args) ?? undecidable(`\`${c}\` runs other commands or code, which proctor cannot see`),
};

/** Read-looking programs that are not read-only, with the reason a verdict gives. */
const NOT_READ_ONLY: Record<string, { effect: "undecidable" | "side-effecting"; why: string }> = {
  less: { effect: "undecidable", why: "is a pager: it runs the LESSOPEN preprocessor, an editor and `!` commands" },
  more: { effect: "undecidable", why: "is a pager, which can run commands (`!`) and an editor" },
  most: { effect: "undecidable", why: "is a pager, which can run commands and an editor" },
  pg: { effect: "undecidable", why: "is a pager, which can run commands" },
  man: { effect: "undecidable", why: "runs a pager and formatters (MANPAGER, PAGER, groff, -P, -H)" },
  info: { effect: "undecidable", why: "runs a browser that can run commands" },
  dd: { effect: "side-effecting", why: "writes the file named by of=" },
  split: { effect: "side-effecting", why: "writes files" },
  csplit: { effect: "side-effecting", why: "writes files" },
  curl: { effect: "side-effecting", why: "makes network requests" },
  wget: { effect: "side-effecting", why: "makes network requests and writes files" },
  zgrep: { effect: "undecidable", why: "is a script that runs gzip and grep found through PATH" },
  zless: { effect: "undecidable", why: "is a script that runs gzip and a pager" },
  zmore: { effect: "undecidable", why: "is a script that runs gzip and a pager" },
};

/** fd: `-x`/`-X` run a command per result; `-l`/`--list-details` runs `ls`, found through PATH. */
const fdSpec: OptionSpec = {
  short: { x: "runs", X: "runs", l: "runs" },
  long: { exec: "runs", "exec-batch": "runs", "list-details": "runs" },
  shortValued: "etdESjco",
  longValued: ["extension", "type", "max-depth", "min-depth", "exact-depth", "exclude", "size", "changed-within", "changed-before", "threads", "max-results", "color", "owner", "base-directory", "search-path", "path-separator", "ignore-file", "format", "batch-size", "max-buffer-time"],
  prefixes: false,
};

/** Standard places a command may be named by absolute path (`/usr/bin/git` is `git`). */
const SYSTEM_PATH = /^\/(?:usr\/(?:local\/)?)?s?bin\/([^/]+)$/;

/** Classify one simple command by its name and arguments. */
export function classifyCommand(name: string, args: readonly Arg[]): BashVerdict {
  let command = name;
  if (name.includes("/")) {
    const m = SYSTEM_PATH.exec(name);
    if (!m) return sideEffecting(`\`${name}\` runs a program by path; proctor cannot know what it does`);
    command = m[1] ?? name;
  }
  if (ALWAYS_READ_ONLY.has(command)) return readOnly(`${command} only reads`);
  const rule = ownEntry(RULES, command);
  if (rule) return rule(args, command);
  const version = versionQuery(command, args);
  if (version) return version;
  if (RUNNERS.has(command)) return undecidable(`\`${command}\` runs other commands or code, which proctor cannot see`);
  const known = ownEntry(NOT_READ_ONLY, command);
  if (known) return known.effect === "undecidable" ? undecidable(`\`${command}\` ${known.why}`) : sideEffecting(`\`${command}\` ${known.why}`);
  return sideEffecting(`\`${command}\` is not a command proctor knows to be read-only`);
}

/**
 * The command a simple command finally runs, looking through `env` and `xargs` (which run
 * another command with its own arguments): `env -u X git log` runs `git log`. Checks that judge
 * a command by where it runs — its repository's configuration, PATH — apply to this one too.
 */
export function innermostCommand(name: string, args: readonly Arg[]): { name: string; args: readonly Arg[]; chdirs?: readonly Arg[] } {
  let current: { name: string; args: readonly Arg[]; chdirs?: readonly Arg[] } = { name, args };
  for (let depth = 0; depth < 16; depth++) {
    const base = current.name.includes("/") ? SYSTEM_PATH.exec(current.name)?.[1] : current.name;
    const inner: { name: string; args: readonly Arg[]; chdirs?: readonly Arg[] } | undefined = base === "env" ? envCommand(current.args) : base === "xargs" ? xargsCommand(current.args) : undefined;
    if (!inner) return current;
    // `env -C DIR` moves the commands it runs: the directories add up along the chain.
    const chdirs = [...(current.chdirs ?? []), ...(inner.chdirs ?? [])];
    current = { name: inner.name, args: inner.args, ...(chdirs.length > 0 ? { chdirs } : {}) };
  }
  return current;
}

/** The commands the catalog knows to be read-only (for docs and tests). */
export function readOnlyCommandNames(): string[] {
  return [...ALWAYS_READ_ONLY, ...Object.keys(RULES)].sort();
}
