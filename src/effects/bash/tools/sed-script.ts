/**
 * A GNU sed script, parsed the way sed 4.x compiles it: addresses, `!`, blocks, every command,
 * `a`/`i`/`c` text, file names, labels, comments and the flags of `s`. Read-only only when the
 * parse succeeds and meets no `w`, `W`, `e`, or `s` flag `w`/`e`.
 */
import { sideEffecting, undecidable, type BashVerdict } from "../verdict.js";

/** Commands that only read, print, branch or edit the pattern and hold spaces, and take no argument. */
const PLAIN = new Set("=dDgGhHnNpPxzF".split(""));
/** Commands with an optional number after them (`l 5`, `q 1`). */
const NUMBERED = new Set("lqQ".split(""));
/** Commands whose argument is a label (or, for `v`, a version), ended by `;` or a blank. */
const LABELLED = new Set(":btTv".split(""));
/** `w` files GNU sed writes to its own standard streams rather than opening. */
const STD_STREAMS = new Set(["/dev/stdout", "/dev/stderr"]);

const BLANK = (c: string | undefined) => c === " " || c === "\t";
const DIGIT = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";

class NotParsed extends Error {}

/** Parse a whole sed script; `undefined` when it only reads and prints. */
export function sedScriptProblem(script: string): BashVerdict | undefined {
  try {
    return new SedScript(script).problem();
  } catch (e) {
    if (e instanceof NotParsed) return undecidable(`the sed script does not parse as proctor reads sed (${e.message}), so what it runs is unknown`);
    throw e;
  }
}

class SedScript {
  private i = 0;
  constructor(private readonly s: string) {}

  private fail(what: string): never {
    throw new NotParsed(`${what} at character ${this.i + 1}`);
  }

  private blanks(): void {
    while (BLANK(this.s[this.i])) this.i++;
  }

  /** Everything up to an unescaped line end: `a`/`i`/`c` text (a trailing backslash continues it). */
  private text(): void {
    while (this.i < this.s.length && this.s[this.i] !== "\n") this.i += this.s[this.i] === "\\" ? 2 : 1;
  }

  /** The rest of the line, as `r`/`w` file names and comments take it. */
  private restOfLine(): string {
    const start = this.i;
    while (this.i < this.s.length && this.s[this.i] !== "\n") this.i++;
    return this.s.slice(start, this.i);
  }

  /**
   * One delimited part (`s/RE/…`, `/RE/`, `y/abc/…`) starting after the opening delimiter.
   * A regex is read three ways — brackets ignored; brackets honoured with a backslash literal
   * inside them (GNU); brackets honoured with a backslash escaping — and must end at one place.
   */
  private delimited(delim: string, regex: boolean): void {
    const end = this.scanTo(delim, "plain");
    if (regex && this.s.lastIndexOf("[", end) >= this.i) {
      if (this.scanTo(delim, "brackets-literal") !== end || this.scanTo(delim, "brackets-escaping") !== end) {
        this.fail("a bracket expression that sed implementations could end in different places");
      }
    }
    this.i = end + 1;
  }

  private scanTo(delim: string, mode: "plain" | "brackets-literal" | "brackets-escaping"): number {
    const s = this.s;
    let j = this.i;
    while (j < s.length) {
      const c = s[j];
      if (c === "\\") {
        if (j + 1 >= s.length) break;
        j += 2;
        continue;
      }
      if (c === "\n") this.fail("a line break inside a delimited part");
      if (c === delim) return j;
      if (c === "[" && mode !== "plain") {
        j = this.bracketEnd(j, mode === "brackets-escaping");
        continue;
      }
      j++;
    }
    return this.fail(`an unterminated \`${delim}…${delim}\``);
  }

  /** Index after the bracket expression opening at `open`. */
  private bracketEnd(open: number, escaping: boolean): number {
    const s = this.s;
    let j = open + 1;
    if (s[j] === "^") j++;
    if (s[j] === "]") j++;
    while (j < s.length && s[j] !== "]") {
      if (s[j] === "\n") this.fail("a line break inside a bracket expression");
      if (escaping && s[j] === "\\") j += 2;
      else if (s[j] === "[" && (s[j + 1] === ":" || s[j + 1] === "." || s[j + 1] === "=")) {
        const close = s.indexOf(`${s[j + 1]}]`, j + 2);
        if (close === -1) this.fail("an unterminated character class");
        j = close + 2;
      } else j++;
    }
    if (j >= s.length) this.fail("an unterminated bracket expression");
    return j + 1;
  }

  /** An address, if one starts here. */
  private address(second: boolean): boolean {
    const c = this.s[this.i];
    if (DIGIT(c) || (second && (c === "+" || c === "~"))) {
      this.i++;
      while (DIGIT(this.s[this.i])) this.i++;
      if (!second && this.s[this.i] === "~") {
        this.i++;
        while (DIGIT(this.s[this.i])) this.i++;
      }
      return true;
    }
    if (c === "$") {
      this.i++;
      return true;
    }
    if (c === "/" || c === "\\") {
      if (c === "\\") this.i++;
      const d = this.s[this.i++];
      if (d === undefined || d === "\n" || d === "\\") this.fail("a bad regex delimiter");
      this.delimited(d, true);
      while (this.s[this.i] === "I" || this.s[this.i] === "M") this.i++;
      return true;
    }
    return false;
  }

  /** After a command: blanks, then `;`, a line end, `}`, `#` or the end. */
  private endOfCommand(): void {
    this.blanks();
    const c = this.s[this.i];
    if (c === undefined || c === "\n" || c === ";") {
      this.i++;
      return;
    }
    if (c === "}" || c === "#") return;
    this.fail(`\`${c}\` after a command`);
  }

  problem(): BashVerdict | undefined {
    const s = this.s;
    let depth = 0;
    while (this.i < s.length) {
      while (BLANK(s[this.i]) || s[this.i] === "\n" || s[this.i] === ";") this.i++;
      if (this.i >= s.length) break;
      if (s[this.i] === "#") {
        this.restOfLine();
        continue;
      }
      const addressed = this.address(false);
      if (addressed) {
        this.blanks();
        if (s[this.i] === ",") {
          this.i++;
          this.blanks();
          if (!this.address(true)) this.fail("a missing second address");
        }
      }
      this.blanks();
      if (s[this.i] === "!") {
        this.i++;
        this.blanks();
      }
      const cmd = s[this.i++];
      if (cmd === undefined) this.fail("a missing command");
      if (cmd === "{") {
        depth++;
        continue;
      }
      if (cmd === "}") {
        if (addressed || depth === 0) this.fail("an unexpected `}`");
        depth--;
        this.endOfCommand();
        continue;
      }
      if (PLAIN.has(cmd)) {
        this.endOfCommand();
        continue;
      }
      if (NUMBERED.has(cmd)) {
        this.blanks();
        while (DIGIT(s[this.i])) this.i++;
        this.endOfCommand();
        continue;
      }
      if (LABELLED.has(cmd)) {
        this.blanks();
        while (this.i < s.length && !BLANK(s[this.i]) && s[this.i] !== "\n" && s[this.i] !== ";") this.i++;
        // GNU sed needs no `;` after a label that a blank ended: `:a w f` is a label, then `w f`.
        continue;
      }
      if (cmd === "a" || cmd === "i" || cmd === "c") {
        this.blanks();
        if (s[this.i] === "\\" && s[this.i + 1] === "\n") this.i += 2;
        this.text();
        continue;
      }
      if (cmd === "r" || cmd === "R") {
        this.blanks();
        if (this.restOfLine() === "") this.fail("a missing file name");
        continue;
      }
      if (cmd === "w" || cmd === "W") {
        this.blanks();
        const file = this.restOfLine();
        if (file === "") this.fail("a missing file name");
        if (!STD_STREAMS.has(file)) return sideEffecting(`the sed script writes the file ${file} (\`${cmd}\`)`);
        continue;
      }
      if (cmd === "e") return undecidable("the sed script runs a shell command (`e`)");
      if (cmd === "y") {
        const d = s[this.i++];
        if (d === undefined || d === "\n" || d === "\\") this.fail("a bad `y` delimiter");
        this.delimited(d, false);
        this.delimited(d, false);
        this.endOfCommand();
        continue;
      }
      if (cmd === "s") {
        const d = s[this.i++];
        if (d === undefined || d === "\n" || d === "\\") this.fail("a bad `s` delimiter");
        this.delimited(d, true);
        this.replacement(d);
        const flagProblem = this.substituteFlags();
        if (flagProblem) return flagProblem;
        continue;
      }
      this.fail(`the command \`${cmd}\``);
    }
    if (depth !== 0) this.fail("an unmatched `{`");
    return undefined;
  }

  /** The replacement of `s`: a backslash-newline continues it onto the next line. */
  private replacement(delim: string): void {
    const s = this.s;
    while (this.i < s.length && s[this.i] !== delim) {
      if (s[this.i] === "\n") this.fail("a line break in a replacement");
      this.i += s[this.i] === "\\" ? 2 : 1;
    }
    if (this.i >= s.length) this.fail("an unterminated `s` command");
    this.i++;
  }

  /** The flags of `s`, in any order and with blanks between: `g`, `p`, a number, `i`/`I`, `m`/`M`, `e`, `w FILE`. */
  private substituteFlags(): BashVerdict | undefined {
    const s = this.s;
    let runs = false;
    for (;;) {
      const c = s[this.i];
      if (c === "g" || c === "p" || c === "i" || c === "I" || c === "m" || c === "M" || BLANK(c) || DIGIT(c)) {
        this.i++;
        continue;
      }
      if (c === "e") {
        runs = true;
        this.i++;
        continue;
      }
      if (c === "w") {
        this.i++;
        this.blanks();
        const file = this.restOfLine();
        if (file === "") this.fail("a missing file name");
        if (!STD_STREAMS.has(file)) return sideEffecting(`the sed script writes the file ${file} (the \`w\` flag of \`s\`)`);
        break;
      }
      if (c === undefined || c === "\n" || c === ";") {
        this.i++;
        break;
      }
      if (c === "}" || c === "#") break;
      this.fail(`the \`s\` flag \`${c}\``);
    }
    return runs ? undecidable("the sed script runs the pattern space as a shell command (the `e` flag of `s`)") : undefined;
  }
}
