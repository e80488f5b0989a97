import { setFlagsFromString } from "node:v8";

/**
 * For a short-lived process that parses shell once or a few times: keep WebAssembly on V8's
 * baseline compiler, or exit waits ~0.5 s for optimised code that will never run. The bin sets
 * them before it compiles a standalone command, so the code cache written at exit carries the same
 * V8 flags as the next start-up that reads it (V8 rejects a cache made under other flags).
 */
export function useOneShotWasmFlags(): void {
  setFlagsFromString("--liftoff-only --wasm-lazy-validation");
}
