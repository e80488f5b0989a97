/**
 * A second, independent reading of a command's raw text, written from Bash's own lexical rules
 * rather than from the parser's grammar. It does not build commands; it finds what matters for
 * soundness — where Bash would start a substitution or evaluation (`$(`, `$((`, `${`, `$[`, a
 * backtick, `<(`, `>(`), which spans Bash treats as inert text (single quotes, `$'…'`, comments,
 * here-document bodies) and where double-quoted strings run — so the classifier can refuse any
 * command on which this reading and the parser's tree disagree.
 *
 * It errs one way only: whenever the text does something this reader does not follow exactly
 * (quotes inside `${…}`, backslashes inside backticks, a here-document inside a substitution, a
 * continuation inside a here-document, nesting past a cap), it gives up, and the command is
 * undecidable. One pass, no recursion: hostile input costs linear time and constant stack.
 */

/**
 * Characters Bash keeps inside a word that parsers may take for blanks or line ends: every
 * control character but tab and newline (`ls \r# ; rm x` runs `rm`), DEL, and Unicode spaces
 * and line separators.
 */
export const CONFUSABLE = /[\x00-\x08\x0b-\x1f\x7f\x85\xa0\u1680\u2000-\u200b\u2028\u2029\u202f\u205f\u3000\ufeff]/;
/** A here-document as Bash reads it. */
export interface Heredoc {
  /** Offset of the `<<` / `<<-` operator. */
  readonly operator: number;
  /** Offset of the delimiter on the line that ends the body, or -1 if the text ends first. */
  readonly end: number;
  /** Whether the delimiter was quoted (then the body is not expanded). */
  readonly quoted: boolean;
}

export interface Rescan {
  /** Offsets where Bash starts a substitution or expansion that can run or evaluate code. */
  readonly substitutions: readonly number[];
  /** `[start, end)` of single-quoted and `$'…'` strings at command level: inert. */
  readonly quoted: ReadonlyArray<readonly [number, number]>;
  /** `[start, end)` of double-quoted strings (from the quote, to after the closing quote). */
  readonly doubleQuoted: ReadonlyArray<readonly [number, number]>;
  /** `[start, end)` of comments, from `#` to the end of the line. */
  readonly comments: ReadonlyArray<readonly [number, number]>;
  readonly heredocs: readonly Heredoc[];
}

export type RescanResult = { readonly ok: true; readonly scan: Rescan } | { readonly ok: false; readonly reason: string };

/** How deep substitutions, quotes and parentheses may nest before the reader gives up. */
export const MAX_NESTING = 64;
/**
 * How many words and operators a command may hold. The parser's cost grows with tokens, not
 * bytes (64 KiB of `a a a …` takes it hundreds of milliseconds); everyday commands hold a few
 * dozen, a long pipeline a few hundred.
 */
export const MAX_TOKENS = 2048;

/** Runs of non-blank characters plus operator and expansion characters: an upper bound on the parser's tokens. */
function countTokens(text: string): number {
  let count = 0;
  let inRun = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // space, tab, newline
    if (c === 32 || c === 9 || c === 10) {
      inRun = false;
      continue;
    }
    // ; & | ( ) < > $ ` { }
    if (c === 59 || c === 38 || c === 124 || c === 40 || c === 41 || c === 60 || c === 62 || c === 36 || c === 96 || c === 123 || c === 125) count++;
    else if (!inRun) count++;
    inRun = true;
  }
  return count;
}

enum Kind {
  Command, // top level, or inside `$(…)`, `<(…)`, `>(…)`
  Double, // "…"
  Brace, // ${…}
  Arith, // $((…))
  Backtick, // `…`
  Heredoc, // an unquoted here-document body
}

/** The character that closes a frame of each kind, where one character does. */
const CLOSER: Readonly<Record<Kind, string | undefined>> = {
  [Kind.Command]: undefined, // `)`, counted with the parentheses it holds
  [Kind.Double]: '"',
  [Kind.Brace]: "}",
  [Kind.Arith]: undefined, // `))`
  [Kind.Backtick]: "`",
  [Kind.Heredoc]: undefined, // its end line, found before the body is scanned
};

interface Frame {
  readonly kind: Kind;
  /** Unclosed `(` inside a Command or Arith frame. */
  parens: number;
  /** Where a Double frame's quote opened. */
  readonly start: number;
}

const BLANK = new Set([" ", "\t"]);
/** Characters that end a word and may be followed by a comment. */
const BREAKS = new Set([" ", "\t", "\n", ";", "&", "|", "(", ")"]);

/** Read `text` as Bash would, as far as soundness needs; `ok: false` with why when it cannot. */
export function rescanShell(text: string): RescanResult {
  const substitutions: number[] = [];
  const quoted: Array<[number, number]> = [];
  const doubleQuoted: Array<[number, number]> = [];
  const comments: Array<[number, number]> = [];
  const heredocs: Heredoc[] = [];
  const fail = (reason: string): RescanResult => ({ ok: false, reason });

  /** The next offset at or after `i` that is not a backslash-newline continuation. */
  const skip = (i: number): number => {
    while (text[i] === "\\" && text[i + 1] === "\n") i += 2;
    return i;
  };

  interface Pending {
    readonly operator: number;
    readonly delimiter: string;
    readonly quoted: boolean;
    readonly strip: boolean;
  }

  /**
   * Scan `[from, to)` starting in a frame of `base` kind. Returns the offset where scanning
   * stopped (== `to` when done) or a reason to give up.
   */
  const scan = (from: number, to: number, base: Kind): string | undefined => {
    const stack: Frame[] = [{ kind: base, parens: 0, start: from }];
    const pending: Pending[] = [];
    /** `true` at the start of a word; "redirect" right after a redirection operator. */
    let wordStart: boolean | "redirect" = true;
    let i = from;
    const push = (kind: Kind, start: number): string | undefined => {
      if (stack.length >= MAX_NESTING) return `substitutions and quotes nest deeper than ${MAX_NESTING} levels`;
      stack.push({ kind, parens: 0, start });
      return undefined;
    };
    /** After a `$` at offset `i`: a substitution, or a plain parameter. Returns the next offset or a reason. */
    const dollar = (kind: Kind): number | string => {
      const n = skip(i + 1);
      const c = text[n];
      if (c === "(") {
        substitutions.push(i);
        const m = skip(n + 1);
        if (text[m] === "(") {
          const r = push(Kind.Arith, i);
          return r ?? m + 1;
        }
        const r = push(Kind.Command, i);
        return r ?? n + 1;
      }
      if (c === "{") {
        substitutions.push(i);
        const r = push(Kind.Brace, i);
        return r ?? n + 1;
      }
      if (c === "[") return "`$[…]` is arithmetic that proctor does not analyse";
      if (c === "'" && kind === Kind.Command) {
        // $'…': backslash escapes, including \' — inert.
        let j = n + 1;
        while (j < to && text[j] !== "'") j += text[j] === "\\" ? 2 : 1;
        if (j >= to) return "an unterminated `$'…'` string";
        quoted.push([i, j + 1]);
        return j + 1;
      }
      if (c === '"' && kind === Kind.Command) {
        const r = push(Kind.Double, n);
        return r ?? n + 1;
      }
      return n === i + 1 ? i + 1 : n;
    };

    while (i < to) {
      const frame = stack[stack.length - 1];
      if (frame === undefined) throw new RangeError("proctor internal error: the rescan popped its base frame");
      const c = text.charAt(i);
      if (c === "\\" && text[i + 1] === "\n") {
        i += 2; // a continuation: Bash removes it before anything else
        continue;
      }
      if (c === CLOSER[frame.kind]) {
        stack.pop();
        if (frame.kind === Kind.Double) doubleQuoted.push([frame.start, i + 1]);
        i++;
        continue;
      }
      if ((c === "$" || c === "`") && frame.kind !== Kind.Backtick) {
        // Every frame but a backtick's own starts a substitution or expansion here.
        if (frame.kind === Kind.Command) wordStart = false;
        if (c === "$") {
          const r = dollar(frame.kind);
          if (typeof r === "string") return r;
          i = r;
        } else {
          substitutions.push(i);
          const r = push(Kind.Backtick, i);
          if (r) return r;
          i++;
        }
        continue;
      }
      switch (frame.kind) {
        case Kind.Command: {
          if (BLANK.has(c) || c === "\n") {
            wordStart = true;
            i++;
            // Here-document bodies start on the line after their operators.
            if (c === "\n" && pending.length) {
              if (stack.length > 1) return "a here-document inside a substitution";
              const r = bodies(pending, i, to);
              if (typeof r === "string") return r;
              pending.length = 0;
              i = r;
            }
            continue;
          }
          if (c === "#" && wordStart !== false) {
            if (wordStart === "redirect") return "`#` right after a redirection";
            let j = i;
            while (j < to && text[j] !== "\n") j++;
            comments.push([i, j]);
            i = j;
            continue;
          }
          if (c === "'") {
            const j = text.indexOf("'", i + 1);
            if (j === -1 || j >= to) return "an unterminated single quote";
            quoted.push([i, j + 1]);
            wordStart = false;
            i = j + 1;
            continue;
          }
          if (c === '"') {
            const r = push(Kind.Double, i);
            if (r) return r;
            wordStart = false;
            i++;
            continue;
          }
          if (c === "\\") {
            wordStart = false;
            i += 2;
            continue;
          }
          if (c === "(") {
            if (++frame.parens > MAX_NESTING) return `parentheses nest deeper than ${MAX_NESTING} levels`;
            wordStart = true;
            i++;
            continue;
          }
          if (c === ")") {
            wordStart = true;
            i++;
            if (frame.parens > 0) frame.parens--;
            else if (stack.length > 1) {
              stack.pop();
              wordStart = false;
            } else return "an unmatched `)`";
            continue;
          }
          if (c === "<" || c === ">" || (c === "&" && text[skip(i + 1)] === ">")) {
            let j = c === "&" ? skip(i + 1) : i;
            const first = text[j];
            j = skip(j + 1);
            if (text[j] === "(" && c !== "&") {
              substitutions.push(i); // process substitution
              const r = push(Kind.Command, i);
              if (r) return r;
              wordStart = false;
              i = j + 1;
              continue;
            }
            if (first === "<" && text[j] === "<" && text[skip(j + 1)] !== "<") {
              // A here-document: `<<` or `<<-`, then the delimiter word.
              let k = skip(j + 1);
              const strip = text[k] === "-";
              if (strip) k = skip(k + 1);
              while (BLANK.has(text.charAt(k))) k++;
              let delimiter = "";
              let isQuoted = false;
              while (k < to && !BLANK.has(text.charAt(k)) && !"\n;&|()<>".includes(text.charAt(k))) {
                const d = text[k];
                if (d === "'" || d === '"') {
                  const e = text.indexOf(d, k + 1);
                  if (e === -1 || e >= to || (d === '"' && /[\\$`]/.test(text.slice(k + 1, e)))) return "a here-document delimiter proctor cannot read";
                  delimiter += text.slice(k + 1, e);
                  isQuoted = true;
                  k = e + 1;
                } else if (d === "\\") {
                  if (text[k + 1] === "\n" || k + 1 >= to) return "a here-document delimiter proctor cannot read";
                  delimiter += text[k + 1];
                  isQuoted = true;
                  k += 2;
                } else if (d === "$" || d === "`") {
                  return "a here-document delimiter proctor cannot read";
                } else {
                  delimiter += d;
                  k++;
                }
              }
              if (delimiter === "") return "a here-document without a delimiter";
              pending.push({ operator: i, delimiter, quoted: isQuoted, strip });
              wordStart = true;
              i = k;
              continue;
            }
            // Any other redirection operator: consume its characters.
            while (j < to && "<>&|-".includes(text.charAt(j))) j = skip(j + 1);
            wordStart = "redirect";
            i = j;
            continue;
          }
          wordStart = BREAKS.has(c);
          i++;
          continue;
        }
        case Kind.Double:
        case Kind.Heredoc: {
          if (c === "\\") {
            const n = text[i + 1];
            i += n === "$" || n === "`" || n === "\\" || (n === '"' && frame.kind === Kind.Double) ? 2 : 1;
            continue;
          }
          i++;
          continue;
        }
        case Kind.Brace: {
          if (c === "{") return "a brace inside `${…}`";
          if ((c === "<" || c === ">") && text[skip(i + 1)] === "(") {
            // Bash performs process substitution inside `${…}` (even in double quotes, in a pattern).
            substitutions.push(i);
            const r = push(Kind.Command, i);
            if (r) return r;
            i = skip(i + 1) + 1;
            continue;
          }
          if (c === "'" || c === '"' || c === "\\") return "quoting inside `${…}`, which Bash reads differently in and out of double quotes";
          i++;
          continue;
        }
        case Kind.Arith: {
          if (c === "(") {
            if (++frame.parens > MAX_NESTING) return `parentheses nest deeper than ${MAX_NESTING} levels`;
            i++;
            continue;
          }
          if (c === ")") {
            if (frame.parens > 0) {
              frame.parens--;
              i++;
              continue;
            }
            const n = skip(i + 1);
            if (text[n] !== ")") return "`$((…)` that Bash may read as a command substitution";
            stack.pop();
            i = n + 1;
            continue;
          }
          if (c === "'" || c === '"' || c === "\\") return "quoting inside `$((…))`";
          i++;
          continue;
        }
        case Kind.Backtick: {
          if (c === "\\") return "a backslash inside backticks (Bash reads the text twice)";
          if (c === "<" && text[i + 1] === "<") return "a here-document inside backticks";
          // Bash re-reads the text between backticks as a command; every substitution in it runs.
          if (c === "$" && "({[".includes(text[skip(i + 1)] ?? "\n")) substitutions.push(i);
          else if ((c === "<" || c === ">") && text[skip(i + 1)] === "(") substitutions.push(i);
          i++;
          continue;
        }
      }
    }
    if (pending.length) return "a here-document whose body never starts";
    if (stack.length > 1) return "an unterminated quote or substitution";
    return undefined;
  };

  /** Read the bodies of pending here-documents, starting at `at`; the offset after them, or why not. */
  const bodies = (pending: readonly Pending[], at: number, to: number): number | string => {
    let pos = at;
    for (const doc of pending) {
      const bodyStart = pos;
      let end = -1;
      while (pos < to) {
        let eol = text.indexOf("\n", pos);
        if (eol === -1 || eol > to) eol = to;
        const line = text.slice(pos, eol);
        let tabs = 0;
        if (doc.strip) while (line.charCodeAt(tabs) === 9) tabs++;
        if (line.slice(tabs) === doc.delimiter) {
          end = pos + tabs;
          if (!doc.quoted) {
            const r = scan(bodyStart, pos, Kind.Heredoc);
            if (r) return r;
          }
          pos = Math.min(eol + 1, to);
          break;
        }
        if (!doc.quoted && /(^|[^\\])(\\\\)*\\$/.test(line)) return "a continuation inside a here-document";
        pos = eol + 1;
      }
      if (end === -1) return "a here-document whose end line never comes";
      heredocs.push({ operator: doc.operator, end, quoted: doc.quoted });
    }
    return pos;
  };

  if (countTokens(text) > MAX_TOKENS) return fail(`the command holds more than ${MAX_TOKENS} words and operators`);
  if (/\besac\b/.test(text)) return fail("`case` statements are not analysed");
  const r = scan(0, text.length, Kind.Command);
  if (r) return fail(r);
  return { ok: true, scan: { substitutions, quoted, doubleQuoted, comments, heredocs } };
}
