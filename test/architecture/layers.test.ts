/**
 * The rooms and the rule between them: every static import, `export … from` and dynamic
 * `import("…")` of every .ts file under src/, harness/, mock-model/, reporters/ and cli/, read
 * with TypeScript's own scanner (ts.preProcessFile) and resolved, must point into a room its
 * room may use. The core (src/) uses only itself and packages, so `proctor` and
 * `proctor/safety` load without the harness, the mock model, the reporters or the CLI.
 */
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = resolve(new URL("../..", import.meta.url).pathname);

/** The one rule table: each room and the rooms it may import from (itself included). Packages are always allowed. */
const LAYERS: Readonly<Record<string, readonly string[]>> = {
  src: ["src"],
  "mock-model": ["mock-model", "src"],
  reporters: ["reporters", "src"],
  harness: ["harness", "mock-model", "src"],
  cli: ["cli", "harness", "mock-model", "reporters", "src"],
};

interface ImportEdge {
  /** The importing file, relative to the repository root. */
  readonly file: string;
  /** The specifier as written. */
  readonly specifier: string;
}

interface Violation extends ImportEdge {
  readonly rule: string;
}

/** The room a repository-relative path is in (its first folder), or undefined outside the rooms. */
function roomOf(path: string): string | undefined {
  const first = path.split("/")[0];
  return Object.hasOwn(LAYERS, first) ? first : undefined;
}

/** Every import edge that breaks the rule table, each naming its file, specifier and the rule. */
function layerViolations(edges: readonly ImportEdge[], layers: Readonly<Record<string, readonly string[]>> = LAYERS): Violation[] {
  const out: Violation[] = [];
  for (const edge of edges) {
    const from = edge.file.split("/")[0];
    const allowed = layers[from];
    if (!allowed || !edge.specifier.startsWith(".")) continue;
    const target = relative(root, resolve(root, dirname(edge.file), edge.specifier)).split("\\").join("/");
    const to = target.startsWith("..") ? "(outside the repository)" : (roomOf(target) ?? target.split("/")[0]);
    if (!allowed.includes(to)) out.push({ ...edge, rule: `${from}/ may import only ${allowed.map((r) => `${r}/`).join(", ")} and packages; this reaches ${to}/` });
  }
  return out;
}

function tsFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith(".ts"))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"));
}

/** The import edges of the real files, found by TypeScript's scanner (imports, re-exports, dynamic imports). */
function repositoryEdges(): ImportEdge[] {
  return Object.keys(LAYERS).flatMap((room) =>
    tsFiles(room).flatMap((file) => ts.preProcessFile(readFileSync(join(root, file), "utf8"), true, true).importedFiles.map((f) => ({ file, specifier: f.fileName }))),
  );
}

describe("the layers", () => {
  const edges = repositoryEdges();

  it("finds the imports it judges (static, re-export and dynamic)", () => {
    expect(edges.length).toBeGreaterThan(200);
    expect(edges).toContainEqual({ file: "cli/judge.ts", specifier: "../harness/judge/claude-judge.js" });
    expect(edges.some((e) => e.file === "src/index.ts" && e.specifier === "./checks/check.js")).toBe(true);
  });

  it("hold: no file imports a room its room may not use", () => {
    expect(layerViolations(edges)).toEqual([]);
  });

  it("catches a violation, naming the file, the specifier and the rule", () => {
    const synthetic: ImportEdge[] = [
      { file: "src/eval/define.ts", specifier: "../../harness/claude/spec.js" },
      { file: "src/eval/define.ts", specifier: "../measure/types.js" },
      { file: "reporters/junit/xml.ts", specifier: "../../cli/main.js" },
      { file: "harness/claude/run.ts", specifier: "../../reporters/junit/xml.js" },
      { file: "mock-model/server/start.ts", specifier: "../../harness/index.js" },
      { file: "cli/main.ts", specifier: "../harness/index.js" },
      { file: "src/x.ts", specifier: "execa" },
    ];
    expect(layerViolations(synthetic)).toEqual([
      { file: "src/eval/define.ts", specifier: "../../harness/claude/spec.js", rule: "src/ may import only src/ and packages; this reaches harness/" },
      { file: "reporters/junit/xml.ts", specifier: "../../cli/main.js", rule: "reporters/ may import only reporters/, src/ and packages; this reaches cli/" },
      { file: "harness/claude/run.ts", specifier: "../../reporters/junit/xml.js", rule: "harness/ may import only harness/, mock-model/, src/ and packages; this reaches reporters/" },
      { file: "mock-model/server/start.ts", specifier: "../../harness/index.js", rule: "mock-model/ may import only mock-model/, src/ and packages; this reaches harness/" },
    ]);
  });

  it("sees a dynamic import through TypeScript's scanner", () => {
    const found = ts.preProcessFile('const m = await import("../../harness/index.js");\nexport { x } from "./y.js";', true, true).importedFiles.map((f) => f.fileName);
    expect(found).toEqual(["../../harness/index.js", "./y.js"]);
  });
});
