/**
 * Approvals: the narrow rules "Allow for Project" / "Allow Globally" save, and saving them.
 *
 * @module
 */
import {
  closeSync,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { dirname, resolve } from "node:path";
import process from "node:process";
import { createScanner, type Node, type ParseError, parseTree } from "jsonc-parser";
import { type FileLockOptions, withFileLock } from "./file_lock.ts";
import { isTooBroad } from "./programs/registry.ts";
import type { Rule, Verdict } from "./types.ts";

/** A second word that reads as a subcommand (`commit`, `run-script`), not a file or a value. */
const SUBCOMMAND = /^[a-z][a-z0-9_:-]*$/;

/**
 * The rules a persistent approval of this verdict would save, or null when that is too broad.
 * Bash: per asking stage "program subcommand *" (and the bare "program subcommand"), or the exact
 * command when its second word is no subcommand (`touch FILE`, `rm build.log`, `curl https://…`,
 * a word the stage reads as a path) or there is none; null for a program that runs what its
 * arguments say, a command not known before it runs, or an exact command not fully known (its
 * input's arguments, a glob) or that a glob cannot spell.
 */
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
    // A program that runs what its arguments say: "sudo apt *" would allow anything apt can do.
    if (!program || isTooBroad(program, sub ?? "")) return null;
    let patterns: string[];
    if (
      sub && SUBCOMMAND.test(sub) &&
      !stage.targets.some((t) => t.kind === "argument" && t.source === sub)
    ) {
      const prefix = `${program} ${sub}`;
      patterns = stage.command === prefix ? [prefix, `${prefix} *`] : [`${prefix} *`];
    } else {
      // No subcommand: only this very command, when it is fully known (not `xargs rm` with its
      // input, not `rm *.log`), and "*" and "?" in it would match more.
      if (
        /[*?]/.test(stage.command) ||
        stage.targets.some((t) => t.kind === "dynamic" || t.kind === "glob")
      ) return null;
      patterns = [stage.command];
    }
    for (const pattern of patterns) {
      if (!rules.some((r) => r.pattern === pattern)) {
        rules.push({ action: "allow", tool: "bash", pattern, policy });
      }
    }
  }
  return rules.length ? rules : null;
}

/** One rule as a one-line JSON object, the way rules are usually written: `{ "action": … }`. */
function ruleText(rule: Rule): string {
  return `{ ${
    Object.entries(rule).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(", ")
  } }`;
}

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read.
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const WHITESPACE = 15;

function lineStart(text: string, offset: number): number {
  return text.lastIndexOf("\n", offset - 1) + 1;
}

function indentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(lineStart(text, offset)))![0];
}

/**
 * Insert `item` (its text, one line) as the last member of the object or array `container`,
 * on a line of its own after the last member, its comma and any comment on the same line, so
 * comments stay beside what they describe and no other part of the file is reformatted. A
 * container written on one line gets the item on that line.
 */
function appendMember(text: string, container: Node, item: (indent: string) => string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const open = container.offset;
  const close = container.offset + container.length - 1;
  const members = container.children ?? [];
  const base = indentAt(text, open);
  const unit = /^\t+\S/m.test(text) && !/^ +\S/m.test(text) ? "\t" : "  ";
  if (members.length === 0) {
    const inner = text.slice(open + 1, close);
    const indent = base + unit;
    const insert = inner.trim() === ""
      ? `${eol}${indent}${item(indent)}${eol}${base}`
      : `${inner.replace(/\s*$/, "")}${eol}${indent}${item(indent)}${eol}${base}`;
    return text.slice(0, open + 1) + insert + text.slice(close);
  }
  const last = members[members.length - 1];
  const lastEnd = last.offset + last.length;
  const scanner = createScanner(text, false);
  scanner.setPosition(lastEnd);
  let comma = false;
  let at = -1;
  for (;;) {
    const kind = scanner.scan();
    const token = text.slice(
      scanner.getTokenOffset(),
      scanner.getTokenOffset() + scanner.getTokenLength(),
    );
    if (kind === COMMA && !comma) comma = true;
    else if (
      kind === WHITESPACE || kind === LINE_COMMENT ||
      (kind === BLOCK_COMMENT && !token.includes("\n"))
    ) continue;
    else if (kind === LINE_BREAK) {
      at = scanner.getTokenOffset() + scanner.getTokenLength();
      break;
    } else break; // the closing bracket (or a multi-line comment) on the same line
  }
  if (at < 0) {
    // One-line container: `[a, b]` -> `[a, b, item]`.
    const pos = comma ? lastEnd + text.slice(lastEnd).indexOf(",") + 1 : lastEnd;
    return text.slice(0, pos) + (comma ? " " : ", ") + item("") + (comma ? "," : "") +
      text.slice(pos);
  }
  const indent = indentAt(text, last.offset);
  const added = `${indent}${item(indent)}${comma ? "," : ""}${eol}`;
  const withItem = text.slice(0, at) + added + text.slice(at);
  return comma ? withItem : withItem.slice(0, lastEnd) + "," + withItem.slice(lastEnd);
}

/**
 * Append rules to `approvalRules` of a JSONC config file, keeping its comments and layout;
 * creates the file (and its directory) when missing. Safe when processes save at once: under
 * an exclusive lock (`<file>.lock`) the file is read again, changed, written to a temporary
 * file beside it (synced to disk) and renamed over it, keeping its mode. A symlinked file is
 * written through the link, which stays. Throws an Error with a one-line message naming the
 * file when the lock is not got in time, the file cannot be parsed or cannot be written; the
 * file is then unchanged and no temporary file is left.
 */
export function saveApprovalRules(file: string, rules: Rule[], lock?: FileLockOptions): void {
  try {
    const target = linkTarget(file);
    mkdirSync(dirname(target), { recursive: true });
    withFileLock(target, () => {
      const old = readIfExists(target);
      const text = withApprovalRules(old?.text ?? "{\n}\n", rules, file);
      replaceFile(target, text, old?.mode);
    }, lock);
  } catch (e) {
    const message = (e instanceof Error ? e.message : String(e)).replace(/\s*\n\s*/g, " ");
    throw new Error(
      message.startsWith(`${file}: `) ? message : `${file}: cannot save the approval: ${message}`,
      { cause: e },
    );
  }
}

/** `text` with `rules` appended to its `approvalRules`; throws (naming `file`) if it cannot. */
function withApprovalRules(text: string, rules: Rule[], file: string): string {
  for (const [i, rule] of rules.entries()) {
    const errors: ParseError[] = [];
    const tree = parseTree(text, errors, { allowTrailingComma: true });
    if (!tree || tree.type !== "object" || errors.length) {
      throw new Error(
        `${file}: cannot add the approval, the file does not parse as a JSONC object`,
      );
    }
    const existing = tree.children?.find((p) => p.children?.[0]?.value === "approvalRules")
      ?.children?.[1];
    if (existing && existing.type !== "array") {
      throw new Error(`${file}: "approvalRules" is not an array; fix it before saving approvals`);
    }
    if (existing) {
      text = appendMember(text, existing, () => ruleText(rule));
      continue;
    }
    // No approvalRules yet: add the property with all the remaining rules.
    const rest = rules.slice(i);
    const eol = text.includes("\r\n") ? "\r\n" : "\n";
    return appendMember(text, tree, (indent) => {
      if (!indent) return `"approvalRules": [${rest.map(ruleText).join(", ")}]`;
      const inner = indent + (indent.startsWith("\t") ? "\t" : "  ");
      return `"approvalRules": [${eol}${
        rest.map((r) => inner + ruleText(r)).join(`,${eol}`)
      }${eol}${indent}]`;
    });
  }
  return text;
}

/** The file a symlink chain at `file` ends in (`file` itself when it is no symlink). */
function linkTarget(file: string): string {
  let path = resolve(file);
  for (let hops = 0; hops < 40; hops++) {
    try {
      if (!lstatSync(path).isSymbolicLink()) return path;
    } catch {
      return path; // missing (or a dangling link's end): created here
    }
    path = resolve(dirname(path), readlinkSync(path));
  }
  throw new Error(`too many levels of symbolic links`);
}

function readIfExists(file: string): { text: string; mode: number } | null {
  let fd: number;
  try {
    fd = openSync(file, "r");
  } catch (e) {
    if ((e as { code?: unknown }).code === "ENOENT") return null;
    throw e;
  }
  try {
    return { text: readFileSync(fd, "utf8"), mode: fstatSync(fd).mode & 0o7777 };
  } finally {
    closeSync(fd);
  }
}

/** Replace `file` by `text` at once: a temporary file beside it, synced, renamed over it. */
function replaceFile(file: string, text: string, mode: number | undefined): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    const fd = openSync(tmp, "wx", mode ?? 0o666);
    try {
      if (mode !== undefined) fchmodSync(fd, mode); // exactly, whatever the umask
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
  syncDirectory(dirname(file));
}

/** Make the rename durable too; best effort (directories cannot be opened everywhere). */
function syncDirectory(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported here (Windows): the rename stands, it may just not be on disk yet.
  }
}
