/**
 * JSON Schema validation with readable errors. ajv is loaded on first use, not at import: it
 * costs tens of milliseconds, and most importers of `proctor` never validate anything.
 */
import { createRequire } from "node:module";
import type { Ajv as AjvType, ErrorObject, ValidateFunction } from "ajv";

const require = createRequire(import.meta.url);
let ajv: AjvType | undefined;

/** A validator for `schema` that returns readable errors rooted at `root` (empty when valid). */
export function schemaChecker(schema: object, defaultRoot: string): (value: unknown, root?: string) => string[] {
  let validate: ValidateFunction | undefined;
  return (value, root = defaultRoot) => {
    if (!validate) {
      ajv ??= new (require("ajv") as typeof import("ajv")).Ajv({ allErrors: true, strict: true, allowUnionTypes: true });
      validate = ajv.compile(schema);
    }
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
