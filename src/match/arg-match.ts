/**
 * Argument matching for tool calls: which calls "look like" the one a check is about.
 *
 * A matcher maps keys to expectations. A key may be a dot path (`"edits.0.old_string"`); an
 * expectation is a literal (strict equality), a RegExp (tested against strings, and against the
 * JSON text of objects and arrays), or a nested object (a deep-partial match). Every key must hold.
 */

/** One expectation inside an {@link ArgMatcher}. */
export type ArgValue = string | number | boolean | null | RegExp | readonly ArgValue[] | ArgMatcher;

/** Keys (dot paths allowed) to expectations; all must hold. */
export interface ArgMatcher {
  readonly [path: string]: ArgValue;
}

/** Where and why a matcher did not hold. */
export interface ArgMismatch {
  readonly path: string;
  readonly expected: ArgValue;
  readonly actual: unknown;
}

/** `undefined` when `input` satisfies `matcher`, else the first key that does not hold. */
export function findArgMismatch(input: unknown, matcher: ArgMatcher): ArgMismatch | undefined {
  return mismatchObject(input, matcher, "");
}

/** True when `input` satisfies `matcher`. */
export function matchArgs(input: unknown, matcher: ArgMatcher): boolean {
  return findArgMismatch(input, matcher) === undefined;
}

function mismatchObject(input: unknown, matcher: ArgMatcher, prefix: string): ArgMismatch | undefined {
  for (const [key, expected] of Object.entries(matcher)) {
    const actual = lookup(input, key);
    const path = prefix ? `${prefix}.${key}` : key;
    const miss = mismatchValue(actual, expected, path);
    if (miss) return miss;
  }
  return undefined;
}

function mismatchValue(actual: unknown, expected: ArgValue, path: string): ArgMismatch | undefined {
  if (expected instanceof RegExp) {
    const text = asText(actual);
    return text !== undefined && testRegExp(expected, text) ? undefined : { path, expected, actual };
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return { path, expected, actual };
    for (let i = 0; i < expected.length; i++) {
      const miss = mismatchValue(actual[i], expected[i], `${path}.${i}`);
      if (miss) return miss;
    }
    return undefined;
  }
  if (isPlainObject(expected)) {
    if (typeof actual !== "object" || actual === null) return { path, expected, actual };
    return mismatchObject(actual, expected as ArgMatcher, path);
  }
  if (actual === expected) return undefined;
  // A literal string against an object or array compares with its JSON text.
  if (typeof expected === "string" && typeof actual === "object" && actual !== null && JSON.stringify(actual) === expected) {
    return undefined;
  }
  return { path, expected, actual };
}

/** Direct key first (keys may contain dots), then the dot path. */
function lookup(input: unknown, key: string): unknown {
  if (typeof input !== "object" || input === null) return undefined;
  const record = input as Record<string, unknown>;
  if (Object.hasOwn(record, key)) return record[key];
  if (!key.includes(".")) return undefined;
  let current: unknown = input;
  for (const part of key.split(".")) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function asText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (typeof value === "object" && value !== null) return JSON.stringify(value);
  return undefined;
}

/** `RegExp.test` without the `lastIndex` state a `g`/`y` flag carries between calls. */
export function testRegExp(re: RegExp, text: string): boolean {
  re.lastIndex = 0;
  const hit = re.test(text);
  re.lastIndex = 0;
  return hit;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
