/**
 * THE list of git configuration keys (and environment variables) that make a git command the
 * classifier calls read-only run a program or write a file — one entry per key, with the git
 * documentation section that says so and the subcommands it reaches. `in-context.ts` consults it;
 * `test/effects/repo-context.test.ts` proves every entry against real git, or checks the reason an
 * entry cannot reach a read-only command. Add a key here and the tests demand its proof.
 */

/** When an entry reaches a command: the subcommand and its arguments (after the subcommand). */
export type Reach = (subcommand: string, args: readonly string[]) => boolean;

export interface ProgramKey {
  /** The key as git documents it, `<placeholder>` for any subsection (`diff.<driver>.textconv`). */
  readonly key: string;
  /** What runs (or is written) when it is set. */
  readonly runs: string;
  /** Where git documents it: man page and section. */
  readonly doc: string;
  /** The read-only subcommands it reaches; `never` entries reach none. */
  readonly reach: Reach;
  /** Human description of `reach`, for docs and messages. */
  readonly reachText: string;
  /** Values that leave it off (a boolean `false`); by default any value counts as set. */
  readonly off?: (value: string | undefined) => boolean;
  /** Only values this accepts matter (`pretty.<name>` only when it asks for a signature). */
  readonly when?: (value: string | undefined) => boolean;
  /** Why it can never run on a read-only command — set instead of a reach that matters. */
  readonly never?: string;
  /** Set when proctor judges what the key points to rather than the key (hooks: the hook files). */
  readonly judgedBy?: string;
}

/** A set of subcommands as a reach. */
const on =
  (...subs: string[]): Reach =>
  (sub) =>
    subs.includes(sub);
const every: Reach = () => true;
const nowhere: Reach = () => false;
/** `git CMD --help` (and `git help`) open the manual through the configured viewer. */
const help: Reach = (sub, args) => sub === "help" || args.some((a) => a === "--help");

/**
 * Subcommands that produce diffs or file contents that a diff driver, textconv or external diff
 * can touch. `status` diffs only with `-v` (shown with real git in the tests).
 */
export const DIFFING = ["diff", "log", "show", "whatchanged", "diff-tree", "diff-index", "diff-files", "range-diff", "stash", "reflog", "format-patch", "grep", "blame", "annotate", "cat-file", "shortlog", "add", "commit"];
const diffing: Reach = (sub, args) => DIFFING.includes(sub) || (sub === "status" && args.some((a) => a.startsWith("--verb") || /^-[a-zA-Z]*v/.test(a)));
const DIFFING_TEXT = `${DIFFING.join(", ")}, status -v`;
/** Subcommands that print commits and can verify their signatures. */
export const COMMIT_PRINTING = ["log", "show", "whatchanged", "reflog", "stash", "shortlog", "rev-list"];
/** Subcommands that can replay a merge (`--remerge-diff`). */
const REMERGING = ["log", "show", "whatchanged", "diff-tree", "reflog"];

/** git's boolean false spellings (`git_config_bool`): `false no off 0` and the empty value. */
export const isFalse = (value: string | undefined): boolean => value !== undefined && /^(?:false|no|off|0|)$/i.test(value.trim());

const asksForSignature = (value: string | undefined): boolean => value !== undefined && /%G/.test(value);

export const PROGRAM_KEYS: readonly ProgramKey[] = [
  {
    key: "core.fsmonitor",
    runs: "the file-system monitor hook, through the shell, whenever the index is read",
    doc: "git-config(1) core.fsmonitor; git-update-index(1) FILE SYSTEM MONITOR",
    reach: every,
    reachText: "every subcommand that reads the index (status, diff, ls-files, grep, …)",
    off: isFalse,
  },
  {
    key: "core.hooksPath",
    runs: "hooks from another directory: `post-index-change` runs whenever a command refreshes and writes the index (status, diff)",
    doc: "git-config(1) core.hooksPath; githooks(5) post-index-change",
    reach: every,
    reachText: "every subcommand that may write the index",
    judgedBy: "the hook file: proctor looks for post-index-change in every hooks directory (core.hooksPath and <common dir>/hooks), so a repository whose hooks path holds only commit hooks stays usable",
  },
  {
    key: "diff.external",
    runs: "an external diff program instead of git's own",
    doc: "git-config(1) diff.external; git(1) GIT_EXTERNAL_DIFF",
    reach: diffing,
    reachText: DIFFING_TEXT,
  },
  {
    key: "diff.<driver>.command",
    runs: "the diff driver's program for paths with that diff attribute",
    doc: "git-config(1) diff.<driver>.command; gitattributes(5) Defining an external diff driver",
    reach: diffing,
    reachText: DIFFING_TEXT,
  },
  {
    key: "diff.<driver>.textconv",
    runs: "the textconv program, to turn a file into text before showing or diffing it",
    doc: "git-config(1) diff.<driver>.textconv; gitattributes(5) Performing text diffs of binary files",
    reach: diffing,
    reachText: DIFFING_TEXT,
  },
  {
    key: "filter.<driver>.clean",
    runs: "the clean filter, whenever git compares a working-tree file with the index",
    doc: "git-config(1) filter.<driver>.clean; gitattributes(5) filter",
    reach: every,
    reachText: "every subcommand that looks at the working tree (status, diff, grep, …)",
  },
  {
    key: "filter.<driver>.smudge",
    runs: "the smudge filter, whenever git writes or shows a blob as a working-tree file",
    doc: "git-config(1) filter.<driver>.smudge; gitattributes(5) filter; git-cat-file(1) --filters",
    reach: every,
    reachText: "every subcommand (cat-file --filters, diff --textconv paths, …)",
  },
  {
    key: "filter.<driver>.process",
    runs: "a long-running filter process, started for the first file that needs a filter",
    doc: "git-config(1) filter.<driver>.process; gitattributes(5) Long Running Filter Process",
    reach: every,
    reachText: "every subcommand that runs clean or smudge filters",
  },
  {
    key: "merge.<driver>.driver",
    runs: "the merge driver, when a merge is replayed",
    doc: "git-config(1) merge.<driver>.driver; gitattributes(5) Defining a custom merge driver; git-log(1) --remerge-diff",
    reach: on(...REMERGING),
    reachText: `${REMERGING.join(", ")} (--remerge-diff)`,
  },
  {
    key: "man.viewer",
    runs: "the manual viewer named there",
    doc: "git-config(1) man.viewer; git-help(1) CONFIGURATION VARIABLES",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "man.<tool>.cmd",
    runs: "a manual viewer command, through the shell",
    doc: "git-config(1) man.<tool>.cmd; git-help(1) man.<tool>.cmd",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "man.<tool>.path",
    runs: "the program at that path as the manual viewer",
    doc: "git-config(1) man.<tool>.path; git-help(1) man.<tool>.path",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "help.format",
    runs: "a web browser (format `web`/`html`) or another viewer for the manual",
    doc: "git-config(1) help.format; git-help(1) help.format",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "help.browser",
    runs: "the browser named there, for HTML manuals",
    doc: "git-config(1) help.browser; git-help(1) help.browser",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "web.browser",
    runs: "the browser named there, for HTML manuals",
    doc: "git-config(1) web.browser; git-web--browse(1)",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "browser.<tool>.cmd",
    runs: "a browser command, through the shell",
    doc: "git-config(1) browser.<tool>.cmd; git-web--browse(1)",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "browser.<tool>.path",
    runs: "the program at that path as the browser",
    doc: "git-config(1) browser.<tool>.path; git-web--browse(1)",
    reach: help,
    reachText: "git help, and any subcommand with --help",
  },
  {
    key: "log.showSignature",
    runs: "gpg (or gpg.program) to verify every signed commit shown",
    doc: "git-config(1) log.showSignature; git-log(1) --show-signature",
    reach: on(...COMMIT_PRINTING),
    reachText: COMMIT_PRINTING.join(", "),
    off: isFalse,
  },
  {
    key: "pretty.<name>",
    runs: "gpg, when the named format asks for a signature (%G?, %GS, %GK, …) and is used",
    doc: "git-config(1) pretty.<name>; git-log(1) PRETTY FORMATS",
    reach: on(...COMMIT_PRINTING),
    reachText: COMMIT_PRINTING.join(", "),
    when: asksForSignature,
  },
  {
    key: "format.pretty",
    runs: "gpg, when the default format asks for a signature (%G?, %GS, %GK, …)",
    doc: "git-config(1) format.pretty; git-log(1) PRETTY FORMATS",
    reach: on(...COMMIT_PRINTING),
    reachText: COMMIT_PRINTING.join(", "),
    when: asksForSignature,
  },
  {
    key: "gpg.program",
    runs: "that program instead of gpg, to verify signatures",
    doc: "git-config(1) gpg.program",
    reach: nowhere,
    reachText: "signature verification, which proctor treats as running a program whatever the configuration",
    never: "it only runs to verify a signature, and every verification (--show-signature, %G formats, tag -v, log.showSignature) is undecidable anyway",
  },
  {
    key: "gpg.<format>.program",
    runs: "that program to verify openpgp, x509 or ssh signatures",
    doc: "git-config(1) gpg.<format>.program",
    reach: nowhere,
    reachText: "signature verification, which proctor treats as running a program whatever the configuration",
    never: "it only runs to verify a signature, and every verification is undecidable anyway",
  },
  {
    key: "remote.<name>.promisor",
    runs: "a lazy fetch whenever an object is missing (a partial clone): the network, and the transport's programs — remote.<name>.uploadpack, core.sshCommand, credential helpers",
    doc: "git-config(1) remote.<name>.promisor; partial-clone (Documentation/technical/partial-clone.txt)",
    reach: every,
    reachText: "every subcommand that reads an object (show, log -p, blame, diff, cat-file, …)",
    off: isFalse,
  },
  {
    key: "extensions.partialClone",
    runs: "a lazy fetch from the remote named there whenever an object is missing, as remote.<name>.promisor",
    doc: "git-config(1) extensions.partialClone; partial-clone (Documentation/technical/partial-clone.txt)",
    reach: every,
    reachText: "every subcommand that reads an object",
  },
  {
    key: "trace2.normalTarget",
    runs: "nothing, but every git command appends to the file (or socket) named there",
    doc: "git-config(1) trace2.normalTarget; api-trace2 Enabling a target",
    reach: every,
    reachText: "every subcommand",
  },
  {
    key: "trace2.perfTarget",
    runs: "nothing, but every git command appends to the file (or socket) named there",
    doc: "git-config(1) trace2.perfTarget; api-trace2 Enabling a target",
    reach: every,
    reachText: "every subcommand",
  },
  {
    key: "trace2.eventTarget",
    runs: "nothing, but every git command appends to the file (or socket) named there",
    doc: "git-config(1) trace2.eventTarget; api-trace2 Enabling a target",
    reach: every,
    reachText: "every subcommand",
  },
  {
    key: "alias.<name>",
    runs: "the alias (a `!` alias through the shell) — when the subcommand is an alias",
    doc: "git-config(1) alias.*",
    reach: nowhere,
    reachText: "an alias named like the subcommand; proctor checks the name, not this list",
    never: "git ignores an alias that hides a built-in command, and every subcommand the classifier calls read-only is built in; proctor still refuses an alias named like the subcommand",
  },
  {
    key: "core.pager",
    runs: "the pager, through the shell",
    doc: "git-config(1) core.pager; git(1) --paginate",
    reach: nowhere,
    reachText: "paging commands, only when standard output is a terminal",
    never: "git starts a pager only when standard output is a terminal, even with --paginate; a shell tool's command writes to a pipe",
  },
  {
    key: "pager.<cmd>",
    runs: "a per-command pager, through the shell",
    doc: "git-config(1) pager.<cmd>",
    reach: nowhere,
    reachText: "that subcommand, only when standard output is a terminal",
    never: "git starts a pager only when standard output is a terminal; a shell tool's command writes to a pipe",
  },
  {
    key: "core.editor",
    runs: "the editor",
    doc: "git-config(1) core.editor; sequence.editor",
    reach: nowhere,
    reachText: "commands that edit (commit, rebase -i, tag -a, config --edit)",
    never: "only commands that edit run it, and none is read-only",
  },
  {
    key: "core.sshCommand",
    runs: "ssh (or the command named) for ssh transports; likewise core.gitProxy, remote.<name>.uploadpack, url.<base>.insteadOf, credential.helper, core.askPass, protocol.*, uploadpack.*",
    doc: "git-config(1) core.sshCommand, core.gitProxy, remote.<name>.uploadpack, credential.helper, core.askPass",
    reach: nowhere,
    reachText: "network commands (fetch, pull, push, ls-remote, clone)",
    never: "only network commands use them, and none is read-only (the network is an external effect)",
  },
  {
    key: "submodule.<name>.update",
    runs: "a `!command` update method; and status/diff run git inside each submodule, with the submodule's own configuration",
    doc: "git-config(1) submodule.<name>.update, status.submoduleSummary, diff.submodule; gitmodules(5)",
    reach: nowhere,
    reachText: "submodule update (not read-only); repositories with submodules are handled as a whole: see in-context.ts",
    never: "`!command` runs only on `git submodule update`; the submodules' own configurations are read like the main one",
  },
];

/** Environment variables that make read-only git commands run a program or write a file. */
export interface ProgramEnv {
  readonly name: string;
  readonly runs: string;
  readonly doc: string;
  readonly reach: Reach;
  readonly off?: (value: string) => boolean;
}

/** GIT_TRACE* are off when empty, `0` or `false`; `1`, `2`, `true` or a descriptor write to stderr/that descriptor. */
const traceOff = (v: string) => /^(?:|0|false|1|2|true|[3-9])$/i.test(v.trim());

export const PROGRAM_ENV: readonly ProgramEnv[] = [
  { name: "GIT_EXTERNAL_DIFF", runs: "an external diff program", doc: "git(1) ENVIRONMENT, GIT_EXTERNAL_DIFF", reach: diffing },
  { name: "GIT_EXEC_PATH", runs: "git's helper programs from another directory", doc: "git(1) --exec-path, GIT_EXEC_PATH", reach: every },
  ...["GIT_TRACE", "GIT_TRACE2", "GIT_TRACE2_EVENT", "GIT_TRACE2_PERF", "GIT_TRACE_PACKET", "GIT_TRACE_PACK_ACCESS", "GIT_TRACE_PACKFILE", "GIT_TRACE_PERFORMANCE", "GIT_TRACE_SETUP", "GIT_TRACE_SHALLOW", "GIT_TRACE_CURL", "GIT_TRACE_FSMONITOR", "GIT_TRACE_REFS"].map(
    (name): ProgramEnv => ({ name, runs: "nothing, but git appends its trace to the file named there", doc: `git(1) ENVIRONMENT, ${name}`, reach: every, off: traceOff }),
  ),
];

/** PROGRAM_KEYS by section, parsed once: `diff.<driver>.textconv` → diff, any subsection, textconv. */
const BY_SECTION = new Map<string, { readonly entry: ProgramKey; readonly name?: string; readonly sub: boolean }[]>();
for (const entry of PROGRAM_KEYS) {
  const parts = entry.key.toLowerCase().split(".");
  const [section = ""] = parts;
  const last = parts.at(-1) ?? "";
  const list = BY_SECTION.get(section) ?? [];
  list.push({ entry, ...(last.startsWith("<") ? {} : { name: last }), sub: parts.length === 3 });
  BY_SECTION.set(section, list);
}
const NONE: readonly ProgramKey[] = [];

/** The entries (of `PROGRAM_KEYS`) a configured key matches: section, subsection presence, name (`pretty.<name>`: any). */
export function programKeysFor(section: string, subsection: string | undefined, name: string): readonly ProgramKey[] {
  const candidates = BY_SECTION.get(section);
  if (!candidates) return NONE;
  return candidates.filter((c) => (c.name === undefined || c.name === name) && c.sub === (subsection !== undefined)).map((c) => c.entry);
}
