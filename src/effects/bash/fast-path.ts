/**
 * The fast path: a command line made only of plain and quoted words separated by spaces, and of
 * simple commands joined by `|`, `&&`, `||` and `;` and ending, perhaps, in redirections that
 * write nothing (`2>/dev/null`, `2>&1`), runs commands whose words have fixed values,
 * so it is judged straight from the command catalog, with no parse, no second reading and no
 * tree walk — and without the parser loaded.
 *
 * It must give exactly the verdict the full path (classify.ts) gives, reason included; whatever
 * could make the two differ is sent to the full path (`undefined`). The proof is a property test
 * (test/effects/classify-bash.fast-path.property.test.ts) that compares the two over the corpus
 * and over generated commands; the argument is in docs/safety.md, "The fast path".
 */
import { openScope, type BashContext } from "./context/in-context.js";
import { judgeCommand } from "./judge.js";
import { readOnly, worse, type Arg, type BashVerdict } from "./verdict.js";
import { clip } from "./words.js";

/**
 * The fast-path alphabet outside quotes. Each character is plain in Bash wherever it stands in a
 * word of a simple command, and tree-sitter-bash reads it as part of a `word` (or a `number`):
 * - `A-Z a-z 0-9 _`: word characters. A leading digit run is a redirection only before `<`/`>`,
 *   which are not in the alphabet.
 * - ` ` (space): the only blank allowed; tab and newline are left to the full path (a newline
 *   ends a command).
 * - `-`: special only inside `[…]`, `${…}` and arithmetic, none of which can occur here.
 * - `.` and `/`: path characters; `.` as a command name is `source`, which the catalog judges.
 * - `,`: special only inside brace expansion `{a,b}`; braces are excluded.
 * - `:`: special only in tilde expansion after `:` in assignments (`~` is excluded) and as the
 *   `:` builtin, which the catalog judges.
 * - `=`: makes a word an assignment only before the command name, or as an operand of a
 *   declaration builtin (`export a=b`); so never in the first word, and the declaration builtins
 *   go to the full path (see `FULL_PATH_WORDS`). After the name, `a=b` is an argument.
 * - `+`: `+=` is an assignment (first word only, as for `=`); `+(…)` is an extended glob, and
 *   `(` is excluded.
 * - `@`: `@(…)` is an extended glob (needs `(`), `$@` needs `$`; alone it is plain.
 * - `%`: a job spec (`%1`) only as an operand of job builtins, which read it as text themselves.
 * - `*` and `?`: pathname expansion (the Bash manual, 3.5.8 "Filename Expansion") replaces the
 *   word with the names of matching files, so a word holding one unquoted has no fixed value
 *   (`undefined`, as the full path gives it); they start nothing else outside `[[ … ]]`, `case`
 *   and arithmetic, and the extended globs `?(…)` and `*(…)` need `(`. Never in a command name.
 * - `~`: tilde expansion (3.5.2) turns a word's leading `~…/` into a directory; the full path
 *   takes the word's text as its value, and so does this one. Never in a command name.
 * - `'` and `"`: open a quoted part of the word (below); the command name has none.
 * - `|`, `&&`, `||` and `;` between commands: they join simple commands (`fastPathCommands`).
 * - `>` and `&` in the few harmless redirections at the end of a command (`HARMLESS_REDIRECT`).
 * Left out, each for a reason: `$` and `` ` `` (expansion, substitution; so no `$'…'` or `$"…"`
 * either), `\`, `<`, `(`, `)` (redirection, subshells), any other use of `>`, `&`, `|` and `;`,
 * `[`, `]` (globs, tests), `{`, `}` (brace expansion, groups), `#` (comments), `!` and `^`
 * (negation, history), tab and newline, and every non-ASCII character.
 *
 * Inside quotes (the Bash manual, 3.1.2.2 "Single Quotes" and 3.1.2.3 "Double Quotes"):
 * - `'…'`: "Enclosing characters in single quotes preserves the literal value of each character
 *   within the quotes", so any printable ASCII character but `'` itself may stand there — globs,
 *   separators, `$`, `\`, `#` and `!` included (single quotes also escape the history character).
 *   Tab, newline and everything outside printable ASCII go to the full path.
 * - `"…"`: "preserves the literal value of all characters within the quotes, with the exception
 *   of `$`, `` ` ``, `\`, and, when history expansion is enabled, `!`". Those four (and `"`) go to
 *   the full path: `!` too, although history expansion is off in the non-interactive shell that
 *   runs a tool's command, so the fast path never depends on how the shell was started.
 * A quoted part is never a reserved word, a glob or an expansion ("Quoting … to prevent reserved
 * words from being recognized as such, and to prevent parameter expansion", 3.1.2); quote
 * removal leaves the text between the quotes, which is the word's value with its plain parts.
 */
const PLAIN = 1;
const IN_SINGLE = 2;
const IN_DOUBLE = 4;
/** Plain, but makes the word's value unknown (a glob). */
const GLOB = 8;
/** Per ASCII code: which of the three places the character may stand in. */
const CLASS = new Uint8Array(128);
for (let c = 0x20; c < 0x7f; c++) {
  const ch = String.fromCharCode(c);
  if (/[A-Za-z0-9_\-./,:=+@%~]/.test(ch)) CLASS[c] = PLAIN | IN_SINGLE | IN_DOUBLE;
  else if (ch === "*" || ch === "?") CLASS[c] = PLAIN | GLOB | IN_SINGLE | IN_DOUBLE;
  else CLASS[c] = (ch === "'" ? 0 : IN_SINGLE) | (ch === '"' || ch === "$" || ch === "`" || ch === "\\" || ch === "!" ? 0 : IN_DOUBLE);
}
/** Characters refused outside quotes, and inside double quotes (a quick test before the lexer, which refuses them too). */
const REFUSED_UNQUOTED = /[$`\\<(){}[\]#!^\t\n]/;
const REFUSED_IN_DOUBLE = /[$`\\!\t\n]/;
const SPACE = 32;
const SINGLE_QUOTE = 39;
const DOUBLE_QUOTE = 34;
const EQUALS = 61;
const TILDE = 126;

/**
 * The command name is unquoted and keeps to a narrower set: besides `=` (an assignment, above),
 * tree-sitter-bash reads a name followed by `+`, `@` or `%` (`a@`, `a+:`, `a%`) as the start of
 * an assignment or an expansion operator and fails to parse, and misreads the words after a lone
 * `-` (`- a=b` becomes an assignment), where Bash runs a command of that name; so the name also
 * starts with a letter, digit, `_`, `.` or `/`.
 */
const NAME = /^[A-Za-z0-9_./][A-Za-z0-9_\-./,:]*$/;

/**
 * Words that make a command more than a catalog lookup, wherever they stand (their position
 * matters to Bash and tree-sitter-bash in different ways, so any position goes to the full path):
 * Bash's reserved words made of alphabet characters (`if`, `time`, `coproc`, `function`, `in`…);
 * the commands tree-sitter-bash reads as declarations (`declaration_command`, `unset_command`),
 * whose verdict the walk gives from the construct, not the catalog; and tokens of its grammar it
 * cannot read as a word.
 */
const FULL_PATH_WORDS: ReadonlySet<string> = new Set([
  "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time", "until", "while",
  "declare", "typeset", "export", "readonly", "local", "unset", "unsetenv",
  // tree-sitter-bash reads a lone `==` as a test operator, outside any test, and fails to parse
  "==",
]);

/**
 * Longer commands go to the full path. Well under the full path's caps (64 KiB, 2,048 words and
 * operators — at most 513 words fit in 1,024 characters), so none of those refusals is skipped.
 */
const MAX_FAST_LENGTH = 1024;

/** One word of a fast-path command: its text as written, and its value after quote removal. */
export interface FastWord {
  readonly text: string;
  /** `undefined` when an unquoted `*` or `?` makes it a pattern. */
  readonly value: string | undefined;
}

/**
 * Redirections that change nothing anyone can read back, as whole words after a command's
 * arguments: output to /dev/null (`2>/dev/null`, `>/dev/null`, `&>/dev/null`, or with a space
 * before the path) and the duplication of standard output and error onto each other (`2>&1`,
 * `1>&2`, `>&2`). The walk notes nothing for them (`HARMLESS_TARGETS` and descriptor
 * duplication in classify.ts), so the verdict is the command's alone. Only at the end of a
 * command: tree-sitter-bash reads every word after a redirection's target as part of it.
 */
const HARMLESS_REDIRECT = /(?:[12]?>|&>) *\/dev\/null(?= |$|\||;)|(?:2>&1|1>&2|>&2)(?= |$|\||;)/y;

/** The length of a harmless redirection at `at`, or 0. */
function harmlessRedirect(command: string, at: number): number {
  const c = command.charCodeAt(at);
  // A redirection starts with `>`, `&>`, or the digit of its descriptor.
  if (c !== 62 && c !== AMPERSAND && c !== 49 && c !== 50) return 0;
  HARMLESS_REDIRECT.lastIndex = at;
  const m = HARMLESS_REDIRECT.exec(command);
  return m ? m[0].length : 0;
}

const PIPE = 124;
const AMPERSAND = 38;
const SEMICOLON = 59;

/**
 * The simple commands of a command line the fast path may judge, each as its words, in the
 * order they run; `undefined` when it needs the full path.
 *
 * Commands may be joined by `|`, `&&`, `||` and `;` (Bash manual, 3.2.3 "Pipelines" and 3.2.4
 * "Lists of Commands"): each joined command runs (or may run) as written, and the full path's walk
 * judges each in text order, so its verdict is theirs combined with `worse` — what
 * `fastPathVerdict` computes. Anything else made of those characters goes to the full path:
 * `&` alone (a background job), `|&`, `;;`, `;&` and an operator with no command on either side.
 */
export function fastPathCommands(command: string): FastWord[][] | undefined {
  if (command.length > MAX_FAST_LENGTH) return undefined;
  // The full path's second reading refuses any text with `esac` between word boundaries.
  if (command.includes("esac")) return undefined;
  // Most commands the fast path refuses hold a character no quote here allows: refused unread.
  if (!command.includes("'") && (command.includes('"') ? REFUSED_IN_DOUBLE : REFUSED_UNQUOTED).test(command)) return undefined;
  const commands: FastWord[][] = [];
  let words: FastWord[] = [];
  /** After a redirection, only redirections or an operator may follow in the same command. */
  let redirected = false;
  const n = command.length;
  let i = 0;
  for (;;) {
    while (i < n && command.charCodeAt(i) === SPACE) i++;
    if (i === n) break;
    const redirect = harmlessRedirect(command, i);
    if (redirect > 0) {
      if (words.length === 0) return undefined; // before the name: the full path's
      redirected = true;
      i += redirect;
      continue;
    }
    const op = command.charCodeAt(i);
    if (op === PIPE || op === AMPERSAND || op === SEMICOLON) {
      const next = command.charCodeAt(i + 1);
      let length = 1;
      if (op === AMPERSAND) {
        if (next !== AMPERSAND) return undefined; // `&`: a background job
        length = 2;
      } else if (op === PIPE) {
        if (next === AMPERSAND) return undefined; // `|&`
        if (next === PIPE) length = 2;
      } else if (next === SEMICOLON || next === AMPERSAND) {
        return undefined; // `;;`, `;&`, `;;&`: case clauses
      }
      if (words.length === 0) return undefined; // no command before the operator
      commands.push(words);
      words = [];
      redirected = false;
      i += length;
      continue;
    }
    if (redirected) return undefined;
    const start = i;
    let value = "";
    let quoted = false;
    let glob = false;
    // One word: plain runs and quoted parts, up to a space, an operator or the end.
    while (i < n) {
      const c = command.charCodeAt(i);
      if (c === SPACE || c === PIPE || c === AMPERSAND || c === SEMICOLON) break;
      if (c === SINGLE_QUOTE || c === DOUBLE_QUOTE) {
        const inside = c === SINGLE_QUOTE ? IN_SINGLE : IN_DOUBLE;
        const close = command.indexOf(c === SINGLE_QUOTE ? "'" : '"', i + 1);
        if (close === -1) return undefined;
        for (let j = i + 1; j < close; j++) {
          const q = command.charCodeAt(j);
          if (q >= 128 || ((CLASS[q] as number) & inside) === 0) return undefined;
        }
        const part = command.slice(i + 1, close);
        // tree-sitter-bash keeps no content for a double-quoted string of spaces only (`" "`), so
        // the full path reads its value as empty where Bash has the spaces.
        if (inside === IN_DOUBLE && part !== "" && part.trim() === "") return undefined;
        value += part;
        quoted = true;
        i = close + 1;
        continue;
      }
      if (c >= 128 || ((CLASS[c] as number) & PLAIN) === 0) return undefined;
      let j = i;
      while (j < n) {
        const d = command.charCodeAt(j);
        const k = d < 128 ? (CLASS[d] as number) : 0;
        if ((k & PLAIN) === 0) break;
        if ((k & GLOB) !== 0) glob = true;
        j++;
      }
      value += command.slice(i, j);
      i = j;
    }
    const text = quoted ? command.slice(start, i) : value;
    // tree-sitter-bash reads a leading `==` or `=~` as its test operator and the rest as a second
    // argument (`ls =='a'`), where Bash has one word `==a`; any word starting with `=` and a quote,
    // `=` or `~` goes to the full path.
    if (text.charCodeAt(0) === EQUALS) {
      const second = text.charCodeAt(1);
      if (quoted || second === EQUALS || second === TILDE) return undefined;
    }
    // Quoted, a reserved word is not one to Bash; both readings go to the full path all the same.
    if (FULL_PATH_WORDS.has(text) || FULL_PATH_WORDS.has(value)) return undefined;
    if (words.length === 0 && (quoted || !NAME.test(text))) return undefined;
    words.push({ text, value: glob ? undefined : value });
  }
  // An operator with nothing after it (`ls |`, `ls;`) goes to the full path too.
  if (words.length === 0) return undefined;
  commands.push(words);
  return commands;
}

/**
 * The verdict for a command the fast path may judge, identical to the full path's, or
 * `undefined` when the command needs the full path. `context` as for `explainBash`, already
 * checked to be well formed.
 */
export function fastPathVerdict(command: string, context?: BashContext): BashVerdict | undefined {
  const commands = fastPathCommands(command);
  if (commands === undefined) return undefined;
  const scope = context ? openScope(context) : undefined;
  // As the walk does: every command judged in text order, the first of the worst verdicts kept.
  let verdict: BashVerdict = readOnly("");
  const names: string[] = [];
  for (const words of commands) {
    // NAME admits no quote or glob character: the name's value is its text.
    const name = (words[0] as FastWord).text;
    const args: Arg[] = [];
    // No escapes or expansions: a word's value is its text with the quotes removed.
    for (let k = 1; k < words.length; k++) {
      const w = words[k] as FastWord;
      args.push({ value: w.value, text: clip(w.text) });
    }
    verdict = worse(verdict, judgeCommand(name, args, scope));
    if (!names.includes(name)) names.push(name);
  }
  return verdict.effect === "read-only" ? readOnly(`only read-only commands: ${names.join(", ")}`) : verdict;
}
