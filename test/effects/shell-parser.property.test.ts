/**
 * parseShell copies tree-sitter's tree into plain nodes with as few WebAssembly calls as it can:
 * types by id, named-ness per type, no first-child call for tokens, fields only under three node
 * types, and the span of a node with children taken from its children. The copy must be exactly
 * the tree tree-sitter holds; the oracle here reads every property of every node from the API
 * itself, with its own parser, over the corpus and over generated shell text (broken text too).
 */
import { createRequire } from "node:module";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { Language, Parser } from "web-tree-sitter";
import { parseShell, type ShellNode } from "../../src/effects/bash/parser.js";
import { READ_ONLY, SIDE_EFFECTING, UNDECIDABLE } from "./classify-bash.corpus.js";

interface Plain {
  type: string;
  named: boolean;
  field: string | null;
  start: number;
  end: number;
  children: Plain[];
}

/** The node types whose children's fields the classifier reads; elsewhere parseShell leaves fields out. */
const FIELDED = new Set(["command", "redirected_statement", "file_redirect"]);

let parser: Parser;
beforeAll(async () => {
  await Parser.init();
  const require = createRequire(import.meta.url);
  parser = new Parser();
  parser.setLanguage(await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm")));
});

/** Every property read from the API, recursively; the tree's depth counted as parseShell documents it. */
function reference(command: string): { root: Plain; hasError: boolean; depth: number } {
  const tree = parser.parse(command)!;
  let depth = 1;
  const copy = (node: NonNullable<typeof tree>["rootNode"], parentType: string | null, field: string | null, level: number): Plain => {
    if (level > depth) depth = level;
    const children: Plain[] = [];
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i)!;
      const f = node.fieldNameForChild(i);
      children.push(copy(child, node.type, f, level + (child.type === "list" && node.type === "list" ? 0 : 1)));
    }
    return { type: node.type, named: node.isNamed, field: parentType !== null && FIELDED.has(parentType) ? field : null, start: node.startIndex, end: node.endIndex, children };
  };
  const root = copy(tree.rootNode, null, null, 1);
  const hasError = tree.rootNode.hasError;
  tree.delete();
  return { root, hasError, depth };
}

const plain = (n: ShellNode): Plain => ({ type: n.type, named: n.isNamed, field: n.field, start: n.startIndex, end: n.endIndex, children: n.children.map(plain) });

function preorder(n: Plain, out: Plain[] = []): Plain[] {
  for (const c of n.children) {
    out.push(c);
    preorder(c, out);
  }
  return out;
}

function same(command: string): void {
  const got = parseShell(command);
  const want = reference(command);
  expect(plain(got.root), command).toEqual(want.root);
  expect(got.hasError, command).toBe(want.hasError);
  expect(got.depth, command).toBe(want.depth);
  const all = preorder(want.root);
  for (const type of ["word", "raw_string", "ansi_c_string", "string", "comment", "heredoc_redirect"] as const) {
    expect(got.ofType(type).map((n) => [n.startIndex, n.endIndex]), `${command}: ${type}`).toEqual(all.filter((n) => n.type === type).map((n) => [n.start, n.end]));
  }
}

const SHELLISH = [..."ab x1-_./=:,+@%~*?[]{}()<>|&;!#$`'\"\\ \t\n"].concat(["$(", "${", "$((", "<<", "<<-", "EOF", "\nEOF\n", "2>&1", ">&", "<(", "[[", "]]", "if ", "then ", "fi", "for ", "in ", "do ", "done", "case ", "esac", "function ", "é", "\r"]);

describe("parseShell copies tree-sitter's tree exactly", () => {
  it("over the corpus", () => {
    // The oracle recurses; the classifier refuses trees deeper than 200 levels before walking them.
    const commands = [...READ_ONLY, ...SIDE_EFFECTING, ...UNDECIDABLE].filter((c) => c.length <= 4000 && parseShell(c).depth <= 200);
    expect(commands.length).toBeGreaterThan(500);
    for (const command of commands) same(command);
  });

  it("over generated shell text, parseable or not", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...SHELLISH), { maxLength: 40 }), (parts) => same(parts.join(""))),
      { numRuns: 3000 },
    );
  });
});
