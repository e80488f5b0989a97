/**
 * The verdict on one simple command once its name and arguments are known, shared by the tree
 * walk (classify.ts) and the fast path (fast-path.ts), so the two cannot drift apart.
 */
import { classifyBuiltin } from "./builtins.js";
import { classifyCommand } from "./commands.js";
import { classifyInContext, type ContextScope } from "./context/in-context.js";
import { sideEffecting, undecidable, worse, type Arg, type BashVerdict } from "./verdict.js";

const VERDICT_EFFECTS = new Set(["read-only", "side-effecting", "undecidable"]);

/**
 * The command catalog's verdict, fail-closed: a name that is a property of every object
 * (`constructor`, `toString`, `__proto__`) must not reach a table lookup as if it were a rule,
 * and whatever the catalog returns or throws, only a well-formed verdict counts.
 */
function catalogVerdict(name: string, args: readonly Arg[]): BashVerdict {
  if (name in Object.prototype) return sideEffecting(`\`${name}\` is not a command proctor knows to be read-only`);
  try {
    const v = classifyCommand(name, args);
    if (v && typeof v === "object" && VERDICT_EFFECTS.has(v.effect) && typeof v.reason === "string") return v;
    return undecidable(`the catalog gave no verdict for \`${name}\``);
  } catch (error) {
    return undecidable(`the catalog failed on \`${name}\`: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * One simple command's verdict: builtins that evaluate their operands are the core's, every
 * other command is the catalog's; in a context (`scope`), a command the text finds read-only
 * must stay so in its repository and PATH.
 */
export function judgeCommand(name: string, args: readonly Arg[], scope: ContextScope | undefined): BashVerdict {
  const verdict = classifyBuiltin(name, args) ?? catalogVerdict(name, args);
  if (scope === undefined || verdict.effect !== "read-only") return verdict;
  const here = classifyInContext(name, args, scope);
  return here ? worse(verdict, here) : verdict;
}
