/**
 * Codex's JSON stream leaves calls out: a command its policy rejected (`rm -rf …`), a write the
 * sandbox refused, a call to a tool that doesn't exist. The mock model knows every call the
 * model made and what the CLI answered; merging the two gives the full, ordered list — a call
 * the agent decided to make counts, whatever happened next.
 */
import { codexDialect, shellCommandOf } from "../../src/effects/dialect.js";
import { relativeToCwd } from "../../src/trace/files-from-calls.js";
import type { ToolCall } from "../../src/trace/types.js";
import type { EmittedItem } from "../../mock-model/responses/run-state.js";
import { outputStatus } from "../../mock-model/responses/output-status.js";
import type { TimelineEntry } from "./events.js";
import { at as entryAt } from "../../src/util/narrow.js";

type EmittedCall = Extract<EmittedItem, { type: "call" }>;

const isShellTool = (name: string) => codexDialect.shellTools.includes(name);
const isPatchTool = (name: string) => name === "apply_patch" || name.endsWith("__apply_patch");
const squash = (s: string) => s.replace(/\s+/g, " ").trim();

/** The files a patch's headers name, as `file_change` reports them. */
export function patchChanges(patch: string, cwd?: string): { path: string; kind: string }[] {
  const out: { path: string; kind: string }[] = [];
  for (const m of patch.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)) out.push({ path: relativeToCwd((m[2] ?? "").trim(), cwd), kind: (m[1] ?? "").toLowerCase() });
  return out;
}

/** The CLI refused the call without running it (its stream reports no command or patch for such calls). */
function neverRan(output: string | undefined): boolean {
  if (output === undefined) return false;
  const verdict = outputStatus(output);
  return (verdict.status === "denied" || verdict.status === "invalid") && verdict.exitCode === undefined;
}

/** Did the CLI report this call as this item? */
function sameCall(entry: Extract<TimelineEntry, { type: "call" }>, call: EmittedCall, output: string | undefined): boolean {
  switch (entry.source) {
    case "command_execution": {
      const command = shellCommandOf(call.input);
      return isShellTool(call.name) && !neverRan(output) && command !== undefined && squash(command) === squash(String(entry.call.input.command ?? ""));
    }
    case "file_change":
      return isPatchTool(call.name) && !neverRan(output);
    default:
      return entry.call.name === call.name;
  }
}

/** The model's own arguments, plus what the checks read: `command` for shells, `patch` and `changes` for patches. */
function callInput(call: EmittedCall, reported: Record<string, unknown> | undefined, cwd?: string): Record<string, unknown> {
  if (isShellTool(call.name)) {
    const command = shellCommandOf(call.input) ?? reported?.command;
    return { ...call.input, ...(command !== undefined ? { command } : {}) };
  }
  if (isPatchTool(call.name) && typeof call.input.input === "string") {
    return { patch: call.input.input, changes: reported?.changes ?? patchChanges(call.input.input, cwd) };
  }
  return call.input;
}

/** The sandbox's own words for a write it refused; other refusals are Codex's command policy or approval settings. */
const SANDBOX_REFUSAL = /Read-only file system|Operation not permitted/;

/** Who refused a call, from the output the CLI sent back to the model. */
function denierOf(output: string | undefined): "sandbox" | "permission" {
  return output !== undefined && SANDBOX_REFUSAL.test(output) && !/\bRejected\(|\brejected: /.test(output) ? "sandbox" : "permission";
}

/**
 * A call the stream reported as failed that the sandbox in fact refused (Codex reports some
 * sandboxed commands and not others): what the model was told decides, as for unreported calls.
 */
function refusedBySandbox(call: ToolCall, output: string | undefined): ToolCall {
  if (call.status !== "failure" || output === undefined || outputStatus(output).status !== "denied") return call;
  return { ...call, status: "denied", deniedBy: denierOf(output) };
}

/** A call only the mock saw, judged by what the CLI told the model about it. */
function unreportedCall(call: EmittedCall, output: string | undefined, cwd?: string): ToolCall {
  const status = output === undefined ? "pending" : outputStatus(output).status;
  return {
    id: call.id,
    name: call.name,
    input: callInput(call, undefined, cwd),
    ...(output !== undefined ? { result: output } : {}),
    status,
    agent: "main",
    ...(status === "denied" ? { deniedBy: denierOf(output) } : {}),
  };
}

/**
 * The timeline with every call the model made, in the model's order: each call the CLI reported
 * takes the model's id, name and arguments; each one it left out is added, its status read from
 * the output the CLI sent back. Reported items the model never asked for directly (commands run
 * inside a code-mode `exec`) keep their place.
 */
export function mergeModelCalls(
  entries: readonly TimelineEntry[],
  answered: readonly (readonly EmittedItem[])[],
  outputOf: (callId: string) => string | undefined,
  cwd?: string,
): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  let next = 0;
  const take = (found: number) => {
    while (next < found) out.push(entryAt(entries, next++));
    return entryAt(entries, next++);
  };
  const find = (pred: (e: TimelineEntry) => boolean) => entries.findIndex((e, i) => i >= next && pred(e));
  for (const [item, response] of answered.flatMap((items, r) => items.map((it) => [it, r] as const))) {
    // Calls the model sent in one response were issued together: they share a turn.
    const turn = response + 1;
    if (item.type === "text" || item.type === "reasoning") {
      const kind = item.type === "text" ? "message" : "reasoning";
      const at = find((e) => e.type === kind && squash(e.text) === squash(item.text));
      out.push(at === -1 ? { type: kind, text: item.text } : take(at));
      continue;
    }
    const output = outputOf(item.id);
    const at = find((e) => e.type === "call" && sameCall(e, item, output));
    if (at === -1) {
      out.push({ type: "call", source: "model", call: { ...unreportedCall(item, output, cwd), turn } });
      continue;
    }
    const reported = take(at) as Extract<TimelineEntry, { type: "call" }>;
    out.push({ ...reported, call: refusedBySandbox({ ...reported.call, id: item.id, name: item.name, input: callInput(item, reported.call.input, cwd), turn }, output) });
  }
  out.push(...entries.slice(next));
  return out;
}
