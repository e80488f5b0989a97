/**
 * classifyBash: is a shell command provably read-only? Parsed with a real shell grammar
 * (tree-sitter-bash), then walked with an allow-list: every construct the walker does not
 * understand makes the command `undecidable`, so an unfamiliar construct can never be read-only.
 * The grammar is not Bash, so a read-only verdict also needs Bash's own reading of the raw text
 * (rescan.ts) to agree with the tree (agreement.ts) on every substitution and every inert span.
 */
import { parseShell, type ShellNode } from "./parser.js";
import { ARITHMETIC_TEST_OPERATORS } from "./builtins.js";
import { fastPathVerdict } from "./fast-path.js";
import { judgeCommand } from "./judge.js";
import { isInertVariable } from "./commands.js";
import { isQuietVariable } from "./everyday.js";
import { checkAgreement } from "./agreement.js";
import { CONFUSABLE, rescanShell } from "./rescan.js";
import { clip, scanWord, staticValue } from "./words.js";
import { readOnly, sideEffecting, undecidable, worse, type Arg, type BashEffect, type BashVerdict } from "./verdict.js";
import { openScope, type BashContext, type ContextScope } from "./context/in-context.js";
import { at } from "../../util/narrow.js";

export type { BashEffect, BashVerdict } from "./verdict.js";
export type { BashContext } from "./context/in-context.js";

/** Output targets that write nothing anyone can read back. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"]);
const NETWORK_PATH = /^\/dev\/(?:tcp|udp)\//;
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);
const READ_OPS = new Set(["<", "<&"]);
const CONTROL_FLOW: Record<string, string> = {
  while_statement: "while/until",
  for_statement: "select",
  c_style_for_statement: "for ((…))",
  case_statement: "case",
};
/**
 * `{NAME}>file` (and `<`, `>>`, `<>`, `>&`, `&>` …) opens a descriptor and assigns its number to
 * NAME, which stays set for later commands — `{PATH}>/dev/null` makes PATH `10` —, and a subscript
 * there (`{a[$x]}>`) is arithmetic on a value. Found on the raw text, at the start of any word;
 * a group's `{ ls; }>f` starts with a blank, and stays readable.
 */
const VARIABLE_REDIRECTION = /(?:^|[\s;&|()])(\{[^\s}][^}]*\})(?=[<>]|&>)/;
/** Longer commands are refused unread: nobody types 64 KiB of shell, and the cost must stay bounded. */
export const MAX_COMMAND_LENGTH = 64 * 1024;
/** The walk recurses once per tree level; deeper trees are refused before it starts. */
export const MAX_TREE_DEPTH = 200;
/**
 * A loop variable the body may set freely: lower-case, so never one of Bash's own variables
 * (PATH, IFS, BASH_ENV, PS4 …, all upper-case but `auto_resume` and `histchars`, excluded), and not
 * a proxy setting that tools read from the environment.
 */
const LOOP_VARIABLE = /^[a-z][a-z0-9_]*$/;
const LOOP_VARIABLE_EXCLUDED = /proxy|^auto_resume$|^histchars$/;
const TEST_OPERATOR: ReadonlySet<string> = new Set(["test_operator"]);
/** Punctuation between statements, and the keywords of `if`; `&` (background) is not among them. */
const SEPARATORS = new Set([";", ";;", "&&", "||", "|", "|&", "(", ")", "{", "}", "!", "\n", "$(", "`", ")", "if", "then", "elif", "else", "fi", "do", "done"]);

class Walk {
  verdict: BashVerdict = readOnly("");
  readonly commands: string[] = [];
  /** Start offsets of every substitution and expansion the walk judged (shared with nested walks). */
  readonly accounted: Set<number>;

  /** `scope`: the surroundings the command runs in, when the caller gave them (see `BashContext`). */
  constructor(
    readonly scope?: ContextScope,
    accounted: Set<number> = new Set(),
  ) {
    this.accounted = accounted;
  }

  note(v: BashVerdict): void {
    this.verdict = worse(this.verdict, v);
  }

  statement(node: ShellNode): void {
    switch (node.type) {
      case "list":
        this.list(node);
        return;
      case "program":
      case "pipeline":
      case "subshell":
      case "negated_command":
      case "command_substitution":
        this.children(node);
        return;
      case "compound_statement":
        if (node.children[0]?.type === "((") this.note(undecidable(`the arithmetic command ${clip(node.text)} may assign variables`));
        else this.children(node);
        return;
      case "redirected_statement":
        for (const child of node.namedChildren) {
          if (child.type.endsWith("_redirect")) this.redirect(child);
          else this.statement(child);
        }
        return;
      case "command":
        this.command(node);
        return;
      case "file_redirect":
        // A redirection with no command: `$(<file)` reads the file, `> f` truncates it.
        this.redirect(node);
        return;
      case "test_command":
        this.testCommand(node);
        this.words(node);
        return;
      case "if_statement":
      case "elif_clause":
      case "else_clause":
      case "do_group":
        this.children(node);
        return;
      case "for_statement":
        if (node.children[0]?.type !== "for") break;
        this.forLoop(node);
        return;
      case "comment":
        return;
      case "variable_assignment":
      case "variable_assignments":
        this.assignments(node);
        return;
      case "while_statement":
        if (this.whileRead(node)) return;
        break;
      case "declaration_command":
      case "unset_command":
        this.note(undecidable(`${clip(node.text)} changes shell variables`));
        return;
      case "function_definition":
        this.note(undecidable(`${clip(node.text)} defines a function, which can shadow any command`));
        return;
      default:
        if (!node.isNamed) {
          if (node.type === "&") {
            this.note(undecidable("`&` runs a command in the background, outliving the call"));
            return;
          }
          if (SEPARATORS.has(node.type)) return;
        }
        break;
    }
    const construct = CONTROL_FLOW[node.type];
    if (construct) this.note(undecidable(`control flow (\`${construct}\`) is not analysed`));
    else this.note(undecidable(`proctor does not analyse the shell construct \`${node.type}\` (${clip(node.text)})`));
  }

  /** `a && b || c …`: the parser nests a chain to the left, one level per operator; walked in a loop. */
  list(node: ShellNode): void {
    const rest: ShellNode[] = [];
    let left = node;
    while (left.type === "list" && left.children.length > 0) {
      for (let i = left.children.length - 1; i >= 1; i--) rest.push(at(left.children, i));
      left = at(left.children, 0);
    }
    this.statement(left);
    for (let i = rest.length - 1; i >= 0; i--) this.statement(at(rest, i));
  }

  /**
   * `for NAME in WORDS; do BODY; done`: read-only when the words and the body are. Setting NAME
   * changes only this shell, and nothing the walk accepts trusts a variable's value: arithmetic,
   * subscripts, indirection and prompt expansion of variables are all refused.
   */
  forLoop(node: ShellNode): void {
    const variable = node.children.find((c) => c.type === "variable_name");
    if (!variable || !LOOP_VARIABLE.test(variable.text) || LOOP_VARIABLE_EXCLUDED.test(variable.text)) {
      this.note(undecidable(`the loop sets \`${variable?.text ?? "?"}\`, which may be a variable the shell or a tool reads`));
      return;
    }
    for (const child of node.children) {
      if (child === variable || child.type === "comment") continue;
      if (child.type === "do_group") this.statement(child);
      else if (child.isNamed) this.words(child);
      else if (!["for", "in", ";", "\n"].includes(child.type)) this.note(undecidable(`proctor does not analyse ${clip(child.text)} in a loop`));
    }
  }

  /**
   * `name=value` on its own (`x=$(git rev-parse HEAD)`): read-only when the name is a quiet one
   * (lower-case, as a loop variable) and the value's words are — the reasoning of `forLoop`.
   * A subscript (`a[i]=…`) is arithmetic, so never.
   */
  assignments(node: ShellNode): void {
    for (const a of node.type === "variable_assignment" ? [node] : node.namedChildren) {
      const name = a.children[0];
      if (a.type !== "variable_assignment" || name?.type !== "variable_name" || !isQuietVariable(name.text)) {
        this.note(undecidable(`${clip(a.text)} assigns a shell variable, which can change what later commands run`));
        return;
      }
      this.words(a);
    }
  }

  /**
   * `while read …; do BODY; done`: read-only when the body is. The condition is `read` alone (with
   * an `IFS=` prefix), which ends the loop at the end of its input; any other condition is not
   * analysed (a read-only body can loop forever on it).
   */
  whileRead(node: ShellNode): boolean {
    if (node.children[0]?.type !== "while") return false;
    const named = node.namedChildren.filter((c) => c.type !== "comment");
    const [condition, body] = named;
    if (named.length !== 2 || condition?.type !== "command" || body?.type !== "do_group") return false;
    const nameNode = condition.children.find((c) => c.field === "name");
    if (!nameNode || staticValue(nameNode) !== "read") return false;
    this.statement(condition);
    this.statement(body);
    return true;
  }

  /**
   * `[[ … ]]` evaluates both sides of `-eq`… as arithmetic (a name's value is evaluated in turn)
   * and the operand of `-v`/`-R` as a name with a subscript: only literal numbers and names pass.
   */
  testCommand(node: ShellNode): void {
    for (const op of node.descendantsOfType(TEST_OPERATOR)) {
      const parent = this.parentOf(node, op);
      if (!parent) continue;
      const operands = parent.namedChildren.filter((c) => c !== op);
      if (ARITHMETIC_TEST_OPERATORS.has(op.text)) {
        const bad = operands.find((o) => !/^[0-9]+$/.test(staticValue(o) ?? ""));
        if (bad) {
          this.note(undecidable(`\`[[ … ${op.text} … ]]\` evaluates ${clip(bad.text)} as arithmetic, which can run commands`));
          return;
        }
      } else if (op.text === "-v" || op.text === "-R") {
        const bad = operands.find((o) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(staticValue(o) ?? ""));
        if (bad) {
          this.note(undecidable(`\`[[ ${op.text} ${bad.text} ]]\` evaluates a subscript, which can run commands`));
          return;
        }
      }
    }
  }

  parentOf(root: ShellNode, target: ShellNode): ShellNode | undefined {
    const stack = [root];
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
      for (const c of n.children) {
        if (c === target) return n;
        stack.push(c);
      }
    }
    return undefined;
  }

  children(node: ShellNode): void {
    for (const child of node.children) this.statement(child);
  }

  /** Classify the commands hidden in words (substitutions) and note what they do. */
  words(node: ShellNode): void {
    const found: BashVerdict[] = [];
    scanWord(node, (body) => this.nested(body), found, this.accounted);
    for (const v of found) this.note(v);
  }

  nested(body: ShellNode): BashVerdict {
    const inner = new Walk(this.scope, this.accounted);
    inner.children(body);
    this.commands.push(...inner.commands);
    if (inner.verdict.effect === "read-only") return inner.verdict;
    return { effect: inner.verdict.effect, reason: `in ${clip(body.text, 40)}: ${inner.verdict.reason}` };
  }

  redirect(node: ShellNode): void {
    this.words(node);
    if (node.type === "herestring_redirect") return;
    if (node.type === "heredoc_redirect") {
      // A here-document may carry the rest of a pipeline or list, and redirects of its own.
      for (const child of node.namedChildren) {
        if (["heredoc_start", "heredoc_body", "heredoc_end", "heredoc_content"].includes(child.type)) continue;
        if (child.type.endsWith("_redirect")) this.redirect(child);
        else this.statement(child);
      }
      return;
    }
    if (node.type !== "file_redirect") {
      this.note(undecidable(`proctor does not analyse the redirection ${clip(node.text)}`));
      return;
    }
    const op = node.children.find((c) => !c.isNamed && (WRITE_OPS.has(c.type) || READ_OPS.has(c.type) || c.type === "<&-" || c.type === ">&-"))?.type;
    const destination = node.childForField("destination");
    // A redirection's target is one word in Bash; the words after it are the command's arguments
    // (`find . >/dev/null -delete` runs `find . -delete`). tree-sitter-bash reads them as more
    // targets, and after `>&-` as a target, so the command would be judged without them.
    const targets = node.children.filter((c) => c.field === "destination");
    if (targets.length > ((op === "<&-" || op === ">&-") ? 0 : 1)) {
      const extra = targets[targets.length - 1] as ShellNode;
      this.note(undecidable(`the parser read ${clip(extra.text)} as part of the redirection ${clip(node.text)}, where Bash passes it to the command`));
      return;
    }
    if (op === undefined) {
      // Closing a descriptor is harmless.
      if (!/^\d*[<>]&-$/.test(node.text.replace(/\s/g, ""))) this.note(undecidable(`proctor does not analyse the redirection ${clip(node.text)}`));
      return;
    }
    if (op === "<&-" || op === ">&-") return;
    const target = destination ? staticValue(destination) : undefined;
    if (READ_OPS.has(op)) {
      if (op === "<&" && target !== undefined && /^(\d+|-)$/.test(target)) return;
      // Bash itself opens /dev/tcp and /dev/udp paths as network connections.
      if (target === undefined) this.note(undecidable(`the input redirection ${clip(node.text)} reads from a path named at run time (it could be /dev/tcp/…)`));
      else if (NETWORK_PATH.test(target)) this.note(sideEffecting(`the redirection ${clip(node.text)} opens a network connection`));
      return;
    }
    // `>&2` / `2>&1` duplicate a descriptor; `>&-` closes one. `>& file` writes the file.
    if ((op === ">&" || op === "<&") && target !== undefined && /^(\d+|-)$/.test(target)) return;
    if (target !== undefined && HARMLESS_TARGETS.has(target)) return;
    if (op === "<>") this.note(sideEffecting(`\`<>\` opens ${clip(node.text)} for writing`));
    else this.note(sideEffecting(`the redirection ${clip(node.text)} writes ${target === undefined ? "to a file named at run time" : `the file ${target}`}`));
  }

  command(node: ShellNode): void {
    if (spansLines(node)) {
      this.note(undecidable(`the parser read ${clip(node.text)} as one command across a line break, which Bash would split; refusing to guess`));
      return;
    }
    const args: Arg[] = [];
    let name: string | undefined;
    let nameNode: ShellNode | undefined;
    const prefixes: ShellNode[] = [];
    for (const child of node.children) {
      const field = child.field;
      if (child.type === "variable_assignment") {
        this.words(child);
        prefixes.push(child);
      } else if (field === "name") {
        nameNode = child;
        this.words(child);
        name = staticValue(child);
      } else if (field === "argument") {
        this.words(child);
        args.push({ value: staticValue(child), text: clip(child.text) });
      } else if (field === "redirect" || child.type.endsWith("_redirect")) {
        this.redirect(child);
      } else if (!child.isNamed && SEPARATORS.has(child.type)) {
      } else {
        this.note(undecidable(`proctor does not analyse ${clip(child.text)} in a command`));
      }
    }
    for (const p of prefixes) {
      if (!inertPrefix(p, name)) this.note(undecidable(`${clip(p.text)} before a command changes its environment (PAGER, GIT_*, LD_PRELOAD… can make it run anything)`));
    }
    if (!nameNode) return;
    if (name === undefined) {
      this.note(undecidable(`the command name ${clip(nameNode.text)} is computed at run time`));
      return;
    }
    this.commands.push(name);
    this.note(judgeCommand(name, args, this.scope));
  }
}

/** Pagers that only pass text through: what `PAGER=cat` and `GIT_PAGER=cat` may name. */
const PASS_THROUGH_PAGERS = new Set(["", "cat"]);

/**
 * An assignment before a command that leaves what runs unchanged: an inert variable (a locale, TZ,
 * colours, `isInertVariable`), `PAGER`/`GIT_PAGER` set to `cat` or nothing, and `IFS` for `read`
 * (a builtin that keeps it only while it runs, and uses it only to split the line).
 */
function inertPrefix(node: ShellNode, command: string | undefined): boolean {
  const [name, op, value] = node.children;
  if (name?.type !== "variable_name" || op?.type !== "=") return false;
  const text = value === undefined ? "" : staticValue(value);
  if (text === undefined) return false;
  if (isInertVariable(name.text, text)) return true;
  if ((name.text === "PAGER" || name.text === "GIT_PAGER") && PASS_THROUGH_PAGERS.has(text)) return true;
  return name.text === "IFS" && command === "read";
}

/**
 * A simple command ends at an unescaped newline. When the parser continues one across a line
 * break (tree-sitter-bash does after `|&`), its reading differs from the shell's.
 */
function spansLines(node: ShellNode): boolean {
  const text = node.text;
  if (!text.includes("\n")) return false;
  const base = node.startIndex;
  for (let i = 1; i < node.children.length; i++) {
    const gap = text.slice(at(node.children, i - 1).endIndex - base, at(node.children, i).startIndex - base);
    if (/(^|[^\\])\n/.test(gap)) return true;
  }
  return false;
}

/**
 * An unquoted word never holds an unescaped blank, newline or operator character in Bash; when
 * the parser produces one (tree-sitter-bash joins `ls\n\\rm x` into `ls "\n\\rm" x`), its
 * reading differs from the shell's, so nothing built on it can be trusted.
 */
function hasBareMetacharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "\\") i++;
    else if (" \t\n;&|<>()".includes(text.charAt(i))) return true;
  }
  return false;
}

/**
 * Classify a Bash command by its effect, with the reason. `read-only` only when provable;
 * a command that does not parse is `undecidable`.
 *
 * Without a `context` the verdict is a pure function of the text, and assumes a repository and
 * PATH you trust. With `{ cwd, env }` it also holds where the command will run: a git command
 * whose repository configures a program for it (`core.fsmonitor`, `diff.external`, textconv,
 * filters, hooks…), or a bare command name that PATH could resolve inside the working
 * directory, is `undecidable` (docs/safety.md, "Untrusted repositories").
 */
export function explainBash(command: string, context?: BashContext): BashVerdict {
  return precheck(command, context) ?? fastPathVerdict(command, context) ?? fullPath(command, context);
}

/**
 * `explainBash` without the fast path: the parse, the second reading and the walk for every
 * command. Exported for the proof that the fast path agrees with it, and for benchmarks.
 */
export function explainBashFullPath(command: string, context?: BashContext): BashVerdict {
  return precheck(command, context) ?? fullPath(command, context);
}

/** What is decided before reading the command: its type, size, characters, emptiness, and the context's shape. */
function precheck(command: string, context: BashContext | undefined): BashVerdict | undefined {
  if (typeof command !== "string") return undecidable("the command is not a string");
  if (command.length > MAX_COMMAND_LENGTH) return undecidable(`the command is longer than ${MAX_COMMAND_LENGTH / 1024} KiB`);
  const confusable = CONFUSABLE.exec(command);
  if (confusable) {
    const code = confusable[0].charCodeAt(0).toString(16).padStart(4, "0");
    return undecidable(`the command holds the character U+${code.toUpperCase()}, which Bash keeps inside a word where a parser may see a blank or a line end`);
  }
  if (/^[ \t\n]*$/.test(command)) return readOnly("the command is empty");
  if (context !== undefined && (typeof context !== "object" || context === null || typeof context.cwd !== "string" || typeof context.env !== "object" || context.env === null)) {
    return undecidable("the context is not { cwd: string, env: object }");
  }
  return undefined;
}

/** The parse, Bash's own reading, the walk, and the agreement of the two readings. */
function fullPath(command: string, context: BashContext | undefined): BashVerdict {
  // Bash's own reading first: it is linear, and it refuses deep nesting before the parser runs.
  const rescan = rescanShell(command);
  if (!rescan.ok) return undecidable(`proctor cannot read this exactly as Bash would: ${rescan.reason}`);
  const assigning = VARIABLE_REDIRECTION.exec(command);
  if (assigning) return undecidable(`\`${assigning[1]}\` before a redirection assigns a file descriptor number to a variable (\`{PATH}>…\` sets PATH), and evaluates an array subscript, which can run commands`);
  const tree = parseShell(command);
  const { root, hasError, depth } = tree;
  if (hasError) return undecidable("the command does not parse as Bash");
  if (depth > MAX_TREE_DEPTH) return undecidable(`the command nests deeper than ${MAX_TREE_DEPTH} levels`);
  const misread = tree.ofType("word").find((w) => hasBareMetacharacter(w.text));
  if (misread) return undecidable(`the parser read ${clip(misread.text)} as one word, which Bash would split; refusing to guess`);
  const walk = new Walk(context ? openScope(context) : undefined);
  walk.children(root);
  if (walk.verdict.effect !== "read-only") return walk.verdict;
  const disagreement = checkAgreement(command, tree, rescan.scan, walk.accounted);
  if (disagreement) return undecidable(disagreement);
  const names = [...new Set(walk.commands)];
  return readOnly(names.length ? `only read-only commands: ${names.join(", ")}` : "no commands");
}

/** Classify a Bash command: `read-only` (provably), `side-effecting`, or `undecidable`; `context` as for `explainBash`. */
export function classifyBash(command: string, context?: BashContext): BashEffect {
  return explainBash(command, context).effect;
}

/** True only when the command provably only observes — the test the purity gate uses; `context` as for `explainBash`. */
export function isReadOnlyBash(command: string, context?: BashContext): boolean {
  return explainBash(command, context).effect === "read-only";
}
