/**
 * A cap on JSON nesting. JSON.parse itself copes with deep input, but everything after it —
 * JSON.stringify, argument matching, schema validation — recurses, and a few hundred thousand
 * brackets end in a RangeError. Input that nests deeper than any real transcript, hook payload or
 * report is refused up front, with a message that says where.
 */
import { InvalidInputError } from "../errors/proctor-error.js";

/** The deepest nesting proctor reads. Real payloads stay below 50; recursion is safe far above this. */
export const MAX_JSON_DEPTH = 512;

/**
 * Where `text` first nests deeper than `max` (its character offset), or undefined when it doesn't.
 * One pass, no recursion; brackets inside strings don't count.
 */
export function findExcessDepth(text: string, max = MAX_JSON_DEPTH): number | undefined {
  if (!opensMoreThan(text, max)) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++; // backslash: skip the escaped character
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 91 || c === 123) {
      if (++depth > max) return i;
    } else if (c === 93 || c === 125) depth--;
  }
  return undefined;
}

/**
 * Whether `text` holds more than `max` opening brackets (in strings too): nesting deeper than
 * `max` needs that many, and counting them with indexOf costs a few per cent of JSON.parse where
 * the exact scan costs as much as JSON.parse itself.
 */
function opensMoreThan(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let n = 0;
  for (let i = text.indexOf("{"); i !== -1; i = text.indexOf("{", i + 1)) if (++n > max) return true;
  for (let i = text.indexOf("["); i !== -1; i = text.indexOf("[", i + 1)) if (++n > max) return true;
  return false;
}

/** Throw INVALID_INPUT naming `what` when the text nests deeper than `max`; before JSON.parse, so nothing after it recurses too deep. */
export function refuseDeepJson(text: string, what: string, max = MAX_JSON_DEPTH): void {
  const at = findExcessDepth(text, max);
  if (at !== undefined) {
    throw new InvalidInputError("INVALID_INPUT", `${what} nests deeper than ${max} levels (at character ${at}); no real payload does — check what produced it`);
  }
}

/** JSON.parse with the nesting cap: throws INVALID_INPUT naming `what` when the text nests too deep (syntax errors are JSON.parse's). */
export function parseJsonWithinDepth(text: string, what: string, max = MAX_JSON_DEPTH): unknown {
  refuseDeepJson(text, what, max);
  return JSON.parse(text);
}
