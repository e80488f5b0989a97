/**
 * The Trace: what one agent run did, in one JSON-serialisable shape.
 *
 * Every producer (recorded transcripts, the mock-model harness, real-API evals, Codex runs)
 * normalises into this shape once, at its boundary, so every check sees the same thing.
 */

import type { RunHealth } from "../health/run-health.js";

/** Outcome of one tool call, in the typed tool-result vocabulary. */
export type ToolStatus = "success" | "failure" | "denied" | "invalid" | "partial" | "pending" | "absent";

/** The statuses, in a stable order (for schemas and menus). */
export const TOOL_STATUSES: readonly ToolStatus[] = [
  "success",
  "failure",
  "denied",
  "invalid",
  "partial",
  "pending",
  "absent",
];

/**
 * Who stopped a denied call, as the run's own record shows it: a PreToolUse `hook`, the
 * `permission` rules or mode, one of the agent's `builtin` guards (e.g. claude refusing to delete
 * the work dir), a `sandbox`, or `unknown` when the run listed the denial but left no evidence of
 * who made it. Never guessed: a guard test must not pass on a denial its hook did not make.
 */
export type DeniedBy = "hook" | "permission" | "builtin" | "sandbox" | "unknown";

/** The deniers, in a stable order (for schemas and menus). */
export const DENIED_BY: readonly DeniedBy[] = ["hook", "permission", "builtin", "sandbox", "unknown"];

/** Which agent made a call: the main loop, or the subagent dispatched by a tool_use id. */
export const MAIN_AGENT = "main";

/** One tool call, whatever happened to it next. */
export interface ToolCall {
  /** The model's tool_use id. */
  readonly id: string;
  /** Tool name as the agent reports it (`Bash`, `mcp__server__tool`, …). */
  readonly name: string;
  /** The arguments the model sent. */
  readonly input: Record<string, unknown>;
  /** The tool result as text (blocks flattened); absent when no result came back. */
  readonly result?: string;
  readonly status: ToolStatus;
  /** `"main"`, or the tool_use id of the Agent/Task call whose subagent made this call. */
  readonly agent: string;
  /** The subagent type when `agent` is not main. */
  readonly agentType?: string;
  /** Who denied the call (only on `denied` calls); see DeniedBy. */
  readonly deniedBy?: DeniedBy;
  /** Index into `trace.hooks` of the hook event that denied the call, when it was recorded. */
  readonly denyingHook?: number;
  /**
   * The model message (1-based, counted over the whole run) the call came from. Calls sharing
   * a turn were issued together (parallel calls), so ordered trajectory modes do not order them
   * among themselves. Absent: the call is its own turn.
   */
  readonly turn?: number;
  /** Typed effects carried by an envelope result, kept as data. */
  readonly effects?: readonly unknown[];
  /**
   * The call's work went on in the background (claude ≥ 2.1.3xx: a subagent, a shell started with
   * `run_in_background`, a Monitor), so `result` is a launch notice. How it ended, from its task
   * notification: `completed`, `failed`, `killed`, … or `running` when the run ended first.
   */
  readonly background?: { readonly status: string; readonly summary?: string };
  /**
   * The command that actually ran, when a PreToolUse hook rewrote it (`updatedInput`, e.g.
   * `proctor gate` running it confined); `input` keeps the model's. `refused`: what the
   * confinement refused, as the result shows it ("Read-only file system") — an observed fact
   * against whatever let the call through as read-only.
   */
  readonly ran?: { readonly command: string; readonly by: "hook"; readonly refused?: string };
  /**
   * What the call's processes were seen doing (a live run proctor observed: `trace.observation`).
   * Absent on a call nothing was attributed to; on an observed trace an absent record on a Bash
   * call is not evidence of no effect (see Observation.unattributed).
   */
  readonly observed?: readonly ObservedEffect[];
}

/**
 * One thing a process of the run was seen doing, from the kernel's side (system calls and their
 * results), not predicted from a command's text. Paths are absolute, as the process resolved them.
 */
export interface ObservedEffect {
  /**
   * `write`: a file opened for writing or truncated (FIFOs, sockets, devices included — `fileType` says);
   * `create`/`delete`/`rename`/`mkdir`/`rmdir`/`link`/`chmod`: the namespace change; `exec`: a program run;
   * `connect`: a connection attempted (and `address`); `signal`: a signal sent to a process outside the call;
   * `refused`: an operation the confinement (or the file system) refused — the attempt is the effect.
   */
  readonly kind: "write" | "create" | "delete" | "rename" | "mkdir" | "rmdir" | "link" | "chmod" | "exec" | "connect" | "signal" | "refused";
  /** The system call that did it (`openat`, `execve`, `connect`, …). */
  readonly syscall: string;
  readonly path?: string;
  /** rename/link target. */
  readonly to?: string;
  /** What `path` is, when it is not a regular file or directory. */
  readonly fileType?: "fifo" | "socket" | "device";
  /** exec: the program's argv (each argument cut at 4 KiB). */
  readonly argv?: readonly string[];
  /** connect: `127.0.0.1:8080`, `[::1]:443`, `unix:/path`, `unix:@abstract`. */
  readonly address?: string;
  /** signal: its name and the target pid (the kernel's pid as the observer saw it). */
  readonly signal?: string;
  readonly target?: number;
  /** The error the call returned (`EACCES`, `EROFS`, `EPERM`, …); absent when it succeeded. */
  readonly errno?: string;
  /** The observing pid of the process that did it. */
  readonly pid: number;
}

/** Who an observed process belonged to. */
export type ObservedOwner =
  | { readonly kind: "call"; readonly callId: string }
  | { readonly kind: "hook"; readonly name: string; readonly command: string }
  | { readonly kind: "mcp"; readonly server: string }
  | { readonly kind: "agent" };

/**
 * The run's observed effects (live runs only): how they were observed, and what could not be tied
 * to a call. Each call's own record is `ToolCall.observed`; hooks' and MCP servers' are here.
 */
export interface Observation {
  /** How: `strace` (ptrace on a syscall subset). */
  readonly mechanism: "strace";
  /** Effects of hooks, MCP servers and the agent's own process (its bookkeeping, Write/Edit calls are on the call). */
  readonly others: readonly { readonly owner: ObservedOwner; readonly effects: readonly ObservedEffect[] }[];
  /** Effects seen in a process no call, hook or server could be tied to: checks that need a call's whole record fail closed on these. */
  readonly unattributed: readonly ObservedEffect[];
  /** Where the observation is known to be incomplete (a log cut short, a process that escaped tracing), each with why. */
  readonly gaps: readonly string[];
}

/** One subagent dispatch (an `Agent`, or older `Task`, call). */
export interface SubagentRun {
  /** The dispatching tool_use id; calls made inside carry it as `agent`. */
  readonly id: string;
  readonly type: string;
  readonly description?: string;
  readonly prompt: string;
  /** Indices into `trace.toolCalls` of the calls this subagent made. */
  readonly calls: readonly number[];
  /** The subagent's final text (the Agent call's result). */
  readonly output?: string;
  readonly status: ToolStatus;
}

/** One skill activation. */
export interface SkillActivation {
  /** The skill id as invoked (`name` or `plugin:name`). */
  readonly name: string;
  /** Index into `trace.toolCalls` of the `Skill` call that began it. */
  readonly callIndex: number;
  readonly agent: string;
  readonly status: ToolStatus;
}

/** One hook execution as the CLI reported it. */
export interface HookEvent {
  /** `PreToolUse:Bash`, `Stop`, `SubagentStop`, … */
  readonly name: string;
  /** The hook event (`PreToolUse`, `Stop`, …). */
  readonly event: string;
  /** `null` when the hook never reported back (the run ended first). */
  readonly exitCode: number | null;
  readonly outcome: string;
  /** Did this hook block what it guarded (exit 2, deny, block, continue:false)? */
  readonly blocked: boolean;
  /** The decision the hook's JSON stated, if any. */
  readonly decision?: string;
  readonly output: string;
  readonly stdout?: string;
  readonly stderr?: string;
  /** The tool call this hook was about, when it was a tool hook. */
  readonly callId?: string;
  /** Number of tool calls made before this hook fired (its place on the timeline). */
  readonly at: number;
  /**
   * claude cancelled it when the session ended (its answer came after the run's result line): a
   * hook still running in the background — an async hook — not one that timed out.
   */
  readonly cancelledAtEnd?: true;
}

/** One turn-ending reply of the main agent. */
export interface Reply {
  readonly text: string;
  readonly messageId?: string;
  /** Number of tool calls made before this reply (its place on the timeline). */
  readonly at: number;
}

/** What changed in the work dir. */
export interface FileChange {
  /** Path relative to the work dir (POSIX separators); absolute when outside it. */
  readonly path: string;
  readonly change: "created" | "modified" | "deleted";
  /** The new content, for small text files the snapshot read. */
  readonly content?: string;
}

/**
 * The file record of a run. `snapshot` is exact (the work dir was compared before and after);
 * `tool-calls` only knows what Write/Edit/NotebookEdit reported, not what Bash did.
 */
export interface FileRecord {
  readonly source: "snapshot" | "tool-calls";
  readonly changes: readonly FileChange[];
}

/**
 * The trial's writable world beyond the work dir: whether Bash ran in claude's sandbox, which other
 * roots (the trial's HOME and TMPDIR, the per-trial copies of plugins and MCP servers) were compared
 * before and after, what changed there, and what the run could write that proctor did not compare.
 */
export interface OutsideWrites {
  /**
   * Whether Bash was confined: on, or off with the reason the spec gave. On the mock tier, by
   * proctor's jail around the whole trial (`trace.confinement.mode === "jail"`: Bash, hooks and MCP
   * servers alike); on the real tier's opt-in, by claude's own sandbox around Bash.
   */
  readonly sandbox: { readonly on: boolean; readonly reason?: string };
  /** The roots compared, by the name changes are reported under (`$HOME`, `$TMPDIR`, `plugin:NAME`, `mcp:NAME`). */
  readonly roots: readonly { readonly name: string; readonly path: string; readonly copiedFrom?: string }[];
  /** Changes under those roots, as `NAME/relative/path` (e.g. `$HOME/.cache/x`); the CLI's own bookkeeping is left out. */
  readonly changes: readonly FileChange[];
  /** What the run could write that was not compared, each with why: checks that need every write fail closed on these. */
  readonly uncovered: readonly string[];
  /**
   * The claude version's own writes, learnt from control runs that called no tool
   * (harness/workdir/calibration.ts) and left out like the known bookkeeping; `failed`: the control
   * runs failed, so only the known rules left anything out.
   */
  readonly calibration?: { readonly version: string; readonly patterns: readonly string[] } | { readonly failed: string };
}

/** The jail a live run ran in, and what it refused. */
export interface Confinement {
  /** `jail`: proctor's own (bwrap + seccomp allowlist + Landlock); `off`: not jailed, with the reason given (`--no-sandbox`). */
  readonly mode: "jail" | "off";
  readonly reason?: string;
  /** What was refused, in order seen. */
  readonly refused: readonly ConfinementRefusal[];
}

/** One operation the jail refused. */
export interface ConfinementRefusal {
  readonly kind: "confinement-refused";
  /** The call whose process was refused, when known; else the hook or server by name. */
  readonly callId?: string;
  readonly owner?: string;
  /** `write` (a path outside the trial), `syscall` (refused by the seccomp allowlist), `socket`, `signal`, `namespace`, … */
  readonly what: string;
  /** The path, syscall or address. */
  readonly target: string;
  readonly errno?: string;
  /** One line for the user. */
  readonly message: string;
}

/** One request the model received (captured by the mock model). */
export interface ModelRequest {
  /** `"main"`, or the subagent type the request was routed to. */
  readonly agent: string;
  readonly system: string;
  /** Every message flattened to text, tool results included. */
  readonly messages: string;
  /**
   * What reached the model from outside — the system prompt and every non-assistant message (the
   * prompt, tool results, hook output, reminders) — without the model's own words and tool inputs.
   * Absent on traces recorded before it was kept.
   */
  readonly inbound?: string;
  /** The tools the request offered; `deferred`: named only, its schema loaded through ToolSearch on demand. */
  readonly tools: readonly { readonly name: string; readonly description: string; readonly deferred?: boolean }[];
}

/** Token and cost totals of a run. */
export interface Usage {
  /** Absent when the agent reports tokens but not dollars (Codex); `cost()` then fails closed. */
  readonly costUsd?: number;
  /** Wall-clock time of the run; absent when the source does not say (a recorded Codex stream). */
  readonly durationMs?: number;
  /** Fresh (uncached) input tokens. */
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheCreationTokens: number;
  readonly cacheReadTokens: number;
}

/** Where a trace came from. */
export interface TraceSource {
  readonly kind: "transcript" | "harness" | "eval" | "codex" | "synthetic";
  readonly agentVersion?: string;
  readonly sessionId?: string;
  readonly model?: string;
  readonly cwd?: string;
  readonly permissionMode?: string;
  /** Tools the agent advertised at start (the init line). */
  readonly tools?: readonly string[];
  readonly mcpServers?: readonly { readonly name: string; readonly status: string }[];
  /** Plugins the agent loaded (the init line); a plugin dir missing here was silently dropped. */
  readonly plugins?: readonly { readonly name: string; readonly path: string }[];
  /** Skills the agent loaded (the init line; plugin skills as `plugin:name`). */
  readonly skills?: readonly string[];
  /** Subagent types the agent could dispatch (the init line; plugin agents as `plugin:name`). */
  readonly agents?: readonly string[];
  /** When the run started and ended (ISO 8601), where the source records it (session logs). */
  readonly startedAt?: string;
  readonly endedAt?: string;
  /** The git branch the session ran on (session logs). */
  readonly gitBranch?: string;
  /**
   * `partial`: the record keeps only some hook runs — a session log keeps a hook only when it
   * printed output, failed, blocked or was cancelled — so a hook missing from `hooks` may still
   * have fired. Absent: every hook run the source reports is there (stream-json with hook events).
   */
  readonly hookRecord?: "partial";
}

/**
 * A run-level problem recorded in a trace: the run failed, ended early, or its record was damaged.
 * Data about the run, not a thrown error (that is the `RunError` class).
 */
export interface RunProblem {
  readonly kind: string;
  readonly message: string;
  /** 1-based transcript line, for malformed lines. */
  readonly line?: number;
}


/**
 * One `result` line of a run. claude ≥ 2.1.3xx ends a run in several segments when background
 * work (a subagent, a shell, a Monitor) finishes after the main agent replied: each notification
 * starts a segment with its own result line. Present on the Trace only when there was more than one.
 */
export interface RunSegment {
  /** 0-based, in the order the result lines came. */
  readonly index: number;
  readonly subtype: string;
  readonly isError: boolean;
  readonly turns?: number;
  readonly durationMs?: number;
  /** The segment's result text. */
  readonly output?: string;
  /** What started the segment (`task-notification`), when the CLI said. */
  readonly origin?: string;
}

/**
 * How the run ended. With several segments: the first segment that failed, else the last one —
 * an error anywhere in a run is an error of the run.
 */
export interface RunOutcome {
  readonly subtype: string;
  readonly isError: boolean;
  readonly stopReason?: string;
  readonly apiErrorStatus?: number;
}

/**
 * One way a replay differed from its recording. `result`: a tool answered differently; `status`:
 * a call ended differently (now denied, no longer denied, now failing…); `hook`: a hook now fires,
 * no longer fires, or decides differently without changing the call's status; `call`: a recorded
 * call was not made; `subagent`: a recorded subagent was not dispatched; `turn`: the run asked
 * for a turn the recording does not have; `outcome`: the run ended differently; `refused`: the
 * replay did not make a recorded call because a path in it leaves the replay's work dir.
 */
export interface Divergence {
  readonly kind: "result" | "status" | "hook" | "call" | "subagent" | "turn" | "outcome" | "refused";
  /** `"main"` or the dispatching Agent call's tool_use id. */
  readonly agent: string;
  /** 1-based number of the agent's recorded turn the call came from; 0 for the run as a whole. */
  readonly turn: number;
  readonly callId?: string;
  readonly tool?: string;
  readonly recorded: string;
  readonly now: string;
  /** One line saying what changed. */
  readonly message: string;
}

/** What a replay compared against, and what differed. */
export interface ReplayRecord {
  /** The recording's path, or "(text)". */
  readonly recording: string;
  readonly divergences: readonly Divergence[];
  /** The replay stopped at the first divergence instead of replaying to the end. */
  readonly stoppedEarly: boolean;
  /**
   * Differences explained by known wording changes between the recording's claude version and the
   * replay's (src/trace/version-drift.ts): not behaviour divergences, listed apart.
   */
  readonly drift?: readonly VersionDrift[];
  /** The claude versions of the recording and of the replay, when known. */
  readonly versions?: { readonly recorded?: string; readonly now?: string };
  /** How the replay's set-up (its init line) differs from the recording's: causes, not divergences. */
  readonly preflight?: readonly PreflightWarning[];
}

/** One difference between the recording's start (its init line) and the replay's. */
export interface PreflightWarning {
  readonly kind: "version" | "tools" | "mcp" | "plugins" | "skills" | "agents";
  /** What differs: the names missing or added; for `version`, the recorded and the replay's. */
  readonly names: readonly string[];
  /** One line saying what differs and what to do. */
  readonly message: string;
}

/** One difference a known wording change between claude versions explains. */
export interface VersionDrift {
  readonly callId: string;
  readonly tool?: string;
  /** The ids of the wording changes that explain it (KNOWN_WORDING_CHANGES). */
  readonly changes: readonly string[];
  readonly recorded: string;
  readonly now: string;
}

/** What one agent run did. Round-trips through JSON unchanged. */
export interface Trace {
  readonly version: 1;
  readonly source: TraceSource;
  /** `false` when the run ended without a final result (killed, crashed, cut off). */
  readonly complete: boolean;
  readonly outcome?: RunOutcome;
  /** Every result line, when the run had more than one (see RunSegment). */
  readonly segments?: readonly RunSegment[];
  /** Every call, in order, subagents included. */
  readonly toolCalls: readonly ToolCall[];
  readonly subagents: readonly SubagentRun[];
  readonly skills: readonly SkillActivation[];
  readonly hooks: readonly HookEvent[];
  readonly replies: readonly Reply[];
  /** The run's final result text; absent when the run produced none. */
  readonly output?: string;
  /** Model turns the run took; absent when unknown. */
  readonly turns?: number;
  readonly usage?: Usage;
  readonly files?: FileRecord;
  /** Writes outside the work dir (runs proctor started; absent on recorded transcripts). */
  readonly outsideWrites?: OutsideWrites;
  /** What the run's processes were seen doing (live runs proctor observed; absent on recorded transcripts). */
  readonly observation?: Observation;
  /**
   * Operations proctor's jail refused during the run (a write outside the trial, a refused system
   * call or socket, …), as the processes reported them: never a silent success. Absent when the
   * run was not jailed.
   */
  readonly confinement?: Confinement;
  readonly modelRequests?: readonly ModelRequest[];
  /** Present on a replayed run: how it differed from its recording. */
  readonly replay?: ReplayRecord;
  readonly errors: readonly RunProblem[];
  /** Did the run happen as designed (see RunHealth)? Recorded by the harness; the gate re-judges it with the eval's checks and switches. */
  readonly health?: RunHealth;
}
