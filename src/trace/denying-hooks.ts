/** Which hook event denied which call: the evidence a `deniedBy: "hook"` rests on. */
import { interpretHookOutput } from "../hook/interpret.js";
import type { HookEvent } from "./types.js";
import { at } from "../util/narrow.js";

/** A call as the transcript reader holds it while reading. */
export interface PendingCall {
  readonly id: string;
  readonly name: string;
  readonly result?: string | undefined;
  readonly isError?: boolean | undefined;
  /** Index into the hooks of the PreToolUse hook event that refused this call. */
  denyingHook?: number | undefined;
}

/**
 * Tie each blocking PreToolUse hook event to the call it refused — first by its reason appearing
 * in a refused call's result (exact even for parallel calls to one tool), else by the call it was
 * about. Only such a tie (or the CLI's own hook-error wording) makes a denial a hook's.
 */
export function tieDenyingHooks(hooks: HookEvent[], calls: readonly PendingCall[], byId: ReadonlyMap<string, PendingCall>): void {
  const claim = (i: number, call: PendingCall) => {
    call.denyingHook = i;
    hooks[i] = { ...at(hooks, i), callId: call.id };
  };
  const free = (c: PendingCall | undefined): c is PendingCall => c !== undefined && c.isError === true && c.denyingHook === undefined;
  const leftover: number[] = [];
  // A call passed over for one (tool, reason) stays passed over — results don't change and a
  // claimed call stays claimed — so each pair resumes where it stopped: linear, not calls × hooks.
  const resumeAt = new Map<string, number>();
  hooks.forEach((h, i) => {
    if (!h.blocked || h.event !== "PreToolUse") return;
    const colon = h.name.indexOf(":");
    const toolName = colon === -1 ? undefined : h.name.slice(colon + 1);
    const reason = interpretHookOutput(h.exitCode, h.stdout ?? "", h.stderr ?? "").reason?.trim();
    let call: PendingCall | undefined;
    if (reason) {
      const pair = JSON.stringify([toolName ?? null, reason]);
      let next = resumeAt.get(pair) ?? 0;
      for (; next < calls.length; next++) {
        const c = calls[next];
        if (free(c) && (toolName === undefined || c.name === toolName) && c.result?.includes(reason)) {
          call = c;
          break;
        }
      }
      resumeAt.set(pair, next);
    }
    if (call) claim(i, call);
    else leftover.push(i);
  });
  for (const i of leftover) {
    const callId = at(hooks, i).callId;
    const call = callId === undefined ? undefined : byId.get(callId);
    if (free(call)) claim(i, call);
  }
}
