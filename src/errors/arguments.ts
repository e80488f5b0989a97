/**
 * Argument checks at the public boundary. TypeScript callers cannot pass the wrong type, but
 * JavaScript callers, JSON and `as never` can; such a value gets an `InvalidInputError` naming the
 * function, the argument and what to pass, instead of a TypeError from deep inside.
 */
import { InvalidInputError } from "./proctor-error.js";

/** A value as an error message shows it: its type, and short values themselves. */
function shown(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return `a string (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") return `a ${typeof value} (${String(value)})`;
  return `a ${typeof value}`;
}

/** The error for `fn`'s argument `name` that is not `expected` (e.g. `a tool name such as "Bash"`). */
export function wrongArgument(fn: string, name: string, value: unknown, expected: string): InvalidInputError {
  return new InvalidInputError("INVALID_INPUT", `${fn}: ${name} must be ${expected}; got ${shown(value)}`, { input: `${fn}.${name}`, hint: `pass ${expected} as ${name}` });
}

export function requireString(fn: string, name: string, value: unknown, expected = "a string"): asserts value is string {
  if (typeof value !== "string") throw wrongArgument(fn, name, value, expected);
}

export function requireNumber(fn: string, name: string, value: unknown, expected = "a number"): asserts value is number {
  if (typeof value !== "number" || Number.isNaN(value)) throw wrongArgument(fn, name, value, expected);
}

export function requireArray(fn: string, name: string, value: unknown, expected = "an array"): asserts value is readonly unknown[] {
  if (!Array.isArray(value)) throw wrongArgument(fn, name, value, expected);
}

/** An object that is not an array or null (an options bag, a parsed policy, a report). */
export function requireObject(fn: string, name: string, value: unknown, expected = "an object"): asserts value is object {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw wrongArgument(fn, name, value, expected);
}

/** An optional argument: absent (undefined) is fine, anything else must pass `check`. */
export function optional<A extends unknown[]>(check: (fn: string, name: string, value: unknown, ...rest: A) => void, fn: string, name: string, value: unknown, ...rest: A): void {
  if (value !== undefined) check(fn, name, value, ...rest);
}
