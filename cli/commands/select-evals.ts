/** `proctor run --eval NAME`: pick evals (or a suite's cases) by name before anything runs. */
import { InvalidInputError } from "../../src/errors/proctor-error.js";

/** NAME as a whole-name pattern: `*` matches any run of characters, everything else itself. */
const patternOf = (name: string) => new RegExp(`^${name.split("*").map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "s");

/**
 * The items whose name one of `names` matches, in their order; all of them when `names` is
 * undefined. A name that matches nothing is refused, listing the names there are: a typo must
 * not turn into a run of nothing that passes.
 */
export function selectByName<T>(items: readonly T[], nameOf: (item: T) => string, names: readonly string[] | undefined, where: string): T[] {
  if (names === undefined || names.length === 0) return [...items];
  const patterns = names.map((n) => ({ n, re: patternOf(n) }));
  const unmatched = patterns.filter((p) => !items.some((item) => p.re.test(nameOf(item))));
  if (unmatched.length > 0) {
    const known = items.map(nameOf);
    throw new InvalidInputError("INVALID_INPUT", `--eval ${unmatched.map((p) => JSON.stringify(p.n)).join(", ")}: no eval of that name in ${where}`, {
      hint: known.length ? `the names there: ${known.slice(0, 20).join(", ")}${known.length > 20 ? `, … (${known.length - 20} more; proctor run --list shows all)` : ""}` : "it holds no evals",
    });
  }
  return items.filter((item) => patterns.some((p) => p.re.test(nameOf(item))));
}
