import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { InvalidInputError } from "../../src/errors/proctor-error.js";
import { parseCommandArgs } from "../args.js";
import type { Command } from "../command.js";

const USAGE = "proctor init [DIR] [--js] [--force]";

const FIXTURE: Record<string, string> = {
  "package.json": `${JSON.stringify({ name: "example-app", version: "1.0.0", private: true, scripts: { check: "node scripts/check.mjs" } }, null, 2)}\n`,
  "README.md": "# example-app\n\nA tiny project the example eval's agent works in. Replace it with a copy of yours.\n",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the source of a JS file, template literal included
  "src/greet.js": "export function greet(name) {\n  return `Hello, ${name}!`;\n}\n",
  "scripts/check.mjs": 'import { greet } from "../src/greet.js";\nif (greet("x") !== "Hello, x!") {\n  console.error("greet is broken");\n  process.exit(1);\n}\nconsole.log("checks passed");\n',
};

/** The starter eval: the mock model scripts a short, read-only review; the checks hold on every trial. */
function starterEval(js: boolean): string {
  return `// A starter eval, run with \`npx proctor run\`. The mock model says what the *model* would say
// (the script); the real claude binary runs the tools, permissions and hooks, offline and free.
// Change the prompt, the script and the checks; point \`plugins\` at your plugin to test its hooks.
import { defineEval, notTool, onlyTools, output, toolWith } from "proctor";
import { purity } from "proctor/safety";

export const review = defineEval({
  name: "reviews the project without changing it",
  mock: {
    prompt: "Review this project and tell me if the checks pass. Do not change anything.",
    fixture: "./fixtures/app", // copied into a fresh temp work dir for every trial
    // plugins: ["../my-plugin"],
    script: {
      turns: [
        { text: "Let me look around.", tools: [{ name: "Read", input: { file_path: "package.json" } }] },
        { tools: [{ name: "Bash", input: { command: "ls src scripts" } }] },
        { text: "Summary: one module (src/greet.js) and one check script; nothing needed changing." },
      ],
    },
  },
  checks: [
    toolWith("Read", { file_path: /package\\.json$/ }),
    notTool("Write"),
    onlyTools(["Read", "Bash", "Glob", "Grep"]),
    purity("bounded"), // every Bash command was provably read-only
    output(/^Summary:/m),
  ],
  trials: 3,
  concurrency: 2,${js ? "" : "\n  // TypeScript eval files load through tsx (npm i -D tsx)."}
});
`;
}

/** Is tsx resolvable from `dir` (the user's project)? */
function hasTsx(dir: string): boolean {
  try {
    createRequire(join(dir, "noop.js")).resolve("tsx/esm/api");
    return true;
  } catch {
    return false;
  }
}

/**
 * Write a starter eval and its fixture into DIR (default `./evals`): `example.eval.ts` when tsx is
 * installed, else `example.eval.mjs` (or with `--js`). Refuses to overwrite files without `--force`.
 */
const init: Command = async (argv) => {
  const { values, positionals } = parseCommandArgs(argv, { js: { type: "boolean" }, force: { type: "boolean" } }, USAGE);
  if (positionals.length > 1) throw new InvalidInputError("INVALID_INPUT", `expected at most one folder\nusage: ${USAGE}`);
  const dir = positionals[0] ?? "evals";
  const js = values.js === true || !hasTsx(process.cwd());
  const files: Record<string, string> = { [`example.eval.${js ? "mjs" : "ts"}`]: starterEval(js) };
  for (const [path, text] of Object.entries(FIXTURE)) files[join("fixtures", "app", path)] = text;
  const clashes = Object.keys(files).map((f) => join(dir, f)).filter((f) => existsSync(f));
  if (clashes.length && !values.force) {
    throw new InvalidInputError("INVALID_INPUT", `${clashes[0]} already exists; nothing was written (pass --force to overwrite, or another folder: proctor init DIR)`);
  }
  for (const [path, text] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  const evalFile = join(dir, Object.keys(files)[0] ?? "");
  process.stdout.write(
    [
      `wrote ${relative(process.cwd(), evalFile) || evalFile} and its fixture (${join(dir, "fixtures", "app")})`,
      ...(js && !values.js ? ["(tsx is not installed, so the eval is .mjs; npm i -D tsx for TypeScript evals)"] : []),
      "",
      "next:",
      `${`  npx proctor run ${dir === "evals" ? "" : dir}`.trimEnd()}     # 3 trials on the mock model with the real claude binary`,
      `  then edit ${evalFile}: the prompt, the script, the checks (README: Checks, proctor run)`,
      "",
    ].join("\n"),
  );
  return 0;
};
export default init;
