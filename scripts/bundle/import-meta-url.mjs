// Injected into the CommonJS builds by scripts/bundle.mjs, where `import.meta.url` is defined as
// `import_meta.url`: the bundled file's own URL, as it is in the ES-module build, worked out on
// first use (pathToFileURL costs ~0.5 ms, and most runs of a command never ask). `require` and
// `__filename` are the CommonJS file's own.
export const import_meta = {
  get url() {
    const url = require("node:url").pathToFileURL(__filename).href;
    Object.defineProperty(this, "url", { value: url });
    return url;
  },
};
