import { describe, expect, it } from "vitest";
import { classifyBash, explainBash, isReadOnlyBash } from "../../src/safety.js";
import { READ_ONLY, SIDE_EFFECTING, UNDECIDABLE } from "./classify-bash.corpus.js";

describe("classifyBash corpus", () => {
  it("has at least 150 commands of both kinds", () => {
    expect(READ_ONLY.length + SIDE_EFFECTING.length + UNDECIDABLE.length).toBeGreaterThanOrEqual(150);
    expect(READ_ONLY.length).toBeGreaterThanOrEqual(60);
    expect(SIDE_EFFECTING.length + UNDECIDABLE.length).toBeGreaterThanOrEqual(90);
  });

  it.each(READ_ONLY)("read-only: %s", (command) => {
    expect(explainBash(command)).toMatchObject({ effect: "read-only" });
    expect(isReadOnlyBash(command)).toBe(true);
  });

  it.each(SIDE_EFFECTING)("side-effecting: %s", (command) => {
    expect(explainBash(command)).toMatchObject({ effect: "side-effecting" });
    expect(isReadOnlyBash(command)).toBe(false);
  });

  it.each(UNDECIDABLE)("undecidable: %s", (command) => {
    expect(explainBash(command)).toMatchObject({ effect: "undecidable" });
    expect(isReadOnlyBash(command)).toBe(false);
  });
});

describe("classifyBash reasons", () => {
  it("names the command that made a line side-effecting", () => {
    expect(explainBash("ls && rm -rf build").reason).toMatch(/`rm` is not a command proctor knows to be read-only/);
  });
  it("names the hidden command in a substitution", () => {
    expect(explainBash('ls "$(touch f)"').reason).toMatch(/in `\$\(touch f\)`: `touch`/);
  });
  it("names the redirection target", () => {
    expect(explainBash("echo hi > notes.txt").reason).toBe("the redirection `> notes.txt` writes the file notes.txt");
  });
  it("lists the read-only commands it saw", () => {
    expect(explainBash("git log | head -3").reason).toBe("only read-only commands: git, head");
  });
  it("says why a parse failure is not read-only", () => {
    expect(explainBash("ls 'unterminated").reason).toBe("proctor cannot read this exactly as Bash would: an unterminated single quote");
    expect(explainBash("ls )").reason).toBe("proctor cannot read this exactly as Bash would: an unmatched `)`");
  });
  it("treats an empty command as read-only and a non-string as undecidable", () => {
    expect(classifyBash("   ")).toBe("read-only");
    expect(classifyBash(42 as unknown as string)).toBe("undecidable");
  });
});

describe("classifyBash reasons when Bash and the parser part ways", () => {
  it("names a substitution Bash performs that the parser did not see", () => {
    expect(explainBash('echo "${x%$(rm x)}"').reason).toMatch(/^Bash expands `\$\(rm x\)}"` at offset 10, which the parser did not read as a substitution/);
    expect(explainBash("cat <<EOF\n  $(rm x)\nEOF").reason).toMatch(/^Bash expands `\$\(rm x\) EOF` at offset 12/);
  });
  it("names the character a parser may take for a blank", () => {
    expect(explainBash("ls \r# ; rm x").reason).toBe("the command holds the character U+000D, which Bash keeps inside a word where a parser may see a blank or a line end");
  });
  it("says what the rescan could not follow", () => {
    expect(explainBash("echo \"${x:-'$(rm x)'}\"").reason).toBe("proctor cannot read this exactly as Bash would: quoting inside `${…}`, which Bash reads differently in and out of double quotes");
  });
  it("says why an expansion or a builtin evaluates text", () => {
    expect(explainBash('echo "${1@P}"').reason).toBe("`${1@P}`: `@` transformations are not modelled (`@P` expands a prompt, which runs `$(…)`)");
    expect(explainBash(": x; echo ${!_}").reason).toMatch(/^`\$\{!_\}`: indirection uses a variable's value as a name/);
    expect(explainBash("test -v 'a[$(rm x)]'").reason).toMatch(/^`test -v` evaluates the subscript in `'a\[\$\(rm x\)\]'` as arithmetic/);
    expect(explainBash("set -k").reason).toBe("`set -k` changes how later commands are read or run");
    expect(explainBash("[[ $x -eq 0 ]]").reason).toBe("`[[ … -eq … ]]` evaluates `$x` as arithmetic, which can run commands");
  });
  it("says why a loop variable is refused", () => {
    expect(explainBash("for PATH in /tmp; do ls; done").reason).toBe("the loop sets `PATH`, which may be a variable the shell or a tool reads");
  });
});
