/**
 * Typed tool-result envelopes: a tool that wants to steer the run returns data the framework
 * validates — `{ content, effects, status? }` — instead of a convention riding its result text.
 *
 * Recognition is strict, and the strictness is the zero-cost guarantee: a value is an envelope
 * only if it is a plain object whose keys are a subset of `content`, `effects`, `status`, with
 * `content` present, `effects` an array whose every element has one of the two known kinds, and
 * (for an empty `effects`) a valid `status`. Everything else stays data, byte for byte. A
 * recognised envelope with a malformed effect has that effect refused with a reason, never
 * half-applied.
 */
import { TOOL_STATUSES, type ToolStatus } from "../trace/types.js";
import { optional, requireArray, requireNumber } from "../errors/arguments.js";

/** The outcome words: `success`, `failure`, `denied`, `invalid`, `partial`, `pending`, `absent`. */
export type ToolResultStatus = ToolStatus;
export const TOOL_RESULT_STATUSES: readonly ToolResultStatus[] = TOOL_STATUSES;

/** A tool proposes moving the skill-graph cursor; the graph decides. */
export interface ProposeTransitionEffect {
  readonly kind: "propose-transition";
  readonly targetSkillId: string;
  /** Why — never optional: a routing proposal without a reason is arbitrary authority. */
  readonly reason: string;
}

/** How long a pushed instruction stays delivered. */
export type InstructionDeliveryLease = "next-call" | "until-skill-exit";

/** A tool pushes a registered instruction into the coming iteration(s). */
export interface RequireInstructionEffect {
  readonly kind: "require-instruction";
  readonly instructionId: string;
  readonly deliveryLease: InstructionDeliveryLease;
}

export type ProposedEffect = ProposeTransitionEffect | RequireInstructionEffect;

/** What a tool returns to opt in. `effects` is the marker itself; status-only is `effects: []`. */
export interface ToolResultEnvelope {
  readonly content: unknown;
  readonly effects: readonly ProposedEffect[];
  readonly status?: ToolResultStatus;
}

/** A recognised envelope: content unwrapped, valid effects listed, malformed ones named. */
export interface ReadToolResultEnvelope {
  readonly content: unknown;
  readonly effects: readonly ProposedEffect[];
  readonly status?: ToolResultStatus;
  readonly malformed: ReadonlyArray<{ readonly kind: ProposedEffect["kind"]; readonly refusalReason: string }>;
}

const ENVELOPE_KEYS = new Set(["content", "effects", "status"]);
const EFFECT_KINDS = new Set(["propose-transition", "require-instruction"]);

function isStatus(value: unknown): value is ToolResultStatus {
  return typeof value === "string" && (TOOL_RESULT_STATUSES as readonly string[]).includes(value);
}

function onlyEnvelopeKeys(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  return Object.keys(value).every((k) => ENVELOPE_KEYS.has(k)) && Object.hasOwn(value, "content");
}

const filled = (v: unknown): v is string => typeof v === "string" && v.trim() !== "";

function readEffect(raw: Record<string, unknown>, n: number): ProposedEffect | { kind: ProposedEffect["kind"]; refusalReason: string } {
  if (raw.kind === "propose-transition") {
    if (!filled(raw.targetSkillId)) {
      return { kind: "propose-transition", refusalReason: `effect ${n} (propose-transition) names no targetSkillId, so it was refused; write { kind: 'propose-transition', targetSkillId, reason }` };
    }
    if (!filled(raw.reason)) {
      return { kind: "propose-transition", refusalReason: `effect ${n} (propose-transition → '${raw.targetSkillId}') gives no reason, so it was refused; a routing proposal must say why` };
    }
    return { kind: "propose-transition", targetSkillId: raw.targetSkillId, reason: raw.reason };
  }
  if (!filled(raw.instructionId)) {
    return { kind: "require-instruction", refusalReason: `effect ${n} (require-instruction) names no instructionId, so it was refused; write { kind: 'require-instruction', instructionId, deliveryLease: 'next-call' | 'until-skill-exit' }` };
  }
  if (raw.deliveryLease !== "next-call" && raw.deliveryLease !== "until-skill-exit") {
    return {
      kind: "require-instruction",
      refusalReason: `effect ${n} (require-instruction '${raw.instructionId}') has deliveryLease ${JSON.stringify(raw.deliveryLease)}, which is not a lease; use 'next-call' or 'until-skill-exit'`,
    };
  }
  return { kind: "require-instruction", instructionId: raw.instructionId, deliveryLease: raw.deliveryLease };
}

/** Recognise a tool's return value as an envelope, or `undefined` (not one: keep the value as it is). */
export function readToolResultEnvelope(result: unknown): ReadToolResultEnvelope | undefined {
  if (!onlyEnvelopeKeys(result)) return undefined;
  const raw = result.effects;
  if (!Array.isArray(raw)) return undefined;
  if (!raw.every((e) => typeof e === "object" && e !== null && EFFECT_KINDS.has((e as { kind?: unknown }).kind as string))) return undefined;
  const status = result.status;
  if (status !== undefined && !isStatus(status)) return undefined;
  if (raw.length === 0 && status === undefined) return undefined;
  const effects: ProposedEffect[] = [];
  const malformed: { kind: ProposedEffect["kind"]; refusalReason: string }[] = [];
  raw.forEach((e, i) => {
    const read = readEffect(e as Record<string, unknown>, i + 1);
    if ("refusalReason" in read) malformed.push(read);
    else effects.push(read);
  });
  return { content: result.content, effects, ...(status !== undefined ? { status } : {}), malformed };
}

/**
 * The near-miss a tool author is likeliest to write: `{ content, status: 'denied' }` without the
 * `effects` marker. That stays data; this returns the sentence explaining why, for a warning.
 * Diagnosis only — it never changes what a value does.
 */
export function explainStatusOnlyNearMiss(result: unknown): string | undefined {
  if (!onlyEnvelopeKeys(result) || "effects" in result || !isStatus(result.status)) return undefined;
  return (
    `the result { content, status: '${result.status}' } looks like a status-only envelope missing its marker: an envelope needs the effects array, ` +
    `so this value was treated as data and its status was not recorded. Write { content, effects: [], status: '${result.status}' }, or rename the keys if this is a domain object.`
  );
}

/** One granted `require-instruction` lease. Validity is computed, never mutated. */
export interface InstructionLease {
  readonly instructionId: string;
  readonly deliveryLease: InstructionDeliveryLease;
  /** The tenure that granted it; absent when no tenant existed (both-absent still matches). */
  readonly skillId?: string;
  readonly toolName: string;
  readonly toolCallId?: string;
  /** The iteration whose batch granted it. */
  readonly iteration: number;
}

/** The transition proposal accepted this iteration, honoured once on the next. */
export interface PendingToolTransition {
  readonly targetSkillId: string;
  readonly toolName: string;
  readonly toolCallId?: string;
  readonly reason: string;
  readonly iteration: number;
}

/** Who holds the tenure: the cursor when there is one, else the last activated injection. */
export function tenantOf(cursor: string | undefined, activatedInjectionIds: readonly string[] | undefined): string | undefined {
  if (cursor !== undefined) return cursor;
  return activatedInjectionIds?.[activatedInjectionIds.length - 1];
}

/**
 * The lease-served instruction ids for one pass (de-duplicated, in grant order): a `next-call`
 * lease serves exactly the pass after its grant; an `until-skill-exit` lease serves while its
 * tenant holds the tenure.
 */
export function activeLeaseIds(leases: readonly InstructionLease[] | undefined, iteration: number, tenant: string | undefined): readonly string[] {
  optional(requireArray, "activeLeaseIds", "leases", leases, "a list of instruction leases, or undefined");
  requireNumber("activeLeaseIds", "iteration", iteration, "the current pass number");
  const ids: string[] = [];
  for (const lease of leases ?? []) {
    const live = lease.deliveryLease === "next-call" ? lease.iteration + 1 === iteration : lease.skillId === tenant;
    if (live && !ids.includes(lease.instructionId)) ids.push(lease.instructionId);
  }
  return ids;
}

/**
 * Drop leases that can never serve again, at pass `iteration`: a `next-call` lease older than the
 * previous iteration is spent; an `until-skill-exit` lease whose tenant is no longer current is
 * dead — permanently, because this sweep runs every pass, so re-entering the skill later finds
 * nothing to resurrect.
 */
export function pruneLeases(leases: readonly InstructionLease[] | undefined, iteration: number, currentTenant: string | undefined): readonly InstructionLease[] {
  optional(requireArray, "pruneLeases", "leases", leases, "a list of instruction leases, or undefined");
  requireNumber("pruneLeases", "iteration", iteration, "the current pass number");
  return (leases ?? []).filter((lease) => (lease.deliveryLease === "next-call" ? lease.iteration >= iteration - 1 : lease.skillId === currentTenant));
}
