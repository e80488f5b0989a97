/**
 * The gate's answer for a shell call that passed only because the classifier called it read-only
 * (`passedAsReadOnly`): by default the call runs confined (`updatedInput` rewrites its command);
 * where confinement is impossible it is denied, saying how to enable it; with `--confine off` it
 * passes unconfined and says it is weaker. Pure: the preflight is passed in.
 */
import type { Preflight } from "./confine-preflight.js";
import { unsafeWorkDir } from "./confine.js";
import { confinedShellCommand, type RewriteEnv } from "./confine-shell.js";

/** `on` (default): confine, or deny where that is impossible. `off`: classifier only. */
export type ConfineMode = "on" | "off";
export const CONFINE_MODES: readonly ConfineMode[] = ["on", "off"];

/** The tools whose `command` the gate can rewrite: Claude Code's shells that run bash text. */
export const CONFINABLE_TOOLS: readonly string[] = ["Bash", "Monitor"];

/** What `--confine off` says on every call it lets through on the classifier's word alone. */
export const CLASSIFIER_ONLY_NOTE =
  "classifier only (--confine off): the command runs unconfined, so a command the classifier misread can still write or connect";

export interface ConfineRequest {
  readonly toolName: string;
  readonly toolInput: Record<string, unknown>;
  /** The gate's decision before confinement: `allow`, or `none` (nothing objected). */
  readonly decision: "allow" | "none";
  /** The reason already written for the answer ("proctor gate: …"). */
  readonly reason: string;
  readonly mode: ConfineMode;
  readonly cwd: string;
  readonly preflight: () => Preflight;
  /** The gate's environment: PATH's install prefixes are shown in the jail, PROCTOR_JAIL_* set its limits. */
  readonly env?: RewriteEnv;
}

/** The PreToolUse answer; `decision` undefined means no permission decision (Claude Code's own rules decide). */
export interface ConfineAnswer {
  readonly decision: "allow" | "deny" | undefined;
  readonly reason: string;
  readonly output: { hookSpecificOutput: Record<string, unknown> };
}

function answer(decision: "allow" | "deny" | undefined, reason: string, extra: Record<string, unknown> = {}): ConfineAnswer {
  const permission = decision === undefined ? {} : { permissionDecision: decision, permissionDecisionReason: reason };
  return { decision, reason, output: { hookSpecificOutput: { hookEventName: "PreToolUse", ...permission, ...extra } } };
}

/** Decide how a call that passed as read-only goes through: confined, denied, or (opted out) unconfined with a note. */
export function confineAnswer(req: ConfineRequest): ConfineAnswer {
  if (req.mode === "off") {
    const reason = `${req.reason} — ${CLASSIFIER_ONLY_NOTE}`;
    return answer(req.decision === "allow" ? "allow" : undefined, reason, { additionalContext: `proctor gate: ${CLASSIFIER_ONLY_NOTE}` });
  }
  const command = req.toolInput.command;
  if (!CONFINABLE_TOOLS.includes(req.toolName) || typeof command !== "string") {
    return answer("deny", `${req.reason}; but proctor gate cannot confine a ${req.toolName} call (it rewrites only the bash command of ${CONFINABLE_TOOLS.join(" and ")}), so it is denied — run the gate with --confine off to let such calls through on the classifier's word alone (weaker)`);
  }
  const pre = req.preflight();
  if (!pre.ok) return answer("deny", `${req.reason}; but the command cannot be confined here (${pre.why}), so it is denied. To confine: ${pre.howto}`);
  const unsafe = pre.confiner.kind === "bwrap" ? unsafeWorkDir(req.cwd) : undefined;
  if (unsafe) return answer("deny", `${req.reason}; but it cannot be confined here: ${unsafe}, so it is denied — run claude from a project directory`);
  let confined: string;
  try {
    confined = confinedShellCommand(command, req.cwd, pre.confiner, req.env ?? {});
  } catch (e) {
    return answer("deny", `${req.reason}; but it cannot be confined: ${(e as Error).message}, so it is denied`);
  }
  const how = pre.confiner.kind === "bwrap" ? "bubblewrap jail: system dirs and the work dir read-only, bounded /tmp, no network, syscall allowlist" : "sandbox-exec: read-only filesystem, throw-away TMPDIR, no network";
  return answer("allow", `${req.reason}; it runs confined (${how})`, { updatedInput: { ...req.toolInput, command: confined } });
}
