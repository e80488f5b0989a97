/**
 * The parser's tree against Bash's own reading of the same text (`rescan.ts`). A read-only verdict
 * is built on the tree, so it stands only when the two agree on everything that decides what
 * runs: every substitution Bash would perform is one the walk judged, and the text the tree
 * treats as inert — strings, comments, here-document bodies — is exactly the text Bash does.
 * tree-sitter-bash reads here-documents with indented lines, expansion operators over
 * substitutions, quotes inside `${…}` and continuations inside double quotes differently from
 * Bash; each of those shows up here as a disagreement.
 */
import type { CollectedType, ShellTree } from "./parser.js";
import type { Rescan } from "./rescan.js";

type Span = readonly [number, number];

/** One number per span: offsets are below 65,537 (commands are capped at 64 KiB). */
const key = (s: Span) => s[0] * 65_537 + s[1];

/** A span one reading has and the other lacks, or `undefined` when they hold the same spans. */
function sameSpans(tree: readonly Span[], bash: readonly Span[]): Span | undefined {
  if (tree.length === 0 && bash.length === 0) return undefined;
  const fromBash = new Set(bash.map(key));
  const fromTree = new Set(tree.map(key));
  return tree.find((s) => !fromBash.has(key(s))) ?? bash.find((s) => !fromTree.has(key(s)));
}

const show = (text: string, s: Span) => {
  const part = text.slice(s[0], s[1]).replace(/\s+/g, " ");
  return `\`${part.length > 40 ? `${part.slice(0, 39)}…` : part}\``;
};

/**
 * Why the tree and Bash's reading disagree, or `undefined` when they agree. `accounted` holds the
 * start offsets of the substitutions and expansions the walk judged.
 */
export function checkAgreement(text: string, tree: ShellTree, bash: Rescan, accounted: ReadonlySet<number>): string | undefined {
  const unjudged = bash.substitutions.find((at) => !accounted.has(at));
  if (unjudged !== undefined) {
    return `Bash expands ${show(text, [unjudged, Math.min(text.length, unjudged + 30)])} at offset ${unjudged}, which the parser did not read as a substitution it could judge`;
  }
  const spans = (...types: CollectedType[]): Span[] => types.flatMap((t) => tree.ofType(t).map((n): Span => [n.startIndex, n.endIndex]));
  const single = spans("raw_string", "ansi_c_string");
  const double = spans("string");
  const comments = spans("comment");
  const heredocs = tree.ofType("heredoc_redirect").map((n) => {
    const end = n.children.find((c) => c.type === "heredoc_end");
    return { operator: n.startIndex, end: end ? end.startIndex : -1 };
  });
  const q = sameSpans(single, bash.quoted);
  if (q) return `the parser and Bash disagree on the single-quoted text ${show(text, q)}`;
  const d = sameSpans(double, bash.doubleQuoted);
  if (d) return `the parser and Bash disagree on the double-quoted text ${show(text, d)}`;
  const c = sameSpans(comments, bash.comments);
  if (c) return `the parser and Bash disagree on the comment ${show(text, c)}`;
  const treeDocs = heredocs.map((h) => `${h.operator}:${h.end}`).sort();
  const bashDocs = bash.heredocs.map((h) => `${h.operator}:${h.end}`).sort();
  if (treeDocs.join() !== bashDocs.join()) return "the parser and Bash disagree on where a here-document ends";
  return undefined;
}
