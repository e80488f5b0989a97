/**
 * classifyBash: is a shell command provably read-only? Parsed with a real shell grammar
 * (tree-sitter-bash), then walked with an allow-list: every construct the walker does not
 * understand makes the command `undecidable`, so an unfamiliar construct can never be read-only.
 */
import { parseShell, type ShellNode } from "./parser.js";
import { classifyCommand } from "./commands.js";
import { clip, scanWord, staticValue } from "./words.js";
import { readOnly, sideEffecting, undecidable, worse, type Arg, type BashEffect, type BashVerdict } from "./verdict.js";
import { classifyInContext, openScope, type BashContext, type ContextScope } from "./context/in-context.js";

export type { BashEffect, BashVerdict } from "./verdict.js";
export type { BashContext } from "./context/in-context.js";

/** Output targets that write nothing anyone can read back. */
const HARMLESS_TARGETS = new Set(["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/fd/1", "/dev/fd/2"]);
const NETWORK_PATH = /^\/dev\/(?:tcp|udp)\//;
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", ">&", "<>"]);
const READ_OPS = new Set(["<", "<&"]);
const CONTROL_FLOW: Record<string, string> = {
  if_statement: "if",
  while_statement: "while/until",
  for_statement: "for",
  c_style_for_statement: "for ((…))",
  case_statement: "case",
};
const WORD: ReadonlySet<string> = new Set(["word"]);
/** Punctuation between statements; `&` (background) is not among them. */
const SEPARATORS = new Set([";", ";;", "&&", "||", "|", "|&", "(", ")", "{", "}", "!", "\n", "$(", "`", ")"]);

class Walk {
  verdict: BashVerdict = readOnly("");
  readonly commands: string[] = [];

  /** The surroundings the command runs in, when the caller gave them (see `BashContext`). */
  constructor(readonly scope?: ContextScope) {}

  note(v: BashVerdict): void {
    this.verdict = worse(this.verdict, v);
  }

  statement(node: ShellNode): void {
    switch (node.type) {
      case "program":
      case "list":
      case "pipeline":
      case "subshell":
      case "negated_command":
      case "command_substitution":
        return this.children(node);
      case "compound_statement":
        if (node.children[0]?.type === "((") return this.note(undecidable(`the arithmetic command ${clip(node.text)} may assign variables`));
        return this.children(node);
      case "redirected_statement":
        for (const child of node.namedChildren) {
          if (child.type.endsWith("_redirect")) this.redirect(child);
          else this.statement(child);
        }
        return;
      case "command":
        return this.command(node);
      case "test_command":
        return this.words(node);
      case "comment":
        return;
      case "variable_assignment":
      case "variable_assignments":
        return this.note(undecidable(`${clip(node.text)} assigns a shell variable, which can change what later commands run`));
      case "declaration_command":
      case "unset_command":
        return this.note(undecidable(`${clip(node.text)} changes shell variables`));
      case "function_definition":
        return this.note(undecidable(`${clip(node.text)} defines a function, which can shadow any command`));
      default:
        if (CONTROL_FLOW[node.type]) return this.note(undecidable(`control flow (\`${CONTROL_FLOW[node.type]}\`) is not analysed`));
        if (!node.isNamed) {
          if (node.type === "&") return this.note(undecidable("`&` runs a command in the background, outliving the call"));
          if (SEPARATORS.has(node.type)) return;
        }
        return this.note(undecidable(`proctor does not analyse the shell construct \`${node.type}\` (${clip(node.text)})`));
    }
  }

  children(node: ShellNode): void {
    for (const child of node.children) this.statement(child);
  }

  /** Classify the commands hidden in words (substitutions) and note what they do. */
  words(node: ShellNode): void {
    const found: BashVerdict[] = [];
    scanWord(node, (body) => this.nested(body), found);
    for (const v of found) this.note(v);
  }

  nested(body: ShellNode): BashVerdict {
    const inner = new Walk(this.scope);
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
    if (node.type !== "file_redirect") return this.note(undecidable(`proctor does not analyse the redirection ${clip(node.text)}`));
    const op = node.children.find((c) => !c.isNamed && (WRITE_OPS.has(c.type) || READ_OPS.has(c.type) || c.type === "<&-" || c.type === ">&-"))?.type;
    const destination = node.childForField("destination");
    if (op === undefined) {
      if (/^\d*[<>]&-$/.test(node.text.replace(/\s/g, ""))) return; // closing a descriptor
      return this.note(undecidable(`proctor does not analyse the redirection ${clip(node.text)}`));
    }
    if (op === "<&-" || op === ">&-") return;
    const target = destination ? staticValue(destination) : undefined;
    if (READ_OPS.has(op)) {
      if (op === "<&" && target !== undefined && /^(\d+|-)$/.test(target)) return;
      // Bash itself opens /dev/tcp and /dev/udp paths as network connections.
      if (target === undefined) return this.note(undecidable(`the input redirection ${clip(node.text)} reads from a path named at run time (it could be /dev/tcp/…)`));
      if (NETWORK_PATH.test(target)) return this.note(sideEffecting(`the redirection ${clip(node.text)} opens a network connection`));
      return;
    }
    // `>&2` / `2>&1` duplicate a descriptor; `>&-` closes one. `>& file` writes the file.
    if ((op === ">&" || op === "<&") && target !== undefined && /^(\d+|-)$/.test(target)) return;
    if (target !== undefined && HARMLESS_TARGETS.has(target)) return;
    if (op === "<>") return this.note(sideEffecting(`\`<>\` opens ${clip(node.text)} for writing`));
    this.note(sideEffecting(`the redirection ${clip(node.text)} writes ${target === undefined ? "to a file named at run time" : `the file ${target}`}`));
  }

  command(node: ShellNode): void {
    if (spansLines(node)) {
      return this.note(undecidable(`the parser read ${clip(node.text)} as one command across a line break, which Bash would split; refusing to guess`));
    }
    const args: Arg[] = [];
    let name: string | undefined;
    let nameNode: ShellNode | undefined;
    for (const child of node.children) {
      const field = child.field;
      if (child.type === "variable_assignment") {
        this.words(child);
        this.note(undecidable(`${clip(child.text)} before a command changes its environment (PAGER, GIT_*, LD_PRELOAD… can make it run anything)`));
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
        continue;
      } else {
        this.note(undecidable(`proctor does not analyse ${clip(child.text)} in a command`));
      }
    }
    if (!nameNode) return;
    if (name === undefined) return this.note(undecidable(`the command name ${clip(nameNode.text)} is computed at run time`));
    this.commands.push(name);
    const verdict = classifyCommand(name, args);
    this.note(verdict);
    // In context: a command the text finds read-only must stay so in its repository and PATH.
    if (this.scope && verdict.effect === "read-only") {
      const here = classifyInContext(name, args, this.scope);
      if (here) this.note(worse(verdict, here));
    }
  }
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
    const gap = text.slice(node.children[i - 1].endIndex - base, node.children[i].startIndex - base);
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
    else if (" \t\n;&|<>()".includes(text[i])) return true;
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
  if (typeof command !== "string") return undecidable("the command is not a string");
  if (command.trim() === "") return readOnly("the command is empty");
  if (context !== undefined && (typeof context !== "object" || context === null || typeof context.cwd !== "string" || typeof context.env !== "object" || context.env === null)) {
    return undecidable("the context is not { cwd: string, env: object }");
  }
  const { root, hasError } = parseShell(command);
  if (hasError) return undecidable("the command does not parse as Bash");
  const misread = root.descendantsOfType(WORD).find((w) => hasBareMetacharacter(w.text));
  if (misread) return undecidable(`the parser read ${clip(misread.text)} as one word, which Bash would split; refusing to guess`);
  const walk = new Walk(context ? openScope(context) : undefined);
  walk.children(root);
  if (walk.verdict.effect !== "read-only") return walk.verdict;
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
