/**
 * Regular expressions that arrive as data (`{"$regex": …}` in check JSON, YAML and policy files)
 * are matched by RE2 (re2js), in time linear in the input: a pattern like `(a+)+$` from a file
 * must not stall `proctor check` or a gate that sits in front of every tool call. RegExp objects
 * written in code stay JavaScript regexes.
 */
import { RE2JS } from "re2js";
import { InvalidCheckError } from "../checks/validate.js";

const FLAG_BITS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };
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
  let bits = 0;
  for (const f of flags) {
    if (FLAG_BITS[f] !== undefined) bits |= FLAG_BITS[f];
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
    return RE2JS.compile(source, bits);
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
