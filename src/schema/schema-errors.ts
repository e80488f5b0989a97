/**
 * JSON Schema validation with readable errors. Nothing is compiled at import, and usually nothing
 * at run time either: the build writes every schema passed to `schemaChecker` at module load as
 * standalone validation code (`validators/`, beside this file in dist), so a run loads one small
 * generated function instead of loading and compiling ajv (100–150 ms). A schema with no
 * generated validator — built at run time, changed since the build, or running from source — is
 * compiled by ajv on first use, with the same options, so both paths give the same errors.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvType, ErrorObject, Options } from "ajv";

const require = createRequire(import.meta.url);

/** The ajv options of every checker, shared by the build-time generator so both paths agree. */
export const AJV_OPTIONS: Readonly<Options> = { allErrors: true, strict: true, allowUnionTypes: true };

/**
 * The folder the build writes beside this module: `index.cjs` lists the JSON text of each schema
 * (`keys[i]`), and `v<i>.cjs` is the standalone validator of `keys[i]`, one file each so a run
 * loads only the validators it uses.
 */
export const GENERATED_VALIDATORS = "./validators/";

/** A compiled validator, generated or from ajv: true when valid, else its errors on `.errors`. */
export interface CompiledValidator {
  (value: unknown): boolean;
  errors?: ErrorObject[] | null;
}

const registered = new Set<object>();
let ajv: AjvType | undefined;
let generatedKeys: readonly string[] | null | undefined;

/** The schemas passed to `schemaChecker` so far in this process, in order: what the build generates validators for. */
export function registeredSchemas(): readonly object[] {
  return [...registered];
}

/** The build's validator for exactly this schema text, or undefined when there is none. */
function generatedValidator(key: string): CompiledValidator | undefined {
  if (generatedKeys === undefined) {
    try {
      generatedKeys = (require(`${GENERATED_VALIDATORS}index.cjs`) as { keys: readonly string[] }).keys;
    } catch (error) {
      // No generated validators (running from source, or a build without the generator): ajv compiles instead.
      if ((error as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw error;
      generatedKeys = null;
    }
  }
  const index = generatedKeys?.indexOf(key) ?? -1;
  return index < 0 ? undefined : (require(`${GENERATED_VALIDATORS}v${index}.cjs`) as CompiledValidator);
}

/** Compile `schema` with ajv, loaded on first need. */
export function compileWithAjv(schema: object): CompiledValidator {
  ajv ??= new (require("ajv") as typeof import("ajv")).Ajv(AJV_OPTIONS);
  return ajv.compile(schema);
}

/**
 * A validator for `schema` that returns readable errors rooted at `root` (empty when valid). Call it
 * once per schema at module load: that is what lets the build find the schema and generate its code.
 */
export function schemaChecker(schema: object, defaultRoot: string): (value: unknown, root?: string) => string[] {
  registered.add(schema);
  let validate: CompiledValidator | undefined;
  return (value, root = defaultRoot) => {
    validate ??= generatedValidator(JSON.stringify(schema)) ?? compileWithAjv(schema);
    return validate(value) ? [] : formatSchemaErrors(validate.errors ?? [], root, value);
  };
}

/** One readable line per schema error: `trace.toolCalls[3].status: must be one of … (got "ok")`. */
export function formatSchemaErrors(errors: readonly ErrorObject[], root: string, data: unknown): string[] {
  return errors.map((e) => {
    const path = root + e.instancePath.replace(/\/(\d+)(?=\/|$)/g, "[$1]").replace(/\//g, ".");
    const got = valueAt(data, e.instancePath);
    switch (e.keyword) {
      case "required":
        return `${path}: missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
      case "additionalProperties":
        return `${path}: unknown field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
      case "enum":
        return `${path}: must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(", ")} (got ${JSON.stringify(got)})`;
      default:
        return `${path}: ${e.message ?? e.keyword} (got ${JSON.stringify(got)?.slice(0, 80)})`;
    }
  });
}

function valueAt(data: unknown, pointer: string): unknown {
  let cur: unknown = data;
  for (const part of pointer.split("/").slice(1)) {
    if (typeof cur !== "object" || cur === null) return undefined;
    cur = (cur as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return cur;
}
