/**
 * `proctor gate`: a Claude Code PreToolUse hook. It reads the hook's JSON on stdin and answers with
 * `hookSpecificOutput.permissionDecision` (deny / ask / allow) and a reason, or says nothing when
 * nothing objects. It fails closed: bad options, a bad policy file or malformed stdin exit 2 with
 * the reason on stderr — Claude Code blocks the call on exit 2, while any other non-zero exit
 * would let it through. It runs before every tool call, so it loads the shell parser only for a
 * shell command that needs it (not for a plain read-only one like `git status`), and YAML only
 * for a YAML policy.
 */
import { fstatSync, statSync, writeSync } from "node:fs";
import { InvalidInputError, RunError, isProctorError } from "../../src/errors/proctor-error.js";
import { parseJsonWithinDepth } from "../../src/io/json-depth.js";
import { isPlainObject } from "../../src/match/arg-match.js";
import { claudeCodeDialect, codexDialect, shellCommandOf } from "../../src/effects/dialect.js";
import { PURITY_LEVELS, type PurityLevel } from "../../src/effects/effects.js";
import { decideGate, gateNeedsShell, passedAsReadOnly, type GateOptions } from "../../src/policy/gate.js";
import { CONFINE_MODES, confineAnswer, type ConfineMode } from "../../src/policy/confine-gate.js";
import { confinePreflight } from "../../src/policy/confine-preflight.js";
import { readPolicyFile } from "../../src/policy/policy-file.js";
import type { RuleOfTwoProfile } from "../../src/policy/rule-of-two.js";
import { APPROVAL_RUNGS, type ApprovalRung } from "../../src/policy/rungs.js";
import { parseCommandArgs } from "../args.js";
import { describeProctorError } from "../errors.js";
import type { Command } from "../command.js";
import { useOneShotWasmFlags } from "../one-shot.js";
import { readStdinWithin } from "../stdin.js";
import type { BashVerdict } from "../../src/effects/bash/verdict.js";
import { ownEntry } from "../../src/util/narrow.js";

const USAGE =
  "proctor gate [--purity pure|bounded|unrestricted] [--policy FILE] [--rule-of-two untrusted,sensitive,external] [--rung manual|write|assisted|auto|bypass] [--dialect claude-code|codex] [--approve] [--confine on|off] [--deadline-ms N]  (PreToolUse JSON on stdin)";

/**
 * How long the gate may take to decide, from start to answer: past the stdin read's own limit,
 * well inside any sensible hook timeout — a hook that times out lets the call through, so the
 * gate answers `deny` itself first.
 */
export const GATE_DEADLINE_MS = 8_000;

function denyAnswer(reason: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: reason } })}\n`;
}

const LEGS: Record<string, keyof RuleOfTwoProfile> = {
  untrusted: "untrustedInput",
  "untrusted-input": "untrustedInput",
  sensitive: "sensitiveData",
  "sensitive-data": "sensitiveData",
  external: "externalSideEffects",
  "external-side-effects": "externalSideEffects",
};

function bad(message: string): never {
  throw new InvalidInputError("INVALID_INPUT", `${message}\nusage: ${USAGE}`);
}

/** `untrusted,sensitive` → the profile holding those legs; `none` or "" holds none. */
export function parseRuleOfTwo(text: string): RuleOfTwoProfile {
  const profile = { untrustedInput: false, sensitiveData: false, externalSideEffects: false };
  for (const leg of text.split(",").map((l) => l.trim()).filter((l) => l !== "" && l !== "none")) {
    const key = ownEntry(LEGS, leg);
    if (!key) bad(`--rule-of-two: unknown leg ${JSON.stringify(leg)}; the legs are untrusted, sensitive, external (the ones the session may hold)`);
    profile[key] = true;
  }
  if (profile.untrustedInput && profile.sensitiveData && profile.externalSideEffects) {
    bad("--rule-of-two: holding all three legs (untrusted, sensitive, external) is the lethal trifecta the Rule of Two forbids; drop one");
  }
  return profile;
}

/** The largest hook payload the gate reads: a Write of a big file fits, `/dev/zero` does not. */
export const GATE_STDIN_MAX_BYTES = 8 << 20;
/** How long the gate waits for stdin to end: Claude Code writes the payload and closes at once. */
export const GATE_STDIN_DEADLINE_MS = 5_000;

/**
 * The hook payload from stdin, within the size cap and the read deadline — past either, a
 * ProctorError (exit 2: Claude Code blocks the call), never unbounded memory or a hang.
 */
async function readStdin(maxBytes = GATE_STDIN_MAX_BYTES, deadlineMs = GATE_STDIN_DEADLINE_MS): Promise<string> {
  const outcome = await readStdinWithin(maxBytes, deadlineMs);
  if ("data" in outcome) return outcome.data.toString("utf8");
  const failure = outcome.failure;
  switch (failure.kind) {
    case "tty":
      return bad("proctor gate reads Claude Code's PreToolUse hook JSON on stdin; install it as a hook, or pipe a payload in");
    case "too-large":
      throw new InvalidInputError("INVALID_INPUT", `stdin holds more than ${maxBytes >> 20} MiB; a PreToolUse hook payload is far smaller — denied (is something other than Claude Code writing to proctor gate?)`);
    case "timeout":
      throw new InvalidInputError("INVALID_INPUT", `stdin did not end within ${deadlineMs / 1000} s; denied — Claude Code writes the hook payload and closes stdin at once (pipe a payload in, or close stdin)`);
    case "error":
      throw new InvalidInputError("INVALID_INPUT", `cannot read stdin: ${failure.message}; proctor gate expects Claude Code's PreToolUse hook input`);
  }
}

function readPayload(text: string): { event?: string | undefined; toolName: string; toolInput: Record<string, unknown>; cwd?: string } | { event: string } {
  let json: unknown;
  try {
    json = parseJsonWithinDepth(text, "the hook input on stdin");
  } catch (error) {
    if (isProctorError(error)) throw error;
    throw new InvalidInputError("INVALID_INPUT", `stdin is not JSON (${(error as Error).message}); proctor gate expects Claude Code's PreToolUse hook input`);
  }
  if (!isPlainObject(json)) throw new InvalidInputError("INVALID_INPUT", "stdin must be a JSON object (Claude Code's PreToolUse hook input)");
  const event = json.hook_event_name;
  if (event !== undefined && event !== "PreToolUse") return { event: String(event) };
  if (typeof json.tool_name !== "string" || json.tool_name === "") {
    throw new InvalidInputError("INVALID_INPUT", `the hook input has no tool_name (got ${JSON.stringify(json.tool_name)}); proctor gate is a PreToolUse hook`);
  }
  if (json.tool_input !== undefined && !isPlainObject(json.tool_input)) {
    throw new InvalidInputError("INVALID_INPUT", `tool_input must be an object; got ${JSON.stringify(json.tool_input)}`);
  }
  const cwd = typeof json.cwd === "string" && json.cwd !== "" ? { cwd: json.cwd } : {};
  return { event: event as string | undefined, toolName: json.tool_name, toolInput: (json.tool_input ?? {}) as Record<string, unknown>, ...cwd };
}

const gate: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      purity: { type: "string" },
      policy: { type: "string" },
      "rule-of-two": { type: "string" },
      rung: { type: "string" },
      dialect: { type: "string" },
      approve: { type: "boolean" },
      confine: { type: "string" },
      "deadline-ms": { type: "string" },
    },
    USAGE,
  );
  const started = nowMs();
  const deadlineMs = values["deadline-ms"] === undefined ? GATE_DEADLINE_MS : Number(values["deadline-ms"]);
  // Past 2^31 - 1 ms a Node timer fires after 1 ms (with a warning on stderr): the deadline would deny at once.
  if (!Number.isInteger(deadlineMs) || deadlineMs <= 0 || deadlineMs > 0x7fffffff) bad(`--deadline-ms must be a positive whole number of milliseconds, at most 2147483647; got ${JSON.stringify(values["deadline-ms"])}`);
  const late = `proctor gate: no decision within ${deadlineMs} ms, so the call is denied (a gate that runs out of time must not let it through)`;
  // Waiting (stdin, the policy file, the shell parser) can stall; the answer then is deny, never a timeout that fails open.
  const watchdog = setTimeout(() => {
    // An answer already on its way (stdout was full) is not added to: the deny goes to stderr, with exit 2.
    try {
      if (answerInFlight) throw undelivered("deny", late, "its answer was still waiting for stdout to take it");
      writeAnswer(denyAnswer(late), "deny", late);
      process.exit(0);
    } catch (error) {
      process.stderr.write(`${isProctorError(error) ? describeProctorError(error, "gate") : late}\n`);
      process.exit(2);
    }
  }, deadlineMs);
  watchdog.unref();
  try {
    return await decide(values, positionals, started, deadlineMs, late);
  } finally {
    // Kept while an answer waits for a full stdout: a reader that never reads gets exit 2 at the deadline, not a hang.
    if (!answerInFlight) clearTimeout(watchdog);
  }
};

type GateValues = { purity?: string; policy?: string; "rule-of-two"?: string; rung?: string; dialect?: string; approve?: boolean; confine?: string };

async function decide(values: GateValues, positionals: string[], started: number, deadlineMs: number, late: string): Promise<number> {
  if (positionals.length > 0) bad(`unexpected argument ${JSON.stringify(positionals[0])}`);
  if (values.purity !== undefined && !PURITY_LEVELS.includes(values.purity as PurityLevel)) bad(`--purity must be one of ${PURITY_LEVELS.join(", ")}; got ${JSON.stringify(values.purity)}`);
  if (values.rung !== undefined && !APPROVAL_RUNGS.includes(values.rung as ApprovalRung)) bad(`--rung must be one of ${APPROVAL_RUNGS.join(", ")}; got ${JSON.stringify(values.rung)}`);
  if (values.confine !== undefined && !CONFINE_MODES.includes(values.confine as ConfineMode)) bad(`--confine must be on or off; got ${JSON.stringify(values.confine)}`);
  if (values.dialect !== undefined && values.dialect !== "claude-code" && values.dialect !== "codex") bad(`--dialect must be claude-code or codex; got ${JSON.stringify(values.dialect)}`);
  const policy = values.policy !== undefined ? await readPolicyFile(values.policy) : undefined;
  const options: GateOptions = {
    dialect: values.dialect === "codex" ? codexDialect : (policy?.dialect ?? claudeCodeDialect),
    ...(values.purity ? { purity: values.purity as PurityLevel } : {}),
    ...(policy ? { policy } : {}),
    ...(values["rule-of-two"] !== undefined ? { ruleOfTwo: parseRuleOfTwo(values["rule-of-two"]) } : {}),
    ...(values.rung ? { rung: values.rung as ApprovalRung } : {}),
  };
  if (!options.purity && !options.policy && !options.ruleOfTwo && !options.rung && !values.approve) {
    bad("proctor gate needs at least one of --purity, --policy, --rule-of-two, --rung");
  }

  const payload = readPayload(await readStdin());
  if (!("toolName" in payload)) {
    process.stderr.write(`proctor gate: ignoring a ${payload.event} event; install it as a PreToolUse hook\n`);
    return 0;
  }
  let judge: ((command: string) => BashVerdict) | undefined;
  if (gateNeedsShell(payload.toolName, options)) {
    const [{ explainBash }, { loadShellParser }] = await Promise.all([import("../../src/effects/bash/classify.js"), import("../../src/effects/bash/parser.js")]);
    // The command runs in the event's directory with (about) this process's environment: judge it
    // there, so a repository that configures programs for git cannot pass as read-only.
    const context = { cwd: payload.cwd ?? process.cwd(), env: process.env };
    const command = shellCommandOf(payload.toolInput);
    // Plain-word commands (`git status`, `ls -la src`) are judged without the WebAssembly parser
    // (the classifier's fast path, proven equal to the full path); a command that needs the
    // parser throws SHELL_PARSER_NOT_LOADED there, and is judged once the parser is loaded.
    const early = command === undefined ? undefined : withoutParser(() => explainBash(command, context));
    if (early === undefined) {
      useOneShotWasmFlags();
      await loadShellParser();
    }
    judge = (c) => (c === command && early !== undefined ? early : explainBash(c, context));
  }
  const answer = decideGate(payload.toolName, payload.toolInput, options, judge);
  // A synchronous decision cannot be interrupted; one that overran is not trusted to allow.
  if (nowMs() - started > deadlineMs) {
    writeAnswer(denyAnswer(late), "deny", late);
    return 0;
  }
  const decision = answer.decision === "none" ? (values.approve ? "allow" : undefined) : answer.decision;
  const reason = answer.decision === "none" ? "proctor gate: every check passed" : `proctor gate: ${answer.reason}`;
  if ((decision === "allow" || decision === undefined) && passedAsReadOnly(payload.toolName, payload.toolInput, options, answer, judge)) {
    // It passed on the classifier's word alone: confine it, deny it, or (opted out) say it is weaker.
    const cwd = payload.cwd ?? process.cwd();
    const mode = (values.confine ?? "on") as ConfineMode;
    const confined = confineAnswer({ toolName: payload.toolName, toolInput: payload.toolInput, decision: decision ?? "none", reason, mode, cwd, preflight: () => confinePreflight(cwd), env: process.env });
    // A confined allow must arrive: lost, Claude Code would run the command unconfined. A note may be lost.
    const label = confined.decision === undefined ? "allow" : mode === "on" && confined.decision === "allow" ? "allow (confined)" : confined.decision;
    writeAnswer(`${JSON.stringify(confined.output)}\n`, label, confined.reason);
    return 0;
  }
  if (decision === undefined) return 0;
  writeAnswer(`${JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: decision, permissionDecisionReason: reason } })}\n`, decision, reason);
  return 0;
}
/** Whether an answer is still being written through `process.stdout` (stdout was too full to take it at once). */
let answerInFlight = false;

/**
 * The answer on stdout, written at once: through `process.stdout` a pipe would first cost a
 * `net.Socket` (~6 ms of module loading, once per tool call). A pipe too full to take it (its
 * reader is not reading) gets the rest through the stream.
 *
 * An answer that cannot reach the caller (stdout closed, which Node turns into /dev/null; a
 * reader gone; a full disk) throws, or exits, 2 with the reason on stderr: Claude Code blocks the
 * call on exit 2, while exit 0 with nothing read would let a deny through as silence.
 */
function writeAnswer(text: string, decision: string, reason: string): void {
  if (decision !== "allow" && stdoutIsDevNull()) throw undelivered(decision, reason, "stdout is closed or /dev/null");
  const bytes = Buffer.from(text);
  let written = 0;
  try {
    while (written < bytes.length) written += writeSync(1, bytes, written);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== "EAGAIN") throw undelivered(decision, reason, `stdout: ${code ?? (error as Error).message}`, error);
    answerInFlight = true;
    const failed = (failure: Error | null | undefined) => {
      if (!failure) return;
      process.stderr.write(`${describeProctorError(undelivered(decision, reason, `stdout: ${(failure as NodeJS.ErrnoException).code ?? failure.message}`), "gate")}\n`);
      process.exit(2);
    };
    const stdout = process.stdout;
    // Before the CLI's own handler, which ends a command whose reader has gone with exit 0.
    stdout.prependListener("error", failed);
    stdout.write(bytes.subarray(written), failed);
  }
}

function undelivered(decision: string, reason: string, why: string, cause?: unknown): RunError {
  return new RunError("RUN_FAILED", `the answer (${decision}: ${reason}) cannot be delivered: ${why}; exit 2 blocks the call instead`, cause === undefined ? {} : { cause });
}

/** Whether fd 1 is /dev/null: where Node puts a stdout the process was started without. */
function stdoutIsDevNull(): boolean {
  try {
    const out = fstatSync(1);
    return out.isCharacterDevice() && out.rdev === statSync("/dev/null").rdev;
  } catch {
    return false;
  }
}

/** A monotonic clock in ms (not `performance.now()`, whose first use loads perf_hooks: a millisecond per call). */
function nowMs(): number {
  return Number(process.hrtime.bigint() / 1_000_000n);
}

/** A verdict reached without the shell parser, or `undefined` where the command needs it. */
function withoutParser(judge: () => BashVerdict): BashVerdict | undefined {
  try {
    return judge();
  } catch (error) {
    if (isProctorError(error) && error.code === "SHELL_PARSER_NOT_LOADED") return undefined;
    throw error;
  }
}

export default gate;
