/** `--allow-tools Bash Write`: space-separated values of a variadic option, as commander (claude's CLI) reads them. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { looksLikeToolName, spreadVariadic } from "../../cli/args.js";

const spread = (argv: string[]) => spreadVariadic(argv, "--allow-tools", looksLikeToolName);

describe("spreadVariadic", () => {
  it.each([
    [["evals", "--allow-tools", "Bash", "Write"], ["evals", "--allow-tools", "Bash", "--allow-tools", "Write"]],
    [["--allow-tools", "Bash", "Write", "evals"], ["--allow-tools", "Bash", "--allow-tools", "Write", "evals"]],
    [["--allow-tools", "Bash(git *)", "mcp__tickets__*", "--mock"], ["--allow-tools", "Bash(git *)", "--allow-tools", "mcp__tickets__*", "--mock"]],
    [["--allow-tools", "Bash,Write", "evals"], ["--allow-tools", "Bash,Write", "evals"]],
    [["--allow-tools=Bash", "Write"], ["--allow-tools=Bash", "Write"]],
    [["--allow-tools"], ["--allow-tools"]],
    [["--allow-tools", "Bash", "--", "Write"], ["--allow-tools", "Bash", "--", "Write"]],
  ])("%j → %j", (argv, expected) => {
    expect(spread(argv)).toEqual(expected);
  });

  it("tells tool names from paths", () => {
    for (const t of ["Bash", "WebFetch", "Write", "mcp__s__t", "mcp__s__*", "Bash(npm run *)"]) expect(looksLikeToolName(t), t).toBe(true);
    for (const p of ["evals", "./evals", "evals/", "/abs/Evals", "my-plugin/evals", "x.eval.ts", "-q"]) expect(looksLikeToolName(p), p).toBe(false);
  });

  it("property: only inserts the flag, each time before a tool name that followed the flag's value or another such name", () => {
    const word = fc.oneof(fc.constantFrom("Bash", "Write", "mcp__a__b", "evals", "./x", "--mock", "-q", "--allow-tools", "--"), fc.stringMatching(/^[A-Za-z./_-]{1,6}$/));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (argv) => {
        const out = spread(argv);
        // Dropping the inserted flags gives the input back.
        const inserted: number[] = [];
        const back: string[] = [];
        let j = 0;
        for (let i = 0; i < out.length; i++) {
          if (j < argv.length && out[i] === argv[j]) {
            back.push(out[i] as string);
            j++;
          } else inserted.push(i);
        }
        expect(back).toEqual(argv);
        for (const i of inserted) {
          expect(out[i]).toBe("--allow-tools");
          expect(looksLikeToolName(out[i + 1] as string)).toBe(true);
          const before = out.indexOf("--");
          expect(before === -1 || i < before).toBe(true);
        }
      }),
    );
  });
});
