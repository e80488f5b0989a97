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
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
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
    const language = await Language.load(grammarFile());
    const p = new Parser();
    p.setLanguage(language);
    slot.parser = p;
  })();
  slot.loading.catch(() => {
    slot.loading = undefined; // a failed load may be retried
  });
  return slot.loading;
}

/** Where the build puts the grammar, under `dist/` (scripts/copy-grammar.mjs). */
const GRAMMAR = join("grammars", "tree-sitter-bash.wasm");

/**
 * The bash grammar's WebAssembly: the copy shipped in the package's `dist/grammars/`, found from
 * whichever built file holds this code (a chunk, tsc's module, a single-file command) by looking
 * up the directory tree as far as the package's root. The package does not depend on
 * tree-sitter-bash, whose install builds a native addon proctor never loads; the source tree (run
 * by the tests before a build) loads the devDependency's copy.
 */
function grammarFile(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)), up = ""; dir !== up; up = dir, dir = dirname(dir)) {
    if (existsSync(join(dir, GRAMMAR))) return join(dir, GRAMMAR);
    if (existsSync(join(dir, "package.json"))) break; // the package's root: the grammar is not above it
  }
  try {
    return createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  } catch {
    throw new InvalidInputError("INVALID_INPUT", `the shell parser's grammar is missing: no ${GRAMMAR} above ${fileURLToPath(import.meta.url)}; reinstall proctor (or run \`npm run build\` in its source tree)`);
  }
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

/**
 * Shared by every node without children, so copying a token allocates no array. Not frozen: a
 * frozen array has another element kind, which would make every read of `children` polymorphic.
 */
const NO_CHILDREN: readonly ShellNode[] = [];

/** One node of a parsed command, as plain data. */
export class ShellNode {
  children: readonly ShellNode[] = NO_CHILDREN;
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
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i] as ShellNode);
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

/**
 * Named node types that are tokens of tree-sitter-bash's grammar (terminals, or aliases of
 * terminals or of hidden tokens), so never have a visible child: the copy does not ask for one.
 * test/effects/shell-parser.property.test.ts checks the copy against tree-sitter's own API.
 */
const TOKEN_TYPES: ReadonlySet<string> = new Set([
  "word", "raw_string", "ansi_c_string", "string_content", "comment", "variable_name", "test_operator",
  "file_descriptor", "heredoc_start", "heredoc_end", "heredoc_content", "regex", "extglob_pattern",
]);

/** What the copy knows per node type id, read once per language rather than once per node. */
interface TypeInfo {
  readonly types: readonly string[];
  /** Per id: 0 anonymous, 1 named with possible children, 2 named token. */
  readonly kind: number[];
}
const typeInfoByLanguage = new WeakMap<object, TypeInfo>();

function typeInfo(language: NonNullable<ReturnType<TreeSitterParser["parse"]>>["language"]): TypeInfo {
  let info = typeInfoByLanguage.get(language);
  if (info === undefined) {
    info = { types: language.types, kind: [] };
    typeInfoByLanguage.set(language, info);
  }
  return info;
}

const ANONYMOUS = 0;
const NAMED = 1;
const NAMED_TOKEN = 2;

/**
 * Parse a command into plain nodes; the WebAssembly tree is freed before this returns.
 *
 * Each WebAssembly call costs far more than the JS around it, so the walk makes as few as it
 * can: a node's type is read by id and what the id means looked up once per language; anonymous
 * nodes and named tokens (which have no children) are never asked for a first child; field
 * names are read only under the node types whose fields the classifier reads; and the nodes of
 * the types checks look for are collected on the way (`ofType`). (A node's span is not its
 * visible children's: a here-document body holds text in hidden tokens, so every span is read.)
 */
export function parseShell(command: string): ShellTree {
  const tree = loadedParser().parse(command);
  if (!tree) throw new InvalidInputError("INVALID_INPUT", "the shell parser returned no tree for a command", { input: command, hint: "report it as a bug in proctor, with the command" });
  const language = tree.language;
  const { types, kind } = typeInfo(language);
  const kindOf = (id: number): number => (kind[id] ??= !language.nodeTypeIsNamed(id) ? ANONYMOUS : TOKEN_TYPES.has(types[id] ?? "ERROR") ? NAMED_TOKEN : NAMED);
  const cursor = tree.walk();
  try {
    const rootId = cursor.nodeTypeId;
    const root = new ShellNode(command, types[rootId] ?? "ERROR", kindOf(rootId) !== ANONYMOUS, null, cursor.startIndex, cursor.endIndex);
    const collected: Partial<Record<CollectedType, ShellNode[]>> = {};
    const collect = (type: CollectedType, node: ShellNode): void => {
      const list = collected[type];
      if (list === undefined) collected[type] = [node];
      else list.push(node);
    };
    const none: readonly ShellNode[] = [];
    const done = (): ShellTree => ({ root, hasError: tree.rootNode.hasError, depth, ofType: (t) => collected[t] ?? none });
    // The node whose children the cursor is on, and its ancestors below the root (`stack`).
    let parent = root;
    let siblings: ShellNode[] = [];
    let fielded = FIELDED.has(root.type);
    const stack: Array<{ node: ShellNode; siblings: ShellNode[]; level: number }> = [];
    // Depth as walkers recurse: a list inside a list (`a && b && c` nests to the left) costs
    // no level, because the classifier walks such chains in a loop.
    let parentLevel = 1;
    let depth = 1;
    if (cursor.gotoFirstChild()) {
      for (;;) {
        const field = fielded ? cursor.currentFieldName : null;
        const id = cursor.nodeTypeId;
        const type = types[id] ?? "ERROR";
        const k = kindOf(id);
        const node = new ShellNode(command, type, k !== ANONYMOUS, field, cursor.startIndex, cursor.endIndex);
        siblings.push(node);
        switch (type) {
          case "word":
          case "raw_string":
          case "ansi_c_string":
          case "string":
          case "comment":
          case "heredoc_redirect":
            collect(type, node);
            break;
          default:
            break;
        }
        const level = parentLevel + (type === "list" && parent.type === "list" ? 0 : 1);
        if (level > depth) depth = level;
        if (k === NAMED && cursor.gotoFirstChild()) {
          parent.children = siblings;
          stack.push({ node: parent, siblings, level: parentLevel });
          parent = node;
          siblings = [];
          fielded = FIELDED.has(type);
          parentLevel = level;
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          parent.children = siblings;
          if (!cursor.gotoParent()) return done();
          const up = stack.pop();
          if (up === undefined) return done(); // back at the root
          parent = up.node;
          siblings = up.siblings;
          fielded = FIELDED.has(parent.type);
          parentLevel = up.level;
        }
      }
    }
    return done();
  } finally {
    cursor.delete();
    tree.delete();
  }
}
