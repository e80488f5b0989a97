/** Build-time validation: a malformed check fails when it is built, quoting the bad value. */
import { ProctorError, type ProctorErrorOptions } from "../errors/proctor-error.js";
import { isPlainObject } from "../match/arg-match.js";
import { formatValue } from "../match/codec.js";

/**
 * A check that cannot be built: a bad parameter, or a bad JSON form. `kind` is the check's kind
 * and `field` a path inside its JSON form (also the error's `input`); either is "" when unknown.
 */
export class InvalidCheckError extends ProctorError {
  declare readonly code: "INVALID_CHECK";
  readonly kind: string;
  readonly field: string;
  /** A parameter of a `kind` check: `field` `problem`, quoting `value`. */
  constructor(kind: string, field: string, problem: string, value: unknown);
  /** Any other reason: `options.input` names the field path, `kind` the check when known. */
  constructor(code: "INVALID_CHECK", shortMessage: string, options?: ProctorErrorOptions & { readonly kind?: string });
  constructor(a: string, b: string, c?: string | (ProctorErrorOptions & { readonly kind?: string }), value?: unknown) {
    if (typeof c === "string") {
      super("INVALID_CHECK", `${a}: ${b} ${c}; got ${describeValue(value)}`, { input: b });
      this.kind = a;
      this.field = b;
    } else {
      super("INVALID_CHECK", b, c);
      this.kind = c?.kind ?? "";
      this.field = c?.input ?? "";
    }
    this.name = "InvalidCheckError";
  }
}

export function describeValue(value: unknown): string {
  if (value === undefined) return "nothing";
  const type = value === null ? "null" : Array.isArray(value) ? "array" : value instanceof RegExp ? "RegExp" : typeof value;
  return `${formatValue(value, 80)} (${type})`;
}

export function requireName(kind: string, field: string, value: unknown): asserts value is string {
  if (typeof value !== "string" || value.trim() === "") throw new InvalidCheckError(kind, field, "must be a non-empty string", value);
}

export function requireNames(kind: string, field: string, value: unknown): asserts value is readonly string[] {
  if (!Array.isArray(value)) throw new InvalidCheckError(kind, field, "must be an array of tool names", value);
  for (const [i, v] of value.entries()) requireName(kind, `${field}[${i}]`, v);
}

export function requireText(kind: string, field: string, value: unknown): asserts value is string | RegExp {
  if (!(typeof value === "string" && value !== "") && !(value instanceof RegExp)) {
    throw new InvalidCheckError(kind, field, "must be a non-empty string or a RegExp", value);
  }
}

export function requireNumber(kind: string, field: string, value: unknown, opts: { integer?: boolean } = {}): asserts value is number {
  const ok = typeof value === "number" && Number.isFinite(value) && value >= 0 && (!opts.integer || Number.isInteger(value));
  if (!ok) throw new InvalidCheckError(kind, field, `must be a non-negative ${opts.integer ? "integer" : "number"}`, value);
}

/** `{min?, max?}` with at least one bound, both non-negative integers, min ≤ max. */
export function requireBounds(kind: string, bounds: unknown): { min?: number | undefined; max?: number | undefined } {
  if (!isPlainObject(bounds)) throw new InvalidCheckError(kind, "bounds", "must be an object like { min: 1, max: 3 }", bounds);
  const { min, max } = bounds as { min?: unknown; max?: unknown };
  if (min === undefined && max === undefined) throw new InvalidCheckError(kind, "min/max", "needs at least one of min or max", bounds);
  if (min !== undefined) requireNumber(kind, "min", min, { integer: true });
  if (max !== undefined) requireNumber(kind, "max", max, { integer: true });
  if (min !== undefined && max !== undefined && (min as number) > (max as number)) {
    throw new InvalidCheckError(kind, "min", `must not exceed max (${String(max)})`, min);
  }
  return { min: min as number | undefined, max: max as number | undefined };
}

/** An ArgMatcher: an object whose leaves are literals, RegExps, arrays or nested objects. */
export function requireMatcher(kind: string, field: string, value: unknown): void {
  if (!isPlainObject(value)) throw new InvalidCheckError(kind, field, "must be an object of key → expected value", value);
  for (const [key, v] of Object.entries(value)) requireArgValue(kind, `${field}.${key}`, v);
}

function requireArgValue(kind: string, field: string, value: unknown): void {
  if (value === null || ["string", "number", "boolean"].includes(typeof value) || value instanceof RegExp) return;
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) requireArgValue(kind, `${field}.${i}`, v);
    return;
  }
  if (isPlainObject(value)) {
    requireMatcher(kind, field, value);
    return;
  }
  throw new InvalidCheckError(kind, field, "must be a string, number, boolean, null, RegExp, array or object", value);
}
