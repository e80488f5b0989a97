// Injected into the single-file commands by scripts/bundle.mjs: a vendored package (yaml, re2js,
// picomatch) is loaded from its bundled copy in ./vendor/ beside the command, through the code cache.
import path from "node:path";
import { requireCommonJs } from "../../dist/cli/code-cache.js";

export function proctor_require_vendored(name) {
  return requireCommonJs(path.join(__dirname, "vendor", `${name}.cjs`));
}
