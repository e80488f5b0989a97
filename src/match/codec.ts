/**
 * JSON form of check parameters: a RegExp travels as `{"$regex": source, "$flags": flags}`;
 * everything else is plain JSON.
 */
import { isPlainObject } from "./arg-match.js";

/** A RegExp in JSON. */
export interface RegexJSON {
  readonly $regex: string;
  readonly $flags?: string;
}

/** Replace every RegExp in `value` by its JSON form. */
export function encodeValue(value: unknown): unknown {
  if (value instanceof RegExp) return value.flags ? { $regex: value.source, $flags: value.flags } : { $regex: value.source };
  if (Array.isArray(value)) return value.map(encodeValue);
  // fromEntries defines own keys, `__proto__` included; assigning would set the prototype instead.
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).flatMap(([k, v]) => (v === undefined ? [] : [[k, encodeValue(v)]])));
  return value;
}

/** True when `value` is a RegExp's JSON form. */
export function isRegexJSON(value: unknown): value is RegexJSON {
  return isPlainObject(value) && typeof value.$regex === "string" && Object.keys(value).every((k) => k === "$regex" || k === "$flags");
}

/** Render a value compactly for messages: RegExps as `/x/i`, long text cut. */
export function formatValue(value: unknown, max = 120): string {
  const text = render(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

function render(value: unknown): string {
  if (value instanceof RegExp) return String(value);
  if (Array.isArray(value)) return `[${value.map(render).join(",")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${render(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? String(value);
}
