/**
 * Helpers for the schema tests: schema/pi-controls.schema.json compiled with ajv, the errors of
 * the schema and of the validator for one config, and the shipped configs.
 *
 * @module
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv, type ValidateFunction } from "ajv";
import { parse, type ParseError, printParseErrorCode } from "jsonc-parser";
import { formatConfigError, loadConfigTexts, type LoadResult } from "./config.ts";

/** The repository root. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The JSON Schema of a config file. */
export const SCHEMA_FILE = path.join(ROOT, "schema", "pi-controls.schema.json");
/** The home directory of every load. */
export const HOME = "/home/me";

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A JSON object. */
export type Obj = { [key: string]: Json };

/** Editor annotations (VS Code's) the schema carries: ajv must know them, they do not validate. */
export const EDITOR_KEYWORDS = [
  "markdownDescription",
  "enumDescriptions",
  "markdownEnumDescriptions",
  "patternErrorMessage",
  "defaultSnippets",
  "allowComments",
  "allowTrailingCommas",
];

/** The parsed schema. */
export const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, "utf8"));

let compiled: ValidateFunction | undefined;
/** The schema compiled by ajv in strict mode (once). */
export function schemaValidator(): ValidateFunction {
  if (compiled !== undefined) return compiled;
  const ajv = new Ajv({ allErrors: true, strict: true });
  ajv.addVocabulary(EDITOR_KEYWORDS);
  const validate = ajv.compile(schema);
  compiled = validate;
  return validate;
}

/** What the schema says about a value: `path message` per error, none when valid. */
export function schemaErrors(value: unknown): string[] {
  const validate = schemaValidator();
  if (validate(value)) return [];
  return (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
}

/** Strip JSONC (comments, trailing commas) the way the config loader reads it. */
export function parseJsonc(text: string, file: string): unknown {
  const errors: ParseError[] = [];
  const value = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  assert.deepEqual(
    errors.map((e) => `${printParseErrorCode(e.error)} at ${e.offset}`),
    [],
    `${file} does not parse`,
  );
  return value;
}

/** The role a config text is loaded with. */
export type Role = "global" | "project";

/** Load one config text as a global or a project file. */
export function load(text: string, role: Role): LoadResult {
  const source = role === "global"
    ? { file: "/g/pi-controls.jsonc", text, role, root: null }
    : { file: "/proj/.pi/extensions/pi-controls.jsonc", text, role, root: "/proj" };
  return loadConfigTexts([source], { home: HOME });
}

/** What the validator says about a config text: `file:line:col: message` per error. */
export function validatorErrors(text: string, role: Role): string[] {
  const r = load(text, role);
  if (r.status === "error") return r.errors.map(formatConfigError);
  assert.equal(r.status, "ok");
  return [];
}

/** The shipped config files: the sample, and every golden case's config (testdata/cases/). */
export function shippedConfigs(): string[] {
  const files = [path.join(ROOT, "examples", "sample.jsonc")];
  const cases = path.join(ROOT, "testdata", "cases");
  for (const name of fs.readdirSync(cases).sort()) {
    for (const f of fs.readdirSync(path.join(cases, name)).sort()) {
      // case.json describes the case (files, expectations); the rest are pi-controls configs.
      if (/\.jsonc?$/.test(f) && f !== "case.json") files.push(path.join(cases, name, f));
    }
  }
  return files;
}
