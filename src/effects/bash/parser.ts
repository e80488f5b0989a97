/**
 * The shell parser: tree-sitter-bash compiled to WebAssembly, run by web-tree-sitter.
 *
 * Loaded once, with a top-level await, so every function above it can stay synchronous (the
 * purity gate decides a call in one synchronous step). Anything that must start fast — `proctor
 * gate` runs before every tool call — imports this module dynamically, and only when a shell
 * command actually needs classifying. See docs/safety.md for the measured start-up cost.
 */
import { createRequire } from "node:module";
import { Language, Parser, type Node, type Tree } from "web-tree-sitter";

const require = createRequire(import.meta.url);

await Parser.init();
const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
const parser = new Parser();
parser.setLanguage(language);

export type { Node as ShellNode };

/**
 * Parse a command and hand its syntax tree to `visit`; the tree is freed afterwards (it lives in
 * WebAssembly memory, which the garbage collector does not see).
 */
export function withShellTree<T>(command: string, visit: (root: Node) => T): T {
  const tree: Tree | null = parser.parse(command);
  if (!tree) throw new Error("tree-sitter returned no tree");
  try {
    return visit(tree.rootNode);
  } finally {
    tree.delete();
  }
}
