/** Words of a shell command: their fixed value when there is one, and the commands hidden inside them. */
import type { ShellNode } from "./parser.js";
import { undecidable, type BashVerdict } from "./verdict.js";

const GLOB = /[*?[\]]/;

/**
 * Does an unquoted word piece have braces Bash leaves alone? Brace expansion needs a `{…}` holding
 * a top-level comma or a `..` sequence; `@{u}`, `stash@{0}`, `HEAD@{1}` and `{}` hold neither and
 * stay literal. Refused (treated as an expansion): any unbalanced brace (a quoted part next to it
 * could complete one), nesting, a backslash, a comma or `..` between braces, and `${`.
 */
function literalBraces(text: string): boolean {
  if (!/[{}]/.test(text)) return true;
  if (text.includes("\\") || text.includes("${")) return false;
  let open = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === "{") {
      if (open !== -1) return false;
      open = i;
    } else if (c === "}") {
      if (open === -1) return false;
      const inside = text.slice(open + 1, i);
      if (inside.includes(",") || inside.includes("..")) return false;
      open = -1;
    }
  }
  return open === -1;
}

/** Unquoted word text: backslash escapes removed; `undefined` when it holds glob characters or a brace expansion. */
function unquotedValue(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === "\\") {
      if (i + 1 < text.length && text[i + 1] !== "\n") out += text[i + 1];
      i++;
      continue;
    }
    if (GLOB.test(c)) return undefined; // expands to file names, which may start with "-"
    out += c;
  }
  return out;
}

/** Double-quoted text: only `\"`, `\\`, `` \` ``, `\$` and an escaped newline are escapes. */
function doubleQuotedValue(text: string): string {
  return text.replace(/\\([\\"`$\n])/g, (_, c: string) => (c === "\n" ? "" : c));
}

/**
 * The fixed value of a word after quote removal, or `undefined` when expansion decides it
 * (variables, command substitution, globs, brace expansion, arithmetic).
 */
export function staticValue(node: ShellNode): string | undefined {
  switch (node.type) {
    case "word":
      return literalBraces(node.text) ? unquotedValue(node.text) : undefined;
    case "command_name":
      return concat(node.namedChildren);
    case "number":
      return node.text;
    case "raw_string":
      return node.text.slice(1, -1);
    case "ansi_c_string":
      return node.text.includes("\\") ? undefined : node.text.slice(2, -1);
    case "string": {
      let out = "";
      for (const child of node.children) {
        if (child.type === '"') continue;
        if (child.type !== "string_content") return undefined;
        out += doubleQuotedValue(child.text);
      }
      return out;
    }
    case "concatenation": {
      // tree-sitter-bash splits `@{u}..` into words `@`, `{`, `u`, `}`, `..`: braces are judged on the
      // whole unquoted text, and next to a quoted part not at all.
      const braces = node.children.some((c) => c.type === "word" && /[{}]/.test(c.text));
      if (braces && !(node.children.every((c) => c.type === "word" || c.type === "number") && literalBraces(node.text))) return undefined;
      return concat(node.children, true);
    }
    default:
      return undefined;
  }
}

function concat(parts: readonly ShellNode[], bracesJudged = false): string | undefined {
  let out = "";
  for (const part of parts) {
    const v = bracesJudged && part.type === "word" ? unquotedValue(part.text) : staticValue(part);
    if (v === undefined) return undefined;
    out += v;
  }
  return out;
}

/** Parameter names Bash expands without evaluating anything: a name, a positional, a special. */
const PARAMETER = "(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$_-])";
/**
 * The `${…}` forms whose expansion only reads: `${x}`, `${#x}`, `${x[0]}`/`${x[@]}`, the
 * default/alternative/error and pattern operators, case modification, and substrings with literal
 * numbers. Not modelled, so never read-only: `${!x}` (indirection evaluates the value as a name,
 * subscript included), `${x@P}` and the other transformations, `${x=…}`/`${x:=…}` (assign),
 * subscripts or offsets that are not literal numbers (arithmetic on a variable evaluates its value,
 * which can hold `a[$(…)]`).
 */
const MODELLED_EXPANSION = new RegExp(
  // `${!}` alone is the last background PID; `${!…}` with anything after is indirection.
  String.raw`^\$\{!\}$|^\$\{#?${PARAMETER}(?:\[(?:[0-9]+|@|\*)\])?(?:\}$|(?::?[-+?]|##?|%%?|//?|/#|/%|\^\^?|,,?)|:\s*-?[0-9]+(?:\s*:\s*-?[0-9]+)?\s*\}$)`,
);
/** Arithmetic with nothing but literal numbers and operators: no name whose value could be evaluated, no assignment. */
const PURE_ARITHMETIC = /^\$\(\([0-9\s+\-*/%<>!&|^~?:,()]*\)\)$/;
const PURE_ARITHMETIC_ASSIGNS = /(^|[^<>!=])=(?!=)|\+\+|--/;

/** Why a `${…}` form is not read-only, for the verdict's reason. */
function unmodelledExpansion(text: string): string {
  if (text.startsWith("${!")) return "indirection uses a variable's value as a name, and a name's subscript is evaluated, which can run commands";
  if (/^\$\{#?[^}]*?@/.test(text) && !/^\$\{#?@/.test(text)) return "`@` transformations are not modelled (`@P` expands a prompt, which runs `$(…)`)";
  if (/^\$\{#?[A-Za-z0-9_@*#?$!-]+(?:\[[^\]]*\])?:?=/.test(text)) return "it assigns a shell variable while expanding";
  if (/^\$\{#?[A-Za-z0-9_@*#?$!-]+\[/.test(text) || /^\$\{#?[A-Za-z0-9_@*#?$!-]+:[^-+?=]/.test(text)) {
    return "a subscript or offset that is not a literal number is arithmetic, which evaluates variables' values and can run commands";
  }
  return "proctor does not model this form of parameter expansion";
}

/**
 * Every verdict hidden inside a word: command substitutions are classified with `classifyBody`
 * (`echo $(rm x)` runs `rm`), process substitution and unmodelled expansions are undecidable.
 * The start offset of every substitution or expansion judged here goes into `accounted`, so the
 * raw-text rescan can tell one the parser did not see.
 */
export function scanWord(node: ShellNode, classifyBody: (body: ShellNode) => BashVerdict, out: BashVerdict[], accounted: Set<number>): void {
  switch (node.type) {
    case "command_substitution":
      accounted.add(node.startIndex);
      out.push(classifyBody(node));
      return;
    case "process_substitution":
      out.push(undecidable(`process substitution ${clip(node.text)} runs a command whose output is used as a file`));
      return;
    case "expansion": {
      const text = node.text;
      if (!MODELLED_EXPANSION.test(text)) {
        out.push(undecidable(`${clip(text)}: ${unmodelledExpansion(text)}`));
        return;
      }
      accounted.add(node.startIndex);
      break;
    }
    case "arithmetic_expansion": {
      const text = node.text;
      if (!PURE_ARITHMETIC.test(text) || PURE_ARITHMETIC_ASSIGNS.test(text.slice(3, -2))) {
        out.push(undecidable(`${clip(text)}: arithmetic on names evaluates their values (which can run commands) or assigns them`));
        return;
      }
      accounted.add(node.startIndex);
      return;
    }
    default:
      break;
  }
  for (const child of node.children) if (child.isNamed) scanWord(child, classifyBody, out, accounted);
}

/** A command's text cut for a message. */
export function clip(text: string, max = 60): string {
  // Most words are short and printable ASCII: nothing to flatten or cut.
  if (text.length <= max && text.length > 0 && isPrintableAscii(text)) return `\`${text}\``;
  // Cut before flattening: a hostile 64 KiB word must not cost a full pass per message.
  const flat = text.slice(0, max * 4).replace(/\s+/g, " ").trim();
  return `\`${flat.length > max ? `${flat.slice(0, max - 1)}…` : flat}\``;
}

/** Every character between `!` and `~`: no whitespace for `clip` to flatten. */
function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c <= 32 || c >= 127) return false;
  }
  return true;
}
