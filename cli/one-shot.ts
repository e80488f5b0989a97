import { setV8Flags } from "./code-cache.js";

/**
 * For a short-lived process that parses shell once or a few times: keep WebAssembly on V8's
 * baseline compiler, or exit waits ~0.5 s for optimised code that will never run. Set just before
 * the shell parser loads, not at start-up: under any flags but Node's own, V8 rejects Node's
 * embedded code caches and every built-in module loaded afterwards compiles from source.
 */
export function useOneShotWasmFlags(): void {
  setV8Flags("--liftoff-only --wasm-lazy-validation");
}
