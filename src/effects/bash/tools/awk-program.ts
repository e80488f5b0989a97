/**
 * An awk program, read by a tokenizer: strings, regex literals, comments and continuations are
 * recognised so that `print > "f"` inside a string is text and `$3 > 100` outside a `print` is a
 * comparison. Wherever awks could tokenize differently (a `/` that is division in one reading and
 * a regex in another, a bracket expression holding `/`), the program is undecidable.
 */
import { sideEffecting, undecidable, type BashVerdict } from "../verdict.js";

type Tok = { kind: "id" | "num" | "str" | "re" | "op" | "nl"; text: string };

/** Keywords after which an expression (so a regex) starts. */
const OPERAND_AFTER_KEYWORD = new Set(["print", "printf", "return", "case", "do", "else", "exit"]);
/** Words after which a `/` could be read either way by some awk. */
const AMBIGUOUS_BEFORE_SLASH = new Set(["getline", "in", "delete", "function", "func", "BEGIN", "END", "BEGINFILE", "ENDFILE", "next", "nextfile", "break", "continue", "if", "while", "for", "switch", "default", "length"]);
/** Tokens after which a line break does not end a statement. */
const CONTINUES = new Set([",", "{", "&&", "||", "do", "else", "?", ":"]);
const OPS = ["|&", "||", "&&", ">>", ">=", "<=", "==", "!=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "**", "::"];
const SINGLE = new Set("{}()[];,?:!~<>=+-*/%^$|@".split(""));
/** Output names every awk treats as its own streams. Not `"-"`: mawk writes a file named `-`. */
const STD_STREAMS = new Set(['"/dev/stdout"', '"/dev/stderr"']);

class NotParsed extends Error {}

/** Why an awk program is not read-only, or `undefined` when it only reads and prints. */
export function awkProgramProblem(text: string): BashVerdict | undefined {
  if (text.includes("/inet")) return sideEffecting("names a gawk network file (`/inet/…`)");
  if (text.includes("sorted_in")) return undecidable("sets `PROCINFO[\"sorted_in\"]`, which makes gawk call a function by name");
  let toks: Tok[];
  try {
    toks = tokenize(text);
  } catch (e) {
    if (e instanceof NotParsed) return undecidable(`does not tokenize as proctor reads awk (${e.message})`);
    throw e;
  }
  let inPrint = false;
  let printDepth = 0;
  let depth = 0;
  let sawGetline = false;
  for (const [k, t] of toks.entries()) {
    if (t.kind === "id") {
      if (t.text === "system") return undecidable("calls `system()`");
      if (t.text === "ARGV" || t.text === "ARGC") return undecidable(`uses \`${t.text}\`, which can change the files awk opens`);
      if (t.text === "getline") sawGetline = true;
      if (t.text === "print" || t.text === "printf") {
        inPrint = true;
        printDepth = depth;
      }
      continue;
    }
    if (t.kind !== "op" && t.kind !== "nl") continue;
    switch (t.text) {
      case "|":
      case "|&":
        return undecidable(`pipes to or from a command (\`${t.text}\`)`);
      case "@":
        return undecidable("makes an indirect call or loads code (`@`)");
      case "(":
      case "[":
        depth++;
        break;
      case ")":
      case "]":
        depth--;
        break;
      case "{":
        depth++;
        break;
      case "}":
        depth--;
        if (depth < printDepth) inPrint = false;
        break;
      case ";":
        if (depth <= printDepth) inPrint = false;
        break;
      case "\n": {
        const before = toks[k - 1];
        if (depth <= printDepth && !(before && CONTINUES.has(before.text))) inPrint = false;
        break;
      }
      case ">":
      case ">>": {
        if (!inPrint) break; // a comparison
        const target = toks[k + 1];
        const after = toks[k + 2];
        const ends = after === undefined || after.text === ";" || after.text === "}" || after.kind === "nl";
        if (target?.kind === "str" && STD_STREAMS.has(target.text) && ends) break;
        return sideEffecting(`writes a file (\`print … ${t.text}\`)`);
      }
      case "<": {
        if (!sawGetline) break; // a comparison
        const target = toks[k + 1];
        const next = toks[k + 2];
        // A literal file to read (no /inet: checked above), not the start of a concatenation.
        if (target?.kind === "str" && !(next && startsOperand(next))) break;
        return undecidable("reads with `getline <` from a file named at run time, which gawk could open as a network connection");
      }
      default:
        break;
    }
  }
  return undefined;
}

/** Could this token begin an operand, continuing a concatenation? */
function startsOperand(t: Tok): boolean {
  return t.kind === "str" || t.kind === "id" || t.kind === "num" || t.kind === "re" || ["$", "(", "!", "-", "+", "++", "--"].includes(t.text);
}

const CONTROL = new Set(["if", "while", "for"]);

function tokenize(s: string): Tok[] {
  const out: Tok[] = [];
  /** For each open `(`: does it hold the condition of `if`/`while`/`for`? */
  const parens: boolean[] = [];
  let closedControl = false;
  /** Whether a `/` here starts a regex (an operand is expected) — or could be read either way. */
  const regexHere = (): boolean | "ambiguous" => {
    const prev = out[out.length - 1];
    if (!prev || prev.kind === "nl") return true;
    if (prev.kind === "num" || prev.kind === "str" || prev.kind === "re") return false;
    if (prev.kind === "id") {
      if (OPERAND_AFTER_KEYWORD.has(prev.text)) return true;
      if (AMBIGUOUS_BEFORE_SLASH.has(prev.text)) return "ambiguous";
      return false;
    }
    // `(a) / 2` divides; after `if (x)` a statement starts, and `/re/` would be a regex.
    if (prev.text === ")") return closedControl ? "ambiguous" : false;
    if (prev.text === "]") return false;
    if (prev.text === "++" || prev.text === "--" || prev.text === "$") return "ambiguous";
    return true;
  };
  let i = 0;
  while (i < s.length) {
    const c = s.charAt(i);
    if (c === " " || c === "\t" || c === "\r") {
      i++;
      continue;
    }
    if (c === "\\" && s[i + 1] === "\n") {
      i += 2;
      continue;
    }
    if (c === "\\" && s[i + 1] === "\r" && s[i + 2] === "\n") {
      i += 3;
      continue;
    }
    if (c === "\n") {
      out.push({ kind: "nl", text: "\n" });
      i++;
      continue;
    }
    if (c === "#") {
      while (i < s.length && s[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') {
        if (s[j] === "\n") throw new NotParsed("a line break inside a string");
        j += s[j] === "\\" ? 2 : 1;
      }
      if (j >= s.length) throw new NotParsed("an unterminated string");
      out.push({ kind: "str", text: s.slice(i, j + 1) });
      i = j + 1;
      continue;
    }
    if (c === "/") {
      const r = regexHere();
      if (r === "ambiguous") throw new NotParsed(`a \`/\` after \`${out.at(-1)?.text}\` that awks can read as division or as a regex`);
      if (r) {
        const end = regexEnd(s, i + 1);
        out.push({ kind: "re", text: s.slice(i, end + 1) });
        i = end + 1;
        continue;
      }
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < s.length && /[A-Za-z0-9_]/.test(s.charAt(j))) j++;
      out.push({ kind: "id", text: s.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9.]/.test(c) && /[0-9]/.test(s[c === "." ? i + 1 : i] ?? "")) {
      let j = i;
      while (j < s.length && /[0-9A-Za-z_.]/.test(s.charAt(j))) {
        if ((s[j] === "e" || s[j] === "E") && (s[j + 1] === "+" || s[j + 1] === "-")) j++;
        j++;
      }
      out.push({ kind: "num", text: s.slice(i, j) });
      i = j;
      continue;
    }
    const two = OPS.find((op) => s.startsWith(op, i));
    if (two) {
      out.push({ kind: "op", text: two });
      i += two.length;
      continue;
    }
    if (SINGLE.has(c)) {
      if (c === "(") {
        const prev = out.at(-1);
        parens.push(prev?.kind === "id" && CONTROL.has(prev.text));
      }
      if (c === ")") closedControl = parens.pop() ?? false;
      out.push({ kind: "op", text: c });
      i++;
      continue;
    }
    throw new NotParsed(`the character \`${c}\``);
  }
  return out;
}

/**
 * Where a regex literal starting at `from` ends. awks differ on a `/` inside a bracket
 * expression; the literal is read with brackets ignored and honoured, and must end at one place.
 */
function regexEnd(s: string, from: number): number {
  const plain = scanRegex(s, from, false);
  if (s.lastIndexOf("[", plain) >= from && scanRegex(s, from, true) !== plain) {
    throw new NotParsed("a regex whose end awks read differently (a `/` in a bracket expression)");
  }
  return plain;
}

function scanRegex(s: string, from: number, brackets: boolean): number {
  let j = from;
  while (j < s.length) {
    const c = s[j];
    if (c === "\n") break;
    if (c === "\\") {
      j += 2;
      continue;
    }
    if (c === "/") return j;
    if (c === "[" && brackets) {
      j++;
      if (s[j] === "^") j++;
      if (s[j] === "]") j++;
      while (j < s.length && s[j] !== "]" && s[j] !== "\n") {
        if (s[j] === "[" && (s[j + 1] === ":" || s[j + 1] === "." || s[j + 1] === "=")) {
          const close = s.indexOf(`${s[j + 1]}]`, j + 2);
          if (close === -1) throw new NotParsed("an unterminated character class");
          j = close + 2;
        } else j += s[j] === "\\" ? 2 : 1;
      }
      j++;
      continue;
    }
    j++;
  }
  throw new NotParsed("an unterminated regex");
}
