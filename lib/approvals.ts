/** Approvals: the narrow rules "Allow for Project" / "Allow Globally" save, and saving them. */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import process from "node:process";
import { applyEdits, modify, type ParseError, parseTree } from "jsonc-parser";
import type { Rule, Verdict } from "./types.ts";

/** Programs for which "program subcommand *" would allow anything (never saved persistently). */
const TOO_BROAD = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "fish",
  "ksh",
  "csh",
  "tcsh",
  "python",
  "python2",
  "python3",
  "node",
  "deno",
  "bun",
  "ruby",
  "perl",
  "php",
  "lua",
  "tsx",
  "ts-node",
  "npx",
  "bunx",
  "pnpx",
  "sudo",
  "doas",
  "su",
  "env",
  "xargs",
  "eval",
  "exec",
  "command",
  "builtin",
  "nohup",
  "time",
  "timeout",
  "nice",
  "ionice",
  "watch",
  "stdbuf",
  "setsid",
  "flock",
  "find",
  "parallel",
  "ssh",
  "script",
  "source",
  ".",
  "awk",
  "gawk",
  "sed",
  "osascript",
  "powershell",
  "pwsh",
]);

/** The rules a persistent approval of this verdict would save, or null when that is too broad. */
export function approvalRulesFor(verdict: Verdict, policy: string): Rule[] | null {
  if (verdict.tool !== "bash") return [{ action: "allow", tool: verdict.tool, policy }];
  const rules: Rule[] = [];
  for (const stage of verdict.stages) {
    if (
      stage.action !== "ask" ||
      !stage.targets.some((t) => t.policy === policy && t.action === "ask")
    ) continue;
    if (stage.dynamic || stage.command === null) return null;
    const words = stage.command.split(" ");
    const program = words[0].slice(words[0].lastIndexOf("/") + 1);
    const sub = words[1];
    if (!program || TOO_BROAD.has(program)) return null;
    if (!sub || !/^[A-Za-z][\w:.-]*$/.test(sub)) return null; // a bare program can do anything
    const prefix = `${program} ${sub}`;
    for (const pattern of stage.command === prefix ? [prefix, `${prefix} *`] : [`${prefix} *`]) {
      if (!rules.some((r) => r.pattern === pattern)) {
        rules.push({ action: "allow", tool: "bash", pattern, policy });
      }
    }
  }
  return rules.length ? rules : null;
}

/**
 * Append rules to `approvalRules` of a JSONC config file, keeping its comments and layout;
 * creates the file (and its directory) when missing; writes atomically (temp file + rename).
 * Throws with a message naming the file when the file exists but cannot be parsed.
 */
export function saveApprovalRules(file: string, rules: Rule[]): void {
  const exists = existsSync(file);
  let text = exists ? readFileSync(file, "utf8") : "{\n}\n";
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, { allowTrailingComma: true });
  if (!tree || tree.type !== "object" || errors.length) {
    throw new Error(`${file}: cannot add the approval, the file does not parse as a JSONC object`);
  }
  const formattingOptions = { insertSpaces: true, tabSize: 2, eol: "\n" };
  const existing = tree.children?.find((p) => p.children?.[0]?.value === "approvalRules")?.children
    ?.[1];
  if (existing && existing.type !== "array") {
    throw new Error(`${file}: "approvalRules" is not an array; fix it before saving approvals`);
  }
  let count = existing?.children?.length ?? 0;
  for (const rule of rules) {
    const edits = existing || count > 0
      ? modify(text, ["approvalRules", count], rule, { formattingOptions, isArrayInsertion: true })
      : modify(text, ["approvalRules"], [rule], { formattingOptions });
    text = applyEdits(text, edits);
    count++;
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, file);
}
