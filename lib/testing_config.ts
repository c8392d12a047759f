/**
 * Helpers for the config tests: a project or global config text loaded, its errors as
 * `file:line:col: message`, assertions on one error's position and words, and temp files.
 *
 * @module
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { formatConfigError, loadConfigTexts, type LoadResult } from "./config.ts";
import type { Config } from "./types.ts";

/** The home directory of every test. */
export const HOME = "/home/me";

/** Join lines with newlines, so line and column numbers in a test are easy to read off. */
export function lines(...ls: string[]): string {
  return ls.join("\n") + "\n";
}

/** Load one project config text (role "project", root /proj). */
export function project(text: string, file = "/proj/.pi/extensions/pi-controls.jsonc"): LoadResult {
  return loadConfigTexts([{ file, text, role: "project", root: "/proj" }], { home: HOME });
}

/** Load one global config text. */
export function globalOnly(text: string, file = "/g/pi-controls.jsonc"): LoadResult {
  return loadConfigTexts([{ file, text, role: "global", root: null }], { home: HOME });
}

/** The config of an ok result; fails the test with the errors otherwise. */
export function ok(r: LoadResult): Config {
  if (r.status !== "ok") {
    const why = r.status === "error" ? r.errors.map(formatConfigError).join("\n") : r.status;
    assert.fail(`expected status ok, got ${why}`);
  }
  return r.config;
}

/** The errors of an error result as `file:line:col: message`. */
export function errors(r: LoadResult): string[] {
  assert.equal(r.status, "error", `expected status error, got ${r.status}`);
  return r.status === "error" ? r.errors.map(formatConfigError) : [];
}

/** Assert the result has exactly one error, at `where` (file:line:col), containing every part. */
export function assertOnlyError(r: LoadResult, where: string, ...parts: string[]): void {
  const errs = errors(r);
  assert.equal(errs.length, 1, `expected one error, got:\n${errs.join("\n")}`);
  assertHasError(r, where, ...parts);
}

/** Assert some error is at `where` (file:line:col) and contains every part. */
export function assertHasError(r: LoadResult, where: string, ...parts: string[]): void {
  const errs = errors(r);
  const hit = errs.find((e) => e.startsWith(`${where}: `) && parts.every((p) => e.includes(p)));
  assert.ok(
    hit,
    `no error at ${where} containing ${JSON.stringify(parts)}; got:\n${errs.join("\n")}`,
  );
}

/** The project config file of `project`. */
export const P = "/proj/.pi/extensions/pi-controls.jsonc";
/** The global config file of `globalOnly`. */
export const G = "/g/pi-controls.jsonc";

/** A minimal valid policy block for configs that test something else. */
export const OPEN = '"policies": { "open": { "defaultAction": "allow", "rules": [] } }';

/** A fresh temp directory (its real path). */
export async function tempDir(): Promise<string> {
  return fs.realpathSync(await Deno.makeTempDir({ prefix: "pi-controls-config-" }));
}

/** Write a file, creating its directory; returns the file. */
export function write(file: string, text: string): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}
