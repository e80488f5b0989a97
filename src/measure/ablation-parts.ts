/**
 * What an ablation takes away with its component: the skills, subagents, hook events and MCP
 * servers that are gone from the arm without it. Run health reads these as *expected* to be
 * missing there (removed on purpose, not broken), and the ablation report names them, so a check
 * like `skill("tidy")` failing without its plugin reads as the part's effect, not as an error.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { Check } from "../checks/check.js";
import { answersTo } from "../checks/names.js";
import { namedByChecks, type AbsentParts } from "../health/gate.js";
import type { AblatableSpec, AblatedComponent } from "./ablation.js";

/** The parts an ablation removes, by kind (skill and agent names as claude lists them, with and without the plugin prefix). */
export interface RemovedParts extends AbsentParts {
  readonly hooks?: readonly string[];
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

/** The `name:` of a markdown file's frontmatter, if any. */
function frontmatterName(text: string): string | undefined {
  const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text)?.[1] ?? "";
  return /^name:\s*["']?([^"'\r\n]+?)["']?\s*$/m.exec(front)?.[1]?.trim() || undefined;
}

function readJson(file: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(readFileSync(file, "utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    // Unreadable: claude refuses it too, and the with arm's run health says so.
    return undefined;
  }
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Hook events of a hooks.json (flat, or wrapped in `{ hooks: … }`). */
function hookEvents(config: Record<string, unknown> | undefined): string[] {
  const hooks = config && typeof config.hooks === "object" && config.hooks !== null ? (config.hooks as Record<string, unknown>) : config;
  return hooks ? Object.keys(hooks).filter((k) => k !== "description" && Array.isArray(hooks[k])) : [];
}

/** Server names of an MCP config object (`{ mcpServers: { … } }` or the bare map). */
function serverNames(config: unknown): string[] {
  if (typeof config !== "object" || config === null) return [];
  const c = config as Record<string, unknown>;
  const servers = typeof c.mcpServers === "object" && c.mcpServers !== null ? (c.mcpServers as Record<string, unknown>) : c;
  return Object.keys(servers);
}

/** Every part a plugin directory brings: skills, agents, hook events and MCP servers. */
export function pluginParts(root: string): RemovedParts {
  const manifest = readJson(join(root, ".claude-plugin", "plugin.json")) ?? {};
  const plugin = typeof manifest.name === "string" ? manifest.name : undefined;
  const both = (name: string) => (plugin ? [name, `${plugin}:${name}`] : [name]);
  const skills = entries(join(root, "skills")).flatMap((folder) => {
    const file = join(root, "skills", folder, "SKILL.md");
    if (!existsSync(file)) return [];
    const named = frontmatterName(readFileSync(file, "utf8"));
    return [...both(folder), ...(named ? both(named) : [])];
  });
  const agents = entries(join(root, "agents"))
    .filter((f) => f.endsWith(".md"))
    .flatMap((f) => {
      const named = frontmatterName(readFileSync(join(root, "agents", f), "utf8"));
      return [...both(f.replace(/\.md$/, "")), ...(named ? both(named) : [])];
    });
  const inlineHooks = typeof manifest.hooks === "object" && manifest.hooks !== null ? hookEvents(manifest.hooks as Record<string, unknown>) : [];
  const hooks = [...hookEvents(readJson(join(root, "hooks", "hooks.json"))), ...inlineHooks];
  const mcpFile = typeof manifest.mcpServers === "string" ? resolve(root, manifest.mcpServers) : join(root, ".mcp.json");
  const mcpServers = [...serverNames(readJson(mcpFile)), ...(typeof manifest.mcpServers === "object" ? serverNames(manifest.mcpServers) : [])];
  return { skills: sorted(skills), agents: sorted(agents), hooks: sorted(hooks), mcpServers: sorted(mcpServers) };
}

/**
 * What removing `component` from `spec` takes away. `before` is the spec with the component, so a
 * plugin's directory is found by comparing it with `after` (the spec ablateSpec returned).
 */
export function removedParts(before: AblatableSpec, after: AblatableSpec, component: AblatedComponent): RemovedParts {
  const { kind, name } = component;
  if (kind === "skill") return { skills: [name] };
  if (kind === "agent") {
    const text = before.agents?.[name];
    const named = typeof text === "string" ? frontmatterName(text) : undefined;
    return { agents: sorted([name, ...(named ? [named] : [])]) };
  }
  if (kind === "hook") return { hooks: [name] };
  if (kind === "mcp") return { mcpServers: [name] };
  const kept = new Set(after.plugins ?? []);
  const dropped = (before.plugins ?? []).filter((p) => !kept.has(p));
  const parts = dropped.map((dir) => pluginParts(isAbsolute(dir) ? dir : resolve(before.cwd ?? process.cwd(), dir)));
  const merge = (key: keyof RemovedParts) => sorted(parts.flatMap((p) => p[key] ?? []));
  return { skills: merge("skills"), agents: merge("agents"), hooks: merge("hooks"), mcpServers: merge("mcpServers") };
}

/** `skill tidy, agent reviewer, hook PreToolUse, MCP server memory`: the parts, bare names only, for messages. */
export function describeParts(parts: RemovedParts): string {
  const bare = (names: readonly string[] | undefined) => sorted((names ?? []).map((n) => n.replace(/^[^:]+:/, "")));
  const groups = [
    ["skill", bare(parts.skills)],
    ["agent", bare(parts.agents)],
    ["hook", parts.hooks ?? []],
    ["MCP server", parts.mcpServers ?? []],
  ] as const;
  return groups.flatMap(([label, names]) => names.map((n) => `${label} ${n}`)).join(", ");
}

/** Every string in a check's JSON form, with the `kind` of the object that holds it. */
function strings(json: unknown, kind: string, out: { kind: string; value: string }[]): void {
  if (typeof json === "string") out.push({ kind, value: json });
  else if (Array.isArray(json)) for (const item of json) strings(item, kind, out);
  else if (typeof json === "object" && json !== null) {
    const j = json as Record<string, unknown>;
    const own = typeof j.kind === "string" ? j.kind : kind;
    for (const v of Object.values(j)) strings(v, own, out);
  }
}

/**
 * The removed parts one check names (`skill tidy`, `agent reviewer`, `MCP server memory`, `hook
 * PreToolUse`): in the arm without them, that check failing is the part's effect, as expected.
 */
export function partsNamedBy(check: Check<never>, removed: RemovedParts): string[] {
  const { skills, agents } = namedByChecks([check]);
  const found = new Set<string>();
  const bare = (n: string) => n.replace(/^[^:]+:/, "");
  for (const s of skills) if ((removed.skills ?? []).some((r) => r === s || answersTo(s, r))) found.add(`skill ${bare(s)}`);
  for (const a of agents) if ((removed.agents ?? []).some((r) => r === a || answersTo(a, r))) found.add(`agent ${bare(a)}`);
  let json: unknown;
  try {
    json = check.toJSON();
  } catch {
    // A check that does not serialise names nothing that can be read.
    return [...found];
  }
  const all: { kind: string; value: string }[] = [];
  strings(json, "", all);
  for (const server of removed.mcpServers ?? []) if (all.some((s) => s.value.includes(`mcp__${server}__`) || (/mcp/i.test(s.kind) && s.value === server))) found.add(`MCP server ${server}`);
  for (const event of removed.hooks ?? []) if (all.some((s) => /^hook/i.test(s.kind) && (s.value === event || s.value.startsWith(`${event}:`)))) found.add(`hook ${event}`);
  return [...found];
}
