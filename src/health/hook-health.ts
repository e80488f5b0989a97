/**
 * Did each hook run as designed? Claude Code's own semantics decide, as recorded from 2.1.197 and
 * 2.1.332 (test/health/recordings):
 *
 * - A hook that answers `{"async": true, …}` on its first stdout line (or is configured `async`,
 *   `asyncRewake`) runs in the background; claude cancels whatever still runs when the session
 *   ends and says so with a `cancelled` answer *after* its result line (`cancelledAtEnd`). That is
 *   a healthy run. A hook cancelled before the result line ran past its timeout.
 * - A hook whose own command could not start or died before answering did not run, whatever exit
 *   code it was wrapped in: the README's `… || exit 2` turns `/bin/sh: 1: …: not found` (127) into
 *   a deliberate-looking block. The evidence is read from the hook's stderr, and only lines a
 *   program other than the hook's own logic writes there, each anchored at the start of a line:
 *   the launching shell's diagnostics (`/bin/sh: 1: CMD: not found`, `Permission denied`, `No such
 *   file or directory`), the shell's report of a child killed by a signal (a line that is just
 *   `Killed`, `Segmentation fault`, …), an interpreter that could not open the hook's script
 *   (`python3: can't open file …`), and an uncaught crash (a Python `Traceback (most recent call
 *   last):`, Node's closing `Node.js vX.Y.Z` line). A hook that denies on purpose says why in its
 *   own words (stderr with exit 2, or JSON on stdout, which is never read for evidence); only a
 *   hook that imitates one of those lines word for word at the start of a line is misread, and the
 *   eval can switch `hooks-ok` off with its reason.
 *
 * Pure: a HookEvent in, a verdict out.
 */
import type { HookEvent } from "../trace/types.js";

/** Why a hook did not run as designed. */
export type HookProblemKind = "not-found" | "not-executable" | "killed" | "crashed" | "timed-out" | "never-answered";

/** One hook run that did not happen as designed, with the line that shows it (when stderr had one). */
export interface HookProblem {
  readonly kind: HookProblemKind;
  /** The stderr line that is the evidence, else undefined (the exit code or outcome decided). */
  readonly evidence?: string;
}

const SHELL = "(?:/usr)?(?:/bin/)?(?:sh|bash|dash|zsh|ksh|ash)";
/** dash/sh `/bin/sh: 1: CMD: not found`, bash `bash: line 1: CMD: command not found` / `bash: CMD: No such file or directory`, zsh `zsh:1: command not found: CMD`. */
const SHELL_CANNOT_RUN = new RegExp(String.raw`^${SHELL}:(?: line)? ?(?:\d+: )?(?:.+: )?(not found|command not found|Permission denied|No such file or directory|Is a directory|cannot execute[^\n]*)(?:: .+)?$`);
/** What a shell prints for a child a signal ended (dash: the name alone; bash: `sh: line 1: 123 Killed  cmd`). */
const SIGNAL_NAMES = String.raw`(?:Killed|Terminated|Segmentation fault|Aborted|Bus error|Illegal instruction|Floating point exception|Hangup|Quit|Alarm clock|User defined signal [12]|CPU time limit exceeded|File size limit exceeded|Trace/breakpoint trap)(?: \(core dumped\))?`;
const SHELL_SIGNAL = new RegExp(String.raw`^(?:${SIGNAL_NAMES}|${SHELL}: line \d+: +\d+ ${SIGNAL_NAMES}\b.*)$`);
/** An interpreter that could not open the hook's script. */
const SCRIPT_MISSING = /^\S*python[\d.]*: can't open file .+$/;
/** An uncaught crash: Python's traceback header, Node's closing version line. */
const CRASH = /^(?:Traceback \(most recent call last\):|Node\.js v\d+\.\d+\.\d+)$/;

/** The first stderr line that shows the hook's own command did not run as designed, and what it shows. */
export function startEvidence(stderr: string): HookProblem | undefined {
  for (const raw of stderr.split(/\r?\n/)) {
    const line = raw.trim();
    // The lines looked for are short; a hook's long output line is its own words, and is skipped unread.
    if (!line || line.length > 2000) continue;
    const shell = SHELL_CANNOT_RUN.exec(line);
    if (shell) return { kind: shell[1] === "Permission denied" || shell[1]?.startsWith("cannot execute") || shell[1] === "Is a directory" ? "not-executable" : "not-found", evidence: line };
    if (SCRIPT_MISSING.test(line)) return { kind: "not-found", evidence: line };
    if (SHELL_SIGNAL.test(line)) return { kind: "killed", evidence: line };
    if (CRASH.test(line)) return { kind: "crashed", evidence: crashLine(stderr) ?? line };
  }
  return undefined;
}

/** The line of a crash that says what went wrong (Node's `Error: …`, Python's last line). */
function crashLine(stderr: string): string | undefined {
  const lines = stderr.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const node = lines.find((l) => /^[A-Z]\w*(?:Error|Exception)\b.*:/.test(l));
  if (node) return node;
  const python = lines.filter((l) => /^[\w.]+(?:Error|Exception|Exit|Interrupt)\b/.test(l)).at(-1);
  return python;
}

/** Does the hook's first stdout line say it went async (`{"async": true, …}`)? */
export function wentAsync(hook: Partial<Pick<HookEvent, "stdout" | "output">>): boolean {
  const first = (hook.stdout ?? hook.output ?? "").trimStart().split("\n", 1)[0]?.trim() ?? "";
  if (!first.startsWith("{")) return false;
  try {
    const json = JSON.parse(first) as unknown;
    return typeof json === "object" && json !== null && (json as { async?: unknown }).async === true;
  } catch {
    return false;
  }
}

/**
 * The problem with one hook run, or undefined when it ran as designed. `complete`: the run reached
 * its result line (a hook that never answered in a cut-off run is the run's problem, not the hook's).
 */
export function hookProblem(hook: HookEvent, complete: boolean): HookProblem | undefined {
  if (hook.cancelledAtEnd) return undefined;
  if (hook.exitCode === null && hook.outcome !== "cancelled") return complete ? { kind: "never-answered" } : undefined;
  const evidence = startEvidence(hook.stderr ?? (hook.stdout === undefined ? hook.output : ""));
  if (evidence) return evidence;
  if (hook.outcome === "cancelled") return { kind: "timed-out" };
  if (hook.blocked) return undefined;
  if (hook.exitCode === 0) return hook.outcome === "error" ? { kind: "crashed" } : undefined;
  if (hook.exitCode === 126) return { kind: "not-executable" };
  if (hook.exitCode === 127) return { kind: "not-found" };
  if (hook.exitCode !== null && hook.exitCode > 128 && hook.exitCode < 160) return { kind: "killed" };
  return { kind: "crashed" };
}

/** One line for a hook problem: the hook, what happened, how it answered, what it printed. */
export function describeHookProblem(hook: HookEvent, problem: HookProblem): string {
  const exit = hook.exitCode === null ? "" : hook.blocked ? ` (exit ${hook.exitCode}, which claude took as a deliberate block)` : ` (exit ${hook.exitCode})`;
  const what: Record<HookProblemKind, string> = {
    "not-found": `could not start its command${exit}`,
    "not-executable": `could not run its command: not executable${exit}`,
    killed: `was killed by a signal before it answered${exit}`,
    crashed: `crashed${exit}`,
    "timed-out": wentAsync(hook) ? "went async and then ran past its asyncTimeout (claude cancelled it)" : "timed out (claude cancelled it)",
    "never-answered": "never answered in a run that finished",
  };
  const printed = problem.evidence ?? firstLine(hook.stderr ?? "");
  return `${hook.name} ${what[problem.kind]}${printed ? `: ${clip(printed)}` : ""}`;
}

/** What to do about the problems found: one hint per kind present, most specific first. */
export function hookFix(problems: readonly HookProblem[]): string {
  const kinds = new Set(problems.map((p) => p.kind));
  const fixes: string[] = [];
  if (kinds.has("not-found") || kinds.has("not-executable")) {
    fixes.push("the hook's command must start inside the trial: its work dir is a fresh copy of the fixture ($CLAUDE_PROJECT_DIR, with no node_modules), so give the command an absolute path (the README's gate hook: PROCTOR_BIN in the spec's env), put it on PATH, or ship it in the plugin ($CLAUDE_PLUGIN_ROOT); chmod +x a script run by path");
  }
  if (kinds.has("killed") || kinds.has("crashed") || kinds.has("never-answered")) fixes.push("run the hook by hand with the input it got (proctor's runHook) and read what it printed");
  if (kinds.has("timed-out")) fixes.push("raise the hook's timeout, or make a slow hook async");
  fixes.push("a hook that blocks on purpose exits 2 or answers with JSON, in its own words");
  return fixes.join("; ");
}

const firstLine = (text: string) => text.trim().split("\n", 1)[0] ?? "";
const clip = (text: string) => (text.length > 160 ? `${text.slice(0, 159)}…` : text);
