/**
 * The shell parser: tree-sitter-bash compiled to WebAssembly, run by web-tree-sitter.
 *
 * Loaded once, with a top-level await, so every function above it can stay synchronous (the
 * purity gate decides a call in one synchronous step). Anything that must start fast — `proctor
 * gate` runs before every tool call — imports this module dynamically, and only when a shell
 * command actually needs classifying. See docs/safety.md for the measured start-up cost.
 *
 * Each parse is copied into plain JS nodes in one cursor walk and the WebAssembly tree freed at
 * once: reading a tree-sitter node costs a trip across the WebAssembly boundary per property,
 * which made the classifier's walk several times slower than the parse itself.
 */
import { createRequire } from "node:module";
import { Language, Parser } from "web-tree-sitter";

const require = createRequire(import.meta.url);

await Parser.init();
const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
const parser = new Parser();
parser.setLanguage(language);

/** One node of a parsed command, as plain data. */
export class ShellNode {
  readonly children: ShellNode[] = [];
  constructor(
    private readonly source: string,
    /** The grammar's node type (`command`, `word`, …) or the token itself for anonymous nodes (`&&`). */
    readonly type: string,
    readonly isNamed: boolean,
    /** The field this node fills in its parent (`name`, `argument`, `redirect`, …), if any. */
    readonly field: string | null,
    /** UTF-16 offsets into the command. */
    readonly startIndex: number,
    readonly endIndex: number,
  ) {}

  get text(): string {
    return this.source.slice(this.startIndex, this.endIndex);
  }

  get namedChildren(): ShellNode[] {
    return this.children.filter((c) => c.isNamed);
  }

  childForField(field: string): ShellNode | undefined {
    return this.children.find((c) => c.field === field);
  }

  /** Every descendant (not the node itself) whose type is one of `types`, in document order. */
  descendantsOfType(types: ReadonlySet<string>): ShellNode[] {
    const out: ShellNode[] = [];
    const visit = (n: ShellNode) => {
      for (const c of n.children) {
        if (types.has(c.type)) out.push(c);
        visit(c);
      }
    };
    visit(this);
    return out;
  }
}

/** The only nodes whose children's field names anything reads (each read is a WebAssembly call). */
const FIELDED: ReadonlySet<string> = new Set(["command", "redirected_statement", "file_redirect"]);

/** A parsed command: its root, and whether the parser had to recover from errors. */
export interface ShellTree {
  readonly root: ShellNode;
  readonly hasError: boolean;
}

/** Parse a command into plain nodes; the WebAssembly tree is freed before this returns. */
export function parseShell(command: string): ShellTree {
  const tree = parser.parse(command);
  if (!tree) throw new Error("tree-sitter returned no tree");
  const cursor = tree.walk();
  try {
    const root = new ShellNode(command, cursor.nodeType, cursor.nodeIsNamed, null, cursor.startIndex, cursor.endIndex);
    const stack = [root];
    if (cursor.gotoFirstChild()) {
      for (;;) {
        const field = FIELDED.has(stack[stack.length - 1].type) ? cursor.currentFieldName : null;
        const node = new ShellNode(command, cursor.nodeType, cursor.nodeIsNamed, field, cursor.startIndex, cursor.endIndex);
        stack[stack.length - 1].children.push(node);
        if (cursor.gotoFirstChild()) {
          stack.push(node);
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent() || stack.length === 1) return { root, hasError: tree.rootNode.hasError };
          stack.pop();
        }
      }
    }
    return { root, hasError: tree.rootNode.hasError };
  } finally {
    cursor.delete();
    tree.delete();
  }
}
