// Injected into the CommonJS builds by scripts/bundle.mjs, where `import.meta.url` is defined as
// this binding: the bundled file's own URL, as it is in the ES-module build. `require` and
// `__filename` are the CommonJS file's own.
export const import_meta_url = require("node:url").pathToFileURL(__filename).href;
