/**
 * The safety checks that `checkFromJSON` builds on first use: the module the loader imports
 * dynamically, so the shell classifier and the effect classes stay out of `import("proctor")`.
 */
export { lethalTrifecta, purity } from "./safety.js";
export { skillContractProblem, skillPurity, skillTools } from "../contracts/skill-scope.js";
