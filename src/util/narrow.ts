import { InternalError } from "../errors/proctor-error.js";

/**
 * Small narrowing helpers shared by the library, so parsed JSON is read as `unknown` and narrowed
 * where it is used, and an index the code has proved valid is read without a bare `!`.
 */

/** A JSON-like object (not an array, not null): its fields are still `unknown` until checked. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `value` as a record, or an empty one: for reading optional fields of loosely shaped JSON. */
export function asRecord(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

/**
 * `table[key]` only when `table` itself defines `key`. A table keyed by names from a command line
 * (options, subcommands, programs) must never answer for `constructor`, `__proto__` or
 * `toString` from Object.prototype: an allow-list admits only what it lists.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/** `value` when it is a string, else undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** `value` when it is an array, else an empty one. */
export function asArray(value: unknown): readonly unknown[] {
  return Array.isArray(value) ? value : [];
}

/**
 * `list[index]` where the caller's logic guarantees the index is in range (a loop bound, a length
 * checked earlier). Out of range is a bug in proctor, so it throws an `INTERNAL` error rather than
 * yield undefined.
 */
export function at<T>(list: readonly T[], index: number): T {
  if (index < 0 || index >= list.length) throw new InternalError(`index ${index} outside a list of ${list.length}`);
  return list[index] as T;
}
