/**
 * The fast path: a command made only of plain words separated by spaces is one simple command
 * whose words are their own values, so it is judged straight from the command catalog, with no
 * parse, no second reading and no tree walk — and without the parser loaded.
 *
 * It must give exactly the verdict the full path (classify.ts) gives, reason included; whatever
 * could make the two differ is sent to the full path (`undefined`). The proof is a property test
 * (test/effects/classify-bash.fast-path.property.test.ts) that compares the two over the corpus
 * and over generated commands; the argument is in docs/safety.md, "The fast path".
 */
import { openScope, type BashContext } from "./context/in-context.js";
import { judgeCommand } from "./judge.js";
import { readOnly, type Arg, type BashVerdict } from "./verdict.js";
import { clip } from "./words.js";

/**
 * The fast-path alphabet. Each character is plain in Bash wherever it stands in a word of a
 * simple command, and tree-sitter-bash reads it as part of a `word` (or a `number`):
 * - `A-Z a-z 0-9 _`: word characters. A leading digit run is a redirection only before `<`/`>`,
 *   which are not in the alphabet.
 * - ` ` (space): the only separator allowed; tab and newline are left to the full path (a
 *   newline ends a command).
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
 * Left out, each for a reason: `$` and `` ` `` (expansion, substitution), quotes and `\`,
 * `<`, `>`, `&`, `|`, `;`, `(`, `)` (redirection, separators, subshells), `*`, `?`, `[`, `]`
 * (globs), `{`, `}` (brace expansion, groups), `~` (tilde), `#` (comments), `!` and `^`
 * (negation, history), tab and newline, and every non-ASCII character.
 */
const ALPHABET = /^[A-Za-z0-9 _\-./,:=+@%]*$/;
/**
 * The command name keeps to a narrower set: besides `=` (an assignment, above), tree-sitter-bash
 * reads a name followed by `+`, `@` or `%` (`a@`, `a+:`, `a%`) as the start of an assignment or
 * an expansion operator and fails to parse, and misreads the words after a lone `-` (`- a=b`
 * becomes an assignment), where Bash runs a command of that name; so the name also starts with
 * a letter, digit, `_`, `.` or `/`.
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

/** The words of a command the fast path may judge, or `undefined` when it needs the full path. */
export function fastPathWords(command: string): string[] | undefined {
  if (command.length > MAX_FAST_LENGTH || !ALPHABET.test(command)) return undefined;
  // The full path's second reading refuses any text with `esac` between word boundaries.
  if (command.includes("esac")) return undefined;
  const words = command.split(" ").filter((w) => w !== "");
  const name = words[0];
  if (name === undefined || !NAME.test(name)) return undefined;
  for (const w of words) if (FULL_PATH_WORDS.has(w)) return undefined;
  return words;
}

/**
 * The verdict for a command the fast path may judge, identical to the full path's, or
 * `undefined` when the command needs the full path. `context` as for `explainBash`, already
 * checked to be well formed.
 */
export function fastPathVerdict(command: string, context?: BashContext): BashVerdict | undefined {
  const words = fastPathWords(command);
  if (words === undefined) return undefined;
  const [name, ...rest] = words as [string, ...string[]];
  // A plain word's value is its text: no quotes, escapes, globs or expansions to remove.
  const args: Arg[] = rest.map((w) => ({ value: w, text: clip(w) }));
  const verdict = judgeCommand(name, args, context ? openScope(context) : undefined);
  return verdict.effect === "read-only" ? readOnly(`only read-only commands: ${name}`) : verdict;
}
