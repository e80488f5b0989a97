/**
 * The shell parser: tree-sitter-bash compiled to WebAssembly, run by web-tree-sitter.
 *
 * Loaded on first need by `loadShellParser()`, never at import: the package has no top-level
 * await (a CommonJS project loading a `.ts` file through tsx cannot evaluate one), and importing
 * proctor must not pay for WebAssembly it may never use. Once loaded, every parse is synchronous,
 * so the purity gate decides a call in one synchronous step. Async entry points (`measure`, the
 * CLI, the vitest and node:test plugins) load it before they evaluate; synchronous callers that
 * run first get a `SHELL_PARSER_NOT_LOADED` error that says to `await loadShellParser()`.
 *
 * Each parse is copied into plain JS nodes in one cursor walk and the WebAssembly tree freed at
 * once: reading a tree-sitter node costs a trip across the WebAssembly boundary per property,
 * which made the classifier's walk several times slower than the parse itself.
 */
import { createRequire } from "node:module";
import type { Parser as TreeSitterParser } from "web-tree-sitter";
import { InvalidInputError } from "../../errors/proctor-error.js";
import { at } from "../../util/narrow.js";

/**
 * The loaded parser lives on `globalThis` under a registered symbol, not in module state: a
 * CommonJS project that loads a `.ts` eval through tsx gets a second copy of proctor's modules,
 * and the copy whose checks classify must see the parser the other copy's `measure` loaded.
 */
const SLOT = Symbol.for("proctor.shellParser");
interface ParserSlot {
  parser?: TreeSitterParser;
  loading?: Promise<void> | undefined;
}
const slot: ParserSlot = ((globalThis as Record<symbol, unknown>)[SLOT] ??= {}) as ParserSlot;

/**
 * Load the shell parser once per process (about 30 ms); later calls return the same promise.
 * Call it before classifying shell commands synchronously (`classifyBash`, `purity` checks) from
 * code that proctor does not already load it for.
 */
export function loadShellParser(): Promise<void> {
  slot.loading ??= (async () => {
    const { Language, Parser } = await import("web-tree-sitter");
    await Parser.init();
    const require = createRequire(import.meta.url);
    const language = await Language.load(require.resolve("tree-sitter-bash/tree-sitter-bash.wasm"));
    const p = new Parser();
    p.setLanguage(language);
    slot.parser = p;
  })();
  slot.loading.catch(() => {
    slot.loading = undefined; // a failed load may be retried
  });
  return slot.loading;
}

/** True once `loadShellParser()` has finished. */
export function shellParserLoaded(): boolean {
  return slot.parser !== undefined;
}

function loadedParser(): TreeSitterParser {
  if (slot.parser) return slot.parser;
  throw new InvalidInputError(
    "SHELL_PARSER_NOT_LOADED",
    "classifying a shell command needs the shell parser, which is not loaded yet: `await loadShellParser()` (from proctor) once before evaluating synchronously",
  );
}

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
    // Iterative: a hostile command can nest thousands of levels deep.
    const out: ShellNode[] = [];
    const stack: ShellNode[] = [...this.children].reverse();
    while (stack.length) {
      const n = stack.pop()!;
      if (types.has(n.type)) out.push(n);
      stack.push(...[...n.children].reverse());
    }
    return out;
  }
}

/** The only nodes whose children's field names anything reads (each read is a WebAssembly call). */
const FIELDED: ReadonlySet<string> = new Set(["command", "redirected_statement", "file_redirect"]);

/** A parsed command: its root, and whether the parser had to recover from errors. */
export interface ShellTree {
  readonly root: ShellNode;
  readonly hasError: boolean;
  /** How deep the tree nests (the root is depth 1); walkers that recurse check it first. */
  readonly depth: number;
}

/** Parse a command into plain nodes; the WebAssembly tree is freed before this returns. */
export function parseShell(command: string): ShellTree {
  const tree = loadedParser().parse(command);
  if (!tree) throw new InvalidInputError("INVALID_INPUT", "the shell parser returned no tree for a command", { input: command, hint: "report it as a bug in proctor, with the command" });
  const cursor = tree.walk();
  try {
    const root = new ShellNode(command, cursor.nodeType, cursor.nodeIsNamed, null, cursor.startIndex, cursor.endIndex);
    const stack = [root];
    // Depth as walkers recurse: a list inside a list (`a && b && c` nests to the left) costs
    // no level, because the classifier walks such chains in a loop.
    const levels = [1];
    let depth = 1;
    if (cursor.gotoFirstChild()) {
      for (;;) {
        const parent = at(stack, stack.length - 1); // the root is never popped
        const field = FIELDED.has(parent.type) ? cursor.currentFieldName : null;
        const node = new ShellNode(command, cursor.nodeType, cursor.nodeIsNamed, field, cursor.startIndex, cursor.endIndex);
        parent.children.push(node);
        const level = at(levels, levels.length - 1) + (node.type === "list" && parent.type === "list" ? 0 : 1);
        if (level > depth) depth = level;
        if (cursor.gotoFirstChild()) {
          stack.push(node);
          levels.push(level);
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent() || stack.length === 1) return { root, hasError: tree.rootNode.hasError, depth };
          stack.pop();
          levels.pop();
        }
      }
    }
    return { root, hasError: tree.rootNode.hasError, depth };
  } finally {
    cursor.delete();
    tree.delete();
  }
}
