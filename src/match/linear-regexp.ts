/**
 * Regular expressions that arrive as data (`{"$regex": …}` in check JSON, YAML and policy files)
 * are matched by RE2 (re2js), in time linear in the input: a pattern like `(a+)+$` from a file
 * must not stall `proctor check` or a gate that sits in front of every tool call. RegExp objects
 * written in code stay JavaScript regexes.
 */
import { createRequire } from "node:module";
import type { RE2JS } from "re2js";
import { InvalidCheckError } from "../checks/validate.js";

let re2js: typeof RE2JS | undefined;
/** re2js, loaded (through its CommonJS build, synchronously) when the first pattern from data is compiled, not when proctor is imported. */
function loadRe2js(): typeof RE2JS {
  re2js ??= (createRequire(import.meta.url)("re2js") as typeof import("re2js")).RE2JS;
  return re2js;
}

/** The RE2 flag bit for each JavaScript flag it honours. */
function flagBit(RE2: typeof RE2JS, flag: string): number | undefined {
  return flag === "i" ? RE2.CASE_INSENSITIVE : flag === "m" ? RE2.MULTILINE : flag === "s" ? RE2.DOTALL : undefined;
}
/** Flags with no effect on a yes/no match (g resets per test, u and d change nothing RE2 does). */
const NEUTRAL_FLAGS = new Set(["g", "u", "d"]);

/**
 * A RegExp whose matching runs on RE2. It is still a RegExp (instanceof, `source`, `flags`,
 * `String()` and the JSON form are unchanged), so every matcher that takes one takes this.
 */
export class LinearRegExp extends RegExp {
  readonly #re2: RE2JS;

  /** Throws a ProctorError (INVALID_CHECK) naming what RE2 cannot run: backreferences, lookaround, the y/v flags. */
  constructor(source: string, flags = "") {
    const re2 = compileLinear(source, flags);
    // Valid JavaScript too (checked first), so source, flags and String() read as written.
    super(source, flags);
    this.#re2 = re2;
  }

  /** RE2's match, in RegExp's shape: `test`, `match`, `replace` and `split` all go through here. */
  override exec(input: string): RegExpExecArray | null {
    const text = String(input);
    const global = this.global;
    const from = global ? this.lastIndex : 0;
    if (from > text.length) {
      this.lastIndex = 0;
      return null;
    }
    const m = this.#re2.matcher(text);
    if (!m.find(from)) {
      if (global) this.lastIndex = 0;
      return null;
    }
    const groups: (string | undefined)[] = [];
    for (let g = 0; g <= m.groupCount(); g++) groups.push(m.group(g) ?? undefined);
    const out = Object.assign(groups, { index: m.start(), input: text, groups: undefined }) as unknown as RegExpExecArray;
    if (global) this.lastIndex = m.end() === m.start() ? m.end() + 1 : m.end();
    return out;
  }

  override test(input: string): boolean {
    return this.exec(input) !== null;
  }
}

function compileLinear(source: string, flags: string): RE2JS {
  const RE2 = loadRe2js();
  let bits = 0;
  for (const f of flags) {
    const bit = flagBit(RE2, f);
    if (bit !== undefined) bits |= bit;
    else if (!NEUTRAL_FLAGS.has(f)) {
      throw new InvalidCheckError("INVALID_CHECK", `regular expression /${source}/${flags}: flag "${f}" is not supported for patterns read from data (supported: i, m, s, g, u)`);
    }
  }
  try {
    new RegExp(source, flags);
  } catch (error) {
    throw new InvalidCheckError("INVALID_CHECK", (error as Error).message, { input: `/${source}/${flags}`, cause: error });
  }
  try {
    return RE2.compile(source, bits);
  } catch (error) {
    throw new InvalidCheckError("INVALID_CHECK", `/${source}/ needs backtracking, which patterns read from data may not use (${(error as Error).message})`, {
      cause: error,
      detail: "  patterns read from data are matched by RE2, which has no backreferences or lookaround; rewrite it without them, or build the check in code with a RegExp",
    });
  }
}

/** The RegExp a `{"$regex", "$flags"}` from data stands for: linear-time, never backtracking. */
export function regexFromData(source: string, flags = ""): RegExp {
  return new LinearRegExp(source, flags);
}
