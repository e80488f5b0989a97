import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { evaluatePermissionDecision, isToolDeniedByName, parsePolicy, readPolicyFile } from "../../src/safety.js";
import { isProctorError } from "../../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "proctor-policy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

const YAML = `# no destructive shell, ask before any network tool, GitHub writes denied
defaultDenySensitive: false
rules:
  - tool: Bash
    effect: deny
    reason: no recursive deletes
    args:
      command: { $regex: "rm\\\\s+-[a-z]*r" }
  - tool: "*"
    effect: ask
    reason: network access needs a human
    when: { sideEffectClass: external-stateful, untrustedSource: true }
  - tool: mcp__github__create_*
    effect: forbid
tools:
  mcp__github__get_*: { sideEffectClass: read-only }
`;

function decide(policyFile: Awaited<ReturnType<typeof readPolicyFile>>, tool: string, args: Record<string, unknown> = {}) {
  return evaluatePermissionDecision(policyFile.policy, policyFile.factsFor(tool, args));
}

describe("policy files", () => {
  it("reads YAML with ArgMatcher rules, fact conditions and tool overrides", async () => {
    const p = await readPolicyFile(file("p.yaml", YAML));
    expect(decide(p, "Bash", { command: "rm -rf build" })).toEqual({ effect: "deny", reason: "no recursive deletes" });
    expect(decide(p, "Bash", { command: "ls -la" })).toEqual({ effect: "allow" });
    expect(decide(p, "WebFetch", { url: "https://x" })).toEqual({ effect: "ask", reason: "network access needs a human" });
    expect(decide(p, "mcp__github__create_issue").effect).toBe("deny");
    expect(decide(p, "mcp__github__get_issue")).toEqual({ effect: "allow" });
    expect(decide(p, "mcp__slack__post").effect).toBe("ask");
    expect(isToolDeniedByName(p.policy, "mcp__github__create_pr")).toMatchObject({ denied: true });
    expect(isToolDeniedByName(p.policy, "Bash")).toEqual({ denied: false });
  });

  it("reads the same policy as JSON, RegExps as {$regex, $flags}", async () => {
    const p = await readPolicyFile(
      file("p.json", JSON.stringify({ rules: [{ tool: "Write", effect: "deny", args: { file_path: { $regex: "\\.ENV$", $flags: "i" } }, reason: "no env files" }] })),
    );
    expect(decide(p, "Write", { file_path: "/w/.env" })).toEqual({ effect: "deny", reason: "no env files" });
    expect(decide(p, "Write", { file_path: "/w/a.ts" }).effect).toBe("allow");
  });

  it("derives facts from the dialect, and per-tool overrides win", () => {
    const p = parsePolicy({ tools: { Read: { sensitive: false }, "mcp__*": { untrustedSource: false } } });
    expect(p.factsFor("Bash", {})).toMatchObject({ sideEffectClass: "external-stateful", sensitive: true, untrustedSource: false });
    expect(p.factsFor("Read", {})).toMatchObject({ sideEffectClass: "read-only", sensitive: false });
    expect(p.factsFor("Edit", {})).toMatchObject({ sideEffectClass: "side-effecting" });
    expect(p.factsFor("mcp__db__q", {})).toMatchObject({ sideEffectClass: "external-stateful", untrustedSource: false });
    expect(parsePolicy({ dialect: "codex" }).factsFor("apply_patch", {})).toMatchObject({ sideEffectClass: "side-effecting" });
  });

  it("rejects a bad file with the path of every bad field", () => {
    let error: unknown;
    try {
      parsePolicy(
        {
          rules: [
            { tool: "Bash", effect: "block" },
            { tool: "", effect: "deny", args: { command: { $regex: "(" } }, extra: 1 },
            { tool: "a*b", effect: "allow", when: { sideEffectClass: "loud" } },
          ],
          tools: { Read: { sensitive: "yes" } },
          colour: "red",
        },
        "team.yaml",
      );
    } catch (e) {
      error = e;
    }
    expect(isProctorError(error) && error.code).toBe("POLICY_INVALID");
    expect((error as Error).message).toMatchInlineSnapshot(`
      "team.yaml: 8 problems in the policy
        colour: is not a field here (fields: $schema, dialect, defaultDenySensitive, rules, tools); got "red"
        rules[0].effect: must be one of allow, deny, ask, defer, forbid; got "block"
        rules[1].extra: is not a field here (fields: tool, effect, reason, args, when); got 1
        rules[1].tool: must be a tool name, "*", or a prefix glob like "mcp__github__*"; got ""
        rules[1].args.command: is not a valid regular expression (Invalid regular expression: /(/: Unterminated group); got {"$regex":"("}
        rules[2].tool: may use "*" only at the end; got "a*b"
        rules[2].when.sideEffectClass: must be one of pure, read-only, side-effecting, external-stateful; got "loud"
        tools.Read.sensitive: must be true or false; got "yes""
    `);
  });

  it("rejects unreadable and unparsable files, naming them", async () => {
    await expect(readPolicyFile(join(dir, "missing.yaml"))).rejects.toThrow(/cannot read policy file .*missing\.yaml: ENOENT/);
    await expect(readPolicyFile(file("bad.json", "{ rules: "))).rejects.toThrow(/bad\.json is not JSON: .*\(line 1, column 3\)/);
    await expect(readPolicyFile(file("bad.yaml", "rules: [\n  - {"))).rejects.toThrow(/bad\.yaml is not YAML: .*line 2/);
    await expect(readPolicyFile(file("list.yaml", "- a\n- b\n"))).rejects.toThrow(/a policy must be an object/);
  });
});
