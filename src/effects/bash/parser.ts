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
import { processSlot } from "../../util/process-slot.js";
import { createRequire } from "node:module";
import type { Parser as TreeSitterParser } from "web-tree-sitter";
import { InvalidInputError } from "../../errors/proctor-error.js";

/**
 * The loaded parser lives on `globalThis` under a registered symbol, not in module state: a
 * CommonJS project that loads a `.ts` eval through tsx gets a second copy of proctor's modules,
 * and the copy whose checks classify must see the parser the other copy's `measure` loaded.
 */
const slot = processSlot<{ parser?: TreeSitterParser; loading?: Promise<void> | undefined }>("proctor.shellParser");

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
    for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
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
  /** Every node below the root of one of the types checks look for, in document order: collected while copying, so the checks need no walk of their own. */
  ofType(type: CollectedType): readonly ShellNode[];
}

/** The node types `ofType` answers for: words (misread check), and strings, comments and here-documents (agreement). */
export type CollectedType = "word" | "raw_string" | "ansi_c_string" | "string" | "comment" | "heredoc_redirect";

/** Per language, whether each node type id is named: read once per id, not once per node. */
const namedByLanguage = new WeakMap<object, boolean[]>();

/**
 * Parse a command into plain nodes; the WebAssembly tree is freed before this returns.
 *
 * Each WebAssembly call costs far more than the JS around it, so the walk makes as few as it
 * can: a node's type is read by id and whether it is named looked up once per type; anonymous
 * nodes (tokens, which have no children) are never asked for a first child; field names are
 * read only under the node types whose fields the classifier reads; and the nodes of the types
 * checks look for are collected on the way (`ofType`). (A node's span is not its visible
 * children's: a here-document body holds text in hidden tokens, so every span is read.)
 */
export function parseShell(command: string): ShellTree {
  const tree = loadedParser().parse(command);
  if (!tree) throw new InvalidInputError("INVALID_INPUT", "the shell parser returned no tree for a command", { input: command, hint: "report it as a bug in proctor, with the command" });
  const language = tree.language;
  const types = language.types;
  let named = namedByLanguage.get(language);
  if (named === undefined) {
    named = [];
    namedByLanguage.set(language, named);
  }
  const isNamed = (id: number): boolean => (named[id] ??= language.nodeTypeIsNamed(id));
  const cursor = tree.walk();
  try {
    const root = new ShellNode(command, cursor.nodeType, cursor.nodeIsNamed, null, cursor.startIndex, cursor.endIndex);
    const collected: ShellNode[] = [];
    const done = (): ShellTree => ({ root, hasError: tree.rootNode.hasError, depth, ofType: (t) => collected.filter((n) => n.type === t) });
    // The node whose children the cursor is on, and its ancestors below the root (`stack`).
    let parent = root;
    const stack: ShellNode[] = [];
    // Depth as walkers recurse: a list inside a list (`a && b && c` nests to the left) costs
    // no level, because the classifier walks such chains in a loop.
    let parentLevel = 1;
    const levels: number[] = [];
    let depth = 1;
    if (cursor.gotoFirstChild()) {
      for (;;) {
        const field = FIELDED.has(parent.type) ? cursor.currentFieldName : null;
        const id = cursor.nodeTypeId;
        const type = types[id] ?? "ERROR";
        const nodeIsNamed = isNamed(id);
        const node = new ShellNode(command, type, nodeIsNamed, field, cursor.startIndex, cursor.endIndex);
        parent.children.push(node);
        switch (type) {
          case "word":
          case "raw_string":
          case "ansi_c_string":
          case "string":
          case "comment":
          case "heredoc_redirect":
            collected.push(node);
            break;
          default:
            break;
        }
        const level = parentLevel + (type === "list" && parent.type === "list" ? 0 : 1);
        if (level > depth) depth = level;
        if (nodeIsNamed && cursor.gotoFirstChild()) {
          stack.push(parent);
          levels.push(parentLevel);
          parent = node;
          parentLevel = level;
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          if (!cursor.gotoParent()) return done();
          const up = stack.pop();
          const upLevel = levels.pop();
          if (up === undefined || upLevel === undefined) return done(); // back at the root
          parent = up;
          parentLevel = upLevel;
        }
      }
    }
    return done();
  } finally {
    cursor.delete();
    tree.delete();
  }
}
