/**
 * markdownlint-cli2's own settings add files to lint (and fix): the `globs` of the
 * `.markdownlint-cli2.jsonc` or `.markdownlint-cli2.yaml` in its cwd, of package.json's
 * `markdownlint-cli2` key there, or of the file `--config FILE` names (unless `--no-globs`), read
 * as they will be when it runs; `{"globs":["sub/.env"],"fix":true}` makes `markdownlint-cli2
 * README.md` rewrite sub/.env. Those globs are judged as operands given it. A `.cjs`/`.mjs`
 * settings file is code: what it adds is not known; so is one that cannot be read.
 *
 * @module
 */
import type { Stage } from "../shell/model.ts";
import type { Runner } from "./spec.ts";
import { literal, unknownWord } from "./words.ts";
import { shellQuote } from "../shell/words.ts";
import { SETTINGS_GLOBS } from "./glob_operands.ts";

/** The settings files markdownlint-cli2 looks for in its cwd, and how each is read. */
const DEFAULTS = [
  ".markdownlint-cli2.jsonc",
  ".markdownlint-cli2.yaml",
  ".markdownlint-cli2.cjs",
  ".markdownlint-cli2.mjs",
  "package.json",
];

/** JSON with comments and trailing commas as JSON (strings left as they are). */
function jsonOfJsonc(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = /^"(?:[^"\\]|\\.)*"/s.exec(text.slice(i));
      const s = end ? end[0] : text.slice(i);
      out += s;
      i += s.length - 1;
    } else if (text.startsWith("//", i)) {
      const nl = text.indexOf("\n", i);
      i = nl < 0 ? text.length : nl - 1;
    } else if (text.startsWith("/*", i)) {
      const close = text.indexOf("*/", i + 2);
      i = close < 0 ? text.length : close + 1;
    } else out += c;
  }
  return out.replace(/,(\s*[\]}])/g, "$1");
}

/** The `globs` of a JSON value (`key`: the object's under that key); null: not strings. */
function jsonGlobs(text: string, key?: string): string[] | null {
  let v: unknown;
  try {
    v = JSON.parse(jsonOfJsonc(text.replace(/^\uFEFF/, "")));
  } catch {
    return null;
  }
  if (key !== undefined) v = (v as Record<string, unknown> | null)?.[key];
  const globs = v && typeof v === "object" ? (v as Record<string, unknown>).globs : undefined;
  if (globs === undefined) return [];
  return Array.isArray(globs) && globs.every((g) => typeof g === "string") ? globs : null;
}

/** A YAML scalar as written (quotes taken off); null for one not read here. */
function yamlScalar(raw: string): string | null {
  const t = raw.replace(/\s+#.*$/, "").trim();
  const q = /^(["'])(.*)\1$/.exec(t);
  if (q) return q[1] === "'" ? q[2].replaceAll("''", "'") : q[2].includes("\\") ? null : q[2];
  return /^[^"'&*!|>%@`{[]/.test(t) ? t : null;
}

/** The `globs` of a YAML settings file (a block or flow list of scalars); null: not read. */
function yamlGlobs(text: string): string[] | null {
  const lines = text.split(/\r?\n/);
  const at = lines.findIndex((l) => /^["']?globs["']?\s*:/.test(l));
  if (at < 0) return /^\s+["']?globs["']?\s*:/m.test(text) ? null : [];
  const rest = lines[at].replace(/^["']?globs["']?\s*:/, "").replace(/\s+#.*$/, "").trim();
  if (rest.startsWith("[")) {
    if (!rest.endsWith("]")) return null;
    const items = rest.slice(1, -1).split(",").map((s) => s.trim()).filter(Boolean);
    const out = items.map(yamlScalar);
    return out.every((s) => s !== null) ? out as string[] : null;
  }
  if (rest) return null;
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (/^\s*(#.*)?$/.test(line)) continue;
    const item = /^\s*-\s+(.*)$/.exec(line);
    if (!item) {
      if (/^\s/.test(line)) return null;
      break;
    }
    const s = yamlScalar(item[1]);
    if (s === null) return null;
    out.push(s);
  }
  return out;
}

/** The globs a settings file adds (by its name), or null where that is not known. */
function fileGlobs(path: string, run: Runner): string[] | null {
  const text = run.settings(path);
  if (text === null) return null;
  if (text === "") return [];
  if (/\.(c|m)?js$/.test(path)) return null;
  if (/(^|\/)package\.json$/.test(path)) return jsonGlobs(text, "markdownlint-cli2");
  if (/\.ya?ml$/.test(path)) return yamlGlobs(text);
  return jsonGlobs(text);
}

/** `markdownlint-cli2 …`: the globs its settings add, judged as operands given it. */
export function markdownlintCli2Settings(stage: Stage, run: Runner): void {
  const args = stage.argv.slice(1);
  if (args.some((w) => w.kind === "static" && w.value === "--no-globs")) return;
  const files: (string | null)[] = [];
  let named = false;
  for (let i = 0; i < args.length; i++) {
    const v = args[i].kind === "static" ? args[i].value : null;
    if (v === "--config" || args[i].value.startsWith("--config=")) {
      const w = v === "--config" ? args[++i] : { ...args[i], value: args[i].value.slice(9) };
      named = true;
      files.push(w?.kind === "static" ? w.value : null);
    }
  }
  if (!named) files.push(...DEFAULTS);
  const globs: string[] = [];
  for (const f of files) {
    const found = f === null ? null : fileGlobs(f, run);
    if (found === null) {
      run.stage(
        [unknownWord(`(the files ${f ?? "its settings"} make it lint and fix)`)],
        "markdownlint-cli2",
      );
      return;
    }
    globs.push(...found);
  }
  if (!globs.length) return;
  // (Judged as given on its command line, its settings not read again.)
  const words = ["markdownlint-cli2", "--no-globs", "--fix", ...globs].map(shellQuote);
  run.shell(literal(words.join(" ")), SETTINGS_GLOBS);
}
