/**
 * awk (gawk, mawk, the one true awk, busybox): the command line of all of them at once, and the
 * program read by a tokenizer rather than by patterns over its text.
 *
 * The name `awk` may be any of them, so the grammar is their union and each option means the
 * worst any of them makes of it: mawk's `-W exec` and gawk's `-W source=…` both count, `-W`
 * items match by prefix as mawk matches them, and `--sandbox` counts only for `gawk` (mawk
 * refuses it, but the one true awk ignores an unknown option and runs the program anyway).
 *
 * A program runs commands through `system()`, pipes (`|`, `|&`) and gawk's indirect calls (`@`);
 * it writes through `>`/`>>` in a `print`/`printf` statement; gawk opens network connections for
 * `/inet/…` names, as input files too — so a file name awk cannot know from the text (a computed
 * operand, a `getline <` from an expression, `ARGV` changed by the program) is undecidable.
 */
import { readOnly, sideEffecting, undecidable, type Arg, type BashVerdict } from "../verdict.js";
import { opt, parseArgs, type Grammar } from "./getopt.js";

const AWK: Grammar = {
  command: "awk",
  short: {
    F: opt("F", "required"), v: opt("v", "required"), f: opt("file", "required"), e: opt("source", "required"),
    E: opt("exec", "required"), i: opt("include", "required"), l: opt("load", "required"), W: opt("W", "required"),
    d: opt("dump-variables", "optional"), D: opt("debug", "optional"), o: opt("pretty-print", "optional"),
    p: opt("profile", "optional"), L: opt("lint", "optional"),
    b: opt("b"), c: opt("c"), C: opt("c"), g: opt("c"), h: opt("c"), I: opt("c"), k: opt("c"), M: opt("c"), n: opt("c"),
    N: opt("c"), O: opt("c"), P: opt("c"), r: opt("c"), s: opt("c"), S: opt("sandbox"), t: opt("c"), V: opt("c"),
  },
  long: {
    assign: opt("v", "required"), "field-separator": opt("F", "required"), file: opt("file", "required"),
    source: opt("source", "required"), exec: opt("exec", "required"), include: opt("include", "required"),
    load: opt("load", "required"), "dump-variables": opt("dump-variables", "optional"), debug: opt("debug", "optional"),
    "pretty-print": opt("pretty-print", "optional"), profile: opt("profile", "optional"), persist: opt("persist", "optional"),
    lint: opt("lint", "optional"), sandbox: opt("sandbox"),
    bignum: opt("c"), "characters-as-bytes": opt("c"), copyright: opt("c"), csv: opt("c"), "gen-pot": opt("c"), help: opt("c"),
    "no-optimize": opt("c"), "non-decimal-data": opt("c"), optimize: opt("c"), posix: opt("c"), "re-interval": opt("c"),
    trace: opt("c"), traditional: opt("c"), "use-lc-numeric": opt("c"), version: opt("c"), usage: opt("c"),
  },
};

/** What an option does beyond reading: the program comes from a file, or the run writes one. */
const EFFECTS: Record<string, "runs" | "writes"> = {
  file: "runs", exec: "runs", include: "runs", load: "runs", debug: "runs",
  "dump-variables": "writes", "pretty-print": "writes", profile: "writes", persist: "writes",
};

/** `-W` items (mawk's own, and gawk's long options) with what the worst reading does. */
const W_ITEMS: Record<string, "runs" | "writes" | "program" | "fine"> = {
  // mawk
  dump: "fine", exec: "runs", help: "fine", interactive: "fine", posix_space: "fine", random: "fine", sprintf: "fine",
  usage: "fine", version: "fine",
  // gawk, `-W name` meaning `--name`
  assign: "fine", bignum: "fine", "characters-as-bytes": "fine", copyright: "fine", csv: "fine", debug: "runs",
  "dump-variables": "writes", "field-separator": "fine", file: "runs", "gen-pot": "fine", include: "runs", lint: "fine",
  load: "runs", "no-optimize": "fine", "non-decimal-data": "fine", optimize: "fine", persist: "writes", posix: "fine",
  "pretty-print": "writes", profile: "writes", "re-interval": "fine", sandbox: "fine", source: "program", trace: "fine",
  traditional: "fine", "use-lc-numeric": "fine",
};
const W_RANK = { fine: 0, program: 1, writes: 2, runs: 3 } as const;

/** Read one `-W` value (`exec`, `v`, `sprint=2000,posix`): the worst any item could mean. */
function wItems(value: string): { worst: keyof typeof W_RANK; item: string; program?: string } | string {
  let worst: keyof typeof W_RANK = "fine";
  let worstItem = "";
  let program: string | undefined;
  for (const item of value.split(",")) {
    const eq = item.indexOf("=");
    const name = (eq === -1 ? item : item.slice(0, eq)).trim();
    const matches = name === "" ? [] : Object.keys(W_ITEMS).filter((k) => k.startsWith(name));
    if (matches.length === 0) return item;
    for (const m of matches) {
      if (W_RANK[W_ITEMS[m]] > W_RANK[worst]) {
        worst = W_ITEMS[m];
        worstItem = m;
      }
      if (W_ITEMS[m] === "program" && eq !== -1) program = item.slice(eq + 1);
    }
  }
  return { worst, item: worstItem, program };
}

/** Classify `awk`, `gawk`, `mawk`, `nawk` with their arguments. */
export function classifyAwk(command: string, args: readonly Arg[]): BashVerdict {
  const parsed = parseArgs({ ...AWK, command }, args);
  if (parsed.verdict) return parsed.verdict;
  const programs: Arg[] = [];
  let sandbox = false;
  let operandIsProgram = true;
  for (const o of parsed.options) {
    const effect = EFFECTS[o.id];
    if (effect === "runs") return undecidable(`\`${command} ${o.spelling}\` ${o.id === "debug" ? "runs the debugger, which takes commands" : "runs a program from a file proctor cannot see"}`);
    if (effect === "writes") return sideEffecting(`\`${command} ${o.spelling}\` writes a file`);
    if (o.id === "source") {
      programs.push(o.value!);
      operandIsProgram = false;
    }
    if (o.id === "sandbox" && command === "gawk") sandbox = true;
    if (o.id === "W") {
      if (o.value!.value === undefined) return undecidable(`\`${command} -W ${o.value!.text}\` is computed at run time`);
      const w = wItems(o.value!.value);
      if (typeof w === "string") return undecidable(`\`${command} -W ${w}\` is not an option proctor models for awk`);
      if (w.worst === "runs") return undecidable(`\`${command} -W ${o.value!.value}\` can mean \`-W ${w.item}\`, which runs a program from a file`);
      if (w.worst === "writes") return sideEffecting(`\`${command} -W ${o.value!.value}\` can mean \`-W ${w.item}\`, which writes a file`);
      // gawk reads `-W source=TEXT` as a program; mawk ignores it and takes the first operand.
      if (w.program !== undefined) programs.push({ value: w.program, text: o.value!.text });
    }
  }
  // The one true awk ignores an option it does not know, alone: the value after `--assign` or
  // `-W` becomes its program, and after an ignored `--source=TEXT` the first operand does.
  // So those values, and that operand, are read as programs too (only -F and -v mean the same
  // in every awk).
  for (const o of parsed.options) {
    if (o.value === undefined || o.spelling === "-F" || o.spelling === "-v" || o.id === "source") continue;
    if (o.value.value === undefined) return undecidable(`\`${command} ${o.spelling}\` gets ${o.value.text}, computed at run time, which an awk that ignores ${o.spelling} would run as its program`);
    programs.push(o.value);
  }
  const operands = [...parsed.operands];
  if (operandIsProgram || (command !== "gawk" && operands.length > 0)) {
    const program = operands.shift();
    if (!program) return readOnly(`${command} without a program (a usage error)`);
    programs.push(program);
  }
  for (const a of operands) {
    if (a.value === undefined) return undecidable(`\`${command}\` gets the operand ${a.text}, computed at run time, which gawk could open as a network connection (/inet/…)`);
    if (a.value.includes("/inet")) return sideEffecting(`\`${command} … ${a.value}\` opens a network connection in gawk (/inet/…)`);
  }
  for (const program of programs) {
    if (program.value === undefined) return undecidable(`the ${command} program ${program.text} is computed at run time`);
    if (sandbox) continue;
    const problem = awkProgramProblem(program.value);
    if (problem) return { effect: problem.effect, reason: `the ${command} program ${problem.reason}` };
  }
  return readOnly(sandbox ? "gawk --sandbox cannot write or run commands" : `${command} prints only`);
}

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
  for (let k = 0; k < toks.length; k++) {
    const t = toks[k];
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
    const c = s[i];
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
      if (r === "ambiguous") throw new NotParsed(`a \`/\` after \`${out[out.length - 1].text}\` that awks can read as division or as a regex`);
      if (r) {
        const end = regexEnd(s, i + 1);
        out.push({ kind: "re", text: s.slice(i, end + 1) });
        i = end + 1;
        continue;
      }
    }
    if (/[A-Za-z_]/.test(c)) {
      let j = i + 1;
      while (j < s.length && /[A-Za-z0-9_]/.test(s[j])) j++;
      out.push({ kind: "id", text: s.slice(i, j) });
      i = j;
      continue;
    }
    if (/[0-9.]/.test(c) && /[0-9]/.test(s[c === "." ? i + 1 : i] ?? "")) {
      let j = i;
      while (j < s.length && /[0-9A-Za-z_.]/.test(s[j])) {
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
      if (c === "(") parens.push(out[out.length - 1]?.kind === "id" && CONTROL.has(out[out.length - 1].text));
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
