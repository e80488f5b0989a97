// Build step: copies the bash grammar's WebAssembly from the tree-sitter-bash devDependency into
// dist/grammars/ with its license notice. The package ships this one file instead of depending on
// tree-sitter-bash, whose install script builds a native addon that proctor never loads (the shell
// parser runs the grammar on web-tree-sitter); src/effects/bash/parser.ts finds it there.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const require = createRequire(import.meta.url);
const pkgFile = require.resolve("tree-sitter-bash/package.json");
const pkg = JSON.parse(readFileSync(pkgFile, "utf8"));
const out = path.join(root, "dist", "grammars");
mkdirSync(out, { recursive: true });
copyFileSync(path.join(path.dirname(pkgFile), "tree-sitter-bash.wasm"), path.join(out, "tree-sitter-bash.wasm"));
const notice = `tree-sitter-bash.wasm is the WebAssembly build of ${pkg.name} ${pkg.version} (${pkg.repository}), copied unchanged, under its license:\n\n`;
writeFileSync(path.join(out, "tree-sitter-bash.LICENSE"), notice + readFileSync(path.join(path.dirname(pkgFile), "LICENSE"), "utf8"));
console.log(`copy-grammar: ${pkg.name} ${pkg.version} -> ${path.relative(process.cwd(), out)}`);
