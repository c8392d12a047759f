/**
 * Finding, parsing (JSONC), merging and validating pi-controls config files.
 *
 * Every problem is reported with the file, line and column of the JSON node (or property key)
 * that caused it, so a broken config can fail closed with a precise reason.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { gateFileEntries } from "./gate_files.ts";
import { PROTECTION_RANK } from "./policy/action.ts";
import { expandSafeBash } from "./policy/safe_bash.ts";
import type {
  Action,
  AgentTimeout,
  Config,
  ConfigError,
  ConfigTest,
  DecisionsConfig,
  DefaultAction,
  LocationEntry,
  NudgeTimeout,
  Policy,
  ProtectionAction,
  ProtectionEntry,
  Rule,
} from "./types.ts";

/** The outcome of loading config: no files, broken files, or a merged and validated config. */
export type LoadResult =
  | { status: "absent"; files: [] }
  | { status: "error"; files: string[]; errors: ConfigError[] }
  | { status: "ok"; files: string[]; config: Config; warnings: ConfigError[] };

/** Whether a config file is the global one or belongs to a project. */
type Role = "global" | "project";

/** A config file found on disk, with the role and project root it gets. */
export interface ConfigFileRef {
  file: string;
  role: Role;
  root: string | null;
}

/** A config text in memory, with the role and project root it gets. */
export interface ConfigSource extends ConfigFileRef {
  text: string;
}

const CONFIG_NAMES = ["pi-controls.jsonc", "pi-controls.json"];
const SAFE_BASH = "$safe-bash";

const ACTIONS = ["allow", "nudge", "ask", "deny", "log"] as const;
const DEFAULT_ACTIONS = ["allow", "ask", "deny", "log"] as const;
const PROTECTION_ACTIONS = ["deny", "ask", "log"] as const;
const DECISION_ACTIONS = ["allow", "ask", "deny"] as const;

const TOP_KEYS = [
  "$schema",
  "policies",
  "locations",
  "defaultPolicy",
  "approvalRules",
  "pathProtection",
  "agentTimeout",
  "nudgeTimeout",
  "decisions",
  "tests",
];
const POLICY_KEYS = ["defaultAction", "rules"];
const RULE_KEYS = ["action", "tool", "pattern", "message", "policy"];
const AGENT_TIMEOUT_KEYS = ["maxDenies", "windowSeconds"];
const NUDGE_TIMEOUT_KEYS = ["maxNudges", "windowSeconds"];
const DECISIONS_KEYS = [
  "url",
  "tokenEnv",
  "model",
  "timeoutMs",
  "maxSourceBytes",
  "unavailableAction",
  "errorAction",
  "yesThreshold",
  "noThreshold",
  "choiceConfidence",
  "riskyMassThreshold",
  "backstopThreshold",
  "weights",
];
const WEIGHT_KEYS = [
  "destructive",
  "obfuscated",
  "network",
  "exec",
  "inferenceCall",
  "writeSensitive",
  "writeOutside",
  "writeUnknown",
  "readSensitive",
  "readUnknown",
];
const TEST_KEYS = ["tool", "input", "cwd", "expect"];
const DEFAULT_YES_THRESHOLD = 0.7;
const DEFAULT_NO_THRESHOLD = 0.3;

// ---------------------------------------------------------------------------------------------
// Positioned values: the JSON tree of one file, every node knowing where it was written.

interface FileInfo extends ConfigFileRef {
  /** Position of the file in load order (global first). */
  index: number;
  lineStarts: number[];
}

interface Pos {
  info: FileInfo;
  offset: number;
}

type PValue = PObject | PArray | PScalar;

interface PObject {
  kind: "object";
  /** Every property as written, duplicates included. */
  props: PProp[];
  pos: Pos;
}

interface PProp {
  key: string;
  keyPos: Pos;
  value: PValue;
}

interface PArray {
  kind: "array";
  items: PValue[];
  pos: Pos;
}

interface PScalar {
  kind: "scalar";
  value: string | number | boolean | null;
  pos: Pos;
}

type Seg = string | number;

interface Problem {
  pos: Pos;
  message: string;
}

interface Diag {
  errors: Problem[];
  warnings: Problem[];
}

interface ParsedFile {
  info: FileInfo;
  root: PObject;
}

// ---------------------------------------------------------------------------------------------
// Public API

/** agentDir is $PI_CODING_AGENT_DIR (with ~ expanded) or ~/.pi/agent. */
export function agentDirFrom(env: Record<string, string | undefined>, home: string): string {
  const dir = env.PI_CODING_AGENT_DIR;
  if (dir === undefined || dir.trim() === "") return path.join(home, ".pi", "agent");
  return expandHome(dir, home);
}

/** The global file (<agentDir>/extensions/pi-controls.jsonc, else .json if only that exists) and the project file (walk up from cwd to the nearest <dir>/.pi/extensions/pi-controls.jsonc, else .json in that same dir), existing ones only, global first. */
export function discoverConfigFiles(
  opts: { cwd: string; agentDir: string },
): ConfigFileRef[] {
  const found: ConfigFileRef[] = [];
  const global = firstFile(path.resolve(opts.agentDir, "extensions"));
  if (global !== null) found.push({ file: global, role: "global", root: null });
  let dir = path.resolve(opts.cwd);
  while (true) {
    const project = firstFile(path.join(dir, ".pi", "extensions"));
    if (project !== null) {
      if (global === null || !sameFile(project, global)) {
        found.push({ file: project, role: "project", root: dir });
      }
      break;
    }
    const parent = path.dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return found;
}

/** Where config is loaded from, and for whom. */
export interface LoadOptions {
  cwd: string;
  agentDir: string;
  home: string;
  /** Exactly these files, in order (`--config`); absent: discovery. @default undefined */
  files?: string[];
  /** The file pi-controls' code was loaded from: protected as one of the gate's files. */
  codeFile?: string;
}

/** Load, parse, merge and validate. With opts.files given, exactly those files are used in that order (later wins, like project over global); an explicit file that does not exist is an error (status "error", message says the file does not exist). Without files: discovery as above; no files found -> status "absent". */
export function loadConfig(opts: LoadOptions): LoadResult {
  const refs = opts.files === undefined
    ? discoverConfigFiles(opts)
    : opts.files.map((f) => explicitRef(f, opts));
  if (refs.length === 0) return { status: "absent", files: [] };
  const sources: ConfigSource[] = [];
  const readErrors: ConfigError[] = [];
  for (const ref of refs) {
    const text = readConfigText(ref.file, readErrors);
    if (text !== null) sources.push({ ...ref, text });
  }
  const files = refs.map((r) => r.file);
  if (readErrors.length > 0) {
    const rest = loadConfigTexts(sources, { home: opts.home });
    const errors = rest.status === "error" ? [...readErrors, ...rest.errors] : readErrors;
    return { status: "error", files, errors };
  }
  const builtins = gateFileEntries({ agentDir: opts.agentDir, codeFile: opts.codeFile });
  return loadConfigTexts(sources, { home: opts.home, builtins });
}

/** Parse+validate config texts already in memory (used by loadConfig and by tests). */
export function loadConfigTexts(
  sources: ConfigSource[],
  opts: { home: string; builtins?: ProtectionEntry[] },
): LoadResult {
  const files = sources.map((s) => s.file);
  if (sources.length === 0) return { status: "absent", files: [] };
  const d: Diag = { errors: [], warnings: [] };
  const parsed: ParsedFile[] = [];
  sources.forEach((s, index) => {
    const file = parseFile(s, index, d);
    if (file !== null) parsed.push(file);
  });
  if (d.errors.length > 0) return { status: "error", files, errors: toConfigErrors(d.errors) };
  for (const p of parsed) {
    checkDuplicates(p.root, [], d);
    validateFile(p, d);
  }
  const merged = mergeFiles(parsed);
  validateMerged(merged, parsed, d);
  warnSameDirectory(merged, opts.home, d);
  if (d.errors.length > 0) return { status: "error", files, errors: toConfigErrors(d.errors) };
  const config = buildConfig(merged, parsed, files, opts.builtins ?? []);
  return { status: "ok", files, config, warnings: toConfigErrors(d.warnings) };
}

/** Render one error as `file:line:col: message`. */
export function formatConfigError(e: ConfigError): string {
  return `${e.file}:${e.line}:${e.column}: ${e.message}`;
}

// ---------------------------------------------------------------------------------------------
// Files on disk

function firstFile(dir: string): string | null {
  for (const name of CONFIG_NAMES) {
    const file = path.join(dir, name);
    if (isFile(file)) return file;
  }
  return null;
}

function isFile(file: string): boolean {
  try {
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}

function sameFile(a: string, b: string): boolean {
  try {
    return fs.realpathSync(a) === fs.realpathSync(b);
  } catch {
    return path.resolve(a) === path.resolve(b);
  }
}

function expandHome(p: string, home: string): string {
  if (p === "~") return home;
  if (p.startsWith("~/")) return path.join(home, p.slice(2));
  return p;
}

/** The role and root of a file named explicitly (`--config`). */
function explicitRef(
  f: string,
  opts: { cwd: string; agentDir: string; home: string },
): ConfigFileRef {
  const file = path.resolve(opts.cwd, expandHome(f, opts.home));
  const globalDir = path.resolve(opts.cwd, opts.agentDir, "extensions");
  if (CONFIG_NAMES.some((n) => path.join(globalDir, n) === file)) {
    return { file, role: "global", root: null };
  }
  const dir = path.dirname(file);
  if (path.basename(dir) === "extensions" && path.basename(path.dirname(dir)) === ".pi") {
    return { file, role: "project", root: path.dirname(path.dirname(dir)) };
  }
  return { file, role: "project", root: dir };
}

function readConfigText(file: string, errors: ConfigError[]): string | null {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (e) {
    const code = (e as { code?: string }).code;
    const message = code === "ENOENT" || code === "ENOTDIR"
      ? "config file does not exist"
      : `cannot read config file: ${e instanceof Error ? e.message : String(e)}`;
    errors.push({ file, line: 1, column: 1, message });
    return null;
  }
  if (!stat.isFile()) {
    errors.push({ file, line: 1, column: 1, message: "config path is not a regular file" });
    return null;
  }
  try {
    return fs.readFileSync(file, "utf8");
  } catch (e) {
    const reason = e instanceof Error ? e.message : String(e);
    errors.push({ file, line: 1, column: 1, message: `cannot read config file: ${reason}` });
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Parsing

const PARSE_ERROR_TEXT: Record<string, string> = {
  InvalidSymbol: "unexpected character",
  InvalidNumberFormat: "invalid number",
  PropertyNameExpected: 'expected a property name in double quotes (e.g. "policies")',
  ValueExpected: "expected a value",
  ColonExpected: "expected a colon (:) after the property name",
  CommaExpected: "expected a comma (,) between entries",
  CloseBraceExpected: "expected a closing brace (})",
  CloseBracketExpected: "expected a closing bracket (])",
  EndOfFileExpected: "expected the end of the file (only one top-level value is allowed)",
  InvalidCommentToken: "invalid comment",
  UnexpectedEndOfComment: "unterminated block comment (missing */)",
  UnexpectedEndOfString: "unterminated string (missing closing quote)",
  UnexpectedEndOfNumber: "unterminated number",
  InvalidUnicode: "invalid unicode escape",
  InvalidEscapeCharacter: "invalid escape character in string",
  InvalidCharacter: "invalid character in string (control characters must be escaped)",
};

function parseFile(s: ConfigSource, index: number, d: Diag): ParsedFile | null {
  const text = s.text.startsWith("\uFEFF") ? s.text.slice(1) : s.text;
  const info: FileInfo = {
    file: s.file,
    role: s.role,
    root: s.root,
    index,
    lineStarts: lineStarts(text),
  };
  const parseErrors: ParseError[] = [];
  const tree = parseTree(text, parseErrors, { allowTrailingComma: true, disallowComments: false });
  if (tree === undefined) {
    const onlyEmpty = parseErrors.every((e) => printParseErrorCode(e.error) === "ValueExpected");
    if (onlyEmpty) {
      err(
        d,
        { info, offset: 0 },
        'the config file is empty; expected an object such as { "policies": { … } }',
      );
      return null;
    }
  }
  if (parseErrors.length > 0) {
    const seen = new Set<number>();
    for (const e of parseErrors) {
      if (seen.has(e.offset)) continue;
      seen.add(e.offset);
      const code = printParseErrorCode(e.error);
      const text = PARSE_ERROR_TEXT[code] ?? "invalid JSON";
      err(d, { info, offset: e.offset }, `syntax error: ${text} (${code})`);
    }
    return null;
  }
  if (tree === undefined) return null;
  const root = toPValue(tree, info);
  if (root.kind !== "object") {
    err(
      d,
      root.pos,
      `the top level of a config file must be an object ({ … }), found ${describe(root)}`,
    );
    return null;
  }
  return { info, root };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13) {
      if (text.charCodeAt(i + 1) === 10) i++;
      starts.push(i + 1);
    }
  }
  return starts;
}

function lineCol(pos: Pos): { line: number; column: number } {
  const starts = pos.info.lineStarts;
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= pos.offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, column: pos.offset - starts[lo] + 1 };
}

function toPValue(node: Node, info: FileInfo): PValue {
  const pos = { info, offset: node.offset };
  if (node.type === "object") {
    const props: PProp[] = [];
    for (const prop of node.children ?? []) {
      const [keyNode, valueNode] = prop.children ?? [];
      if (keyNode === undefined || valueNode === undefined) continue;
      props.push({
        key: String(keyNode.value),
        keyPos: { info, offset: keyNode.offset },
        value: toPValue(valueNode, info),
      });
    }
    return { kind: "object", props, pos };
  }
  if (node.type === "array") {
    return { kind: "array", items: (node.children ?? []).map((c) => toPValue(c, info)), pos };
  }
  return { kind: "scalar", value: node.type === "null" ? null : node.value, pos };
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function err(d: Diag, pos: Pos, message: string): void {
  d.errors.push({ pos, message });
}

function toConfigErrors(problems: Problem[]): ConfigError[] {
  return [...problems]
    .sort((a, b) => a.pos.info.index - b.pos.info.index || a.pos.offset - b.pos.offset)
    .map((p) => ({ file: p.pos.info.file, ...lineCol(p.pos), message: p.message }));
}

function fmtPath(segs: readonly Seg[]): string {
  let out = "";
  for (const s of segs) {
    if (typeof s === "number") out += `[${s}]`;
    else if (/^[A-Za-z_$][\w$-]*$/.test(s)) out += out === "" ? s : `.${s}`;
    else out += `[${JSON.stringify(s)}]`;
  }
  return out;
}

/** The `path: ` prefix of a message, empty at the top level. */
function at(segs: readonly Seg[]): string {
  return segs.length === 0 ? "" : `${fmtPath(segs)}: `;
}

function q(s: string): string {
  return JSON.stringify(s);
}

function list(items: readonly string[]): string {
  return items.map(q).join(", ");
}

function describe(v: PValue): string {
  if (v.kind === "object") return "an object";
  if (v.kind === "array") return "an array";
  if (v.value === null) return "null";
  if (typeof v.value === "string") {
    const s = v.value.length > 40 ? `${v.value.slice(0, 40)}…` : v.value;
    return `a string (${q(s)})`;
  }
  return `a ${typeof v.value} (${String(v.value)})`;
}

/** The property that counts for a key (the last one written). */
function get(obj: PObject, key: string): PProp | undefined {
  for (let i = obj.props.length - 1; i >= 0; i--) {
    if (obj.props[i].key === key) return obj.props[i];
  }
  return undefined;
}

/** Properties that count (the last of each key), in first-written order. */
function effective(obj: PObject): PProp[] {
  const map = new Map<string, PProp>();
  for (const p of obj.props) map.set(p.key, p);
  return [...map.values()];
}

function str(v: PValue | undefined): string | undefined {
  return v?.kind === "scalar" && typeof v.value === "string" ? v.value : undefined;
}

function num(v: PValue | undefined): number | undefined {
  return v?.kind === "scalar" && typeof v.value === "number" ? v.value : undefined;
}

/** Optimal string alignment distance (edits and adjacent transpositions). */
function editDistance(a: string, b: string): number {
  const d: number[][] = [];
  for (let i = 0; i <= a.length; i++) d.push([i, ...new Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The closest candidate: same spelling ignoring case, or at most 2 edits away. */
function suggest(word: string, candidates: Iterable<string>): string | undefined {
  const all = [...candidates];
  const lower = word.toLowerCase();
  const sameCase = all.find((c) => c.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  let best: string | undefined;
  let bestDistance = 3;
  for (const c of all) {
    const dist = editDistance(lower, c.toLowerCase());
    if (dist < bestDistance && dist < c.length) {
      best = c;
      bestDistance = dist;
    }
  }
  return best;
}

function didYouMean(word: string, candidates: Iterable<string>): string {
  const s = suggest(word, candidates);
  return s === undefined ? "" : `; did you mean ${q(s)}?`;
}

// ---------------------------------------------------------------------------------------------
// Per-file validation: types, allowed keys and values, where they were written

/**
 * A key written twice in one object is an error at the second one: which of the two counts is
 * invisible in the file, and a later `"action": "allow"` could quietly undo a deny above it.
 */
function checkDuplicates(v: PValue, segs: Seg[], d: Diag): void {
  if (v.kind === "array") {
    v.items.forEach((item, i) => checkDuplicates(item, [...segs, i], d));
    return;
  }
  if (v.kind !== "object") return;
  const first = new Map<string, PProp>();
  for (const p of v.props) {
    const prev = first.get(p.key);
    if (prev === undefined) {
      first.set(p.key, p);
      continue;
    }
    const { line, column } = lineCol(prev.keyPos);
    err(
      d,
      p.keyPos,
      `${at(segs)}duplicate key ${q(p.key)} (first at line ${line}:${column}); ` +
        `a key may appear once in an object, remove one of them`,
    );
  }
  for (const p of v.props) checkDuplicates(p.value, [...segs, p.key], d);
}

function checkKeys(obj: PObject, allowed: readonly string[], segs: Seg[], d: Diag): void {
  for (const p of obj.props) {
    if (allowed.includes(p.key)) continue;
    const where = segs.length === 0 ? "unknown top-level key" : `${at(segs)}unknown key`;
    err(
      d,
      p.keyPos,
      `${where} ${q(p.key)} (allowed keys: ${list(allowed)})${didYouMean(p.key, allowed)}`,
    );
  }
}

function expectObject(v: PValue, segs: Seg[], d: Diag, what = "an object"): PObject | undefined {
  if (v.kind === "object") return v;
  err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
  return undefined;
}

function expectArray(v: PValue, segs: Seg[], d: Diag, what = "an array"): PArray | undefined {
  if (v.kind === "array") return v;
  err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
  return undefined;
}

function expectString(v: PValue, segs: Seg[], d: Diag, what: string): string | undefined {
  const s = str(v);
  if (s === undefined) {
    err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
    return undefined;
  }
  if (s.trim() === "") {
    err(d, v.pos, `${at(segs)}must not be empty; expected ${what}`);
    return undefined;
  }
  return s;
}

function expectEnum(
  v: PValue,
  allowed: readonly string[],
  segs: Seg[],
  d: Diag,
  what: string,
  hint?: (s: string) => string | undefined,
): string | undefined {
  const s = str(v);
  if (s === undefined) {
    err(d, v.pos, `${at(segs)}expected one of ${list(allowed)}, found ${describe(v)}`);
    return undefined;
  }
  if (allowed.includes(s)) return s;
  const extra = hint?.(s);
  err(
    d,
    v.pos,
    `${at(segs)}${q(s)} is not a valid ${what}${extra === undefined ? "" : ` (${extra})`}; ` +
      `expected one of ${list(allowed)}${didYouMean(s, allowed)}`,
  );
  return undefined;
}

type NumberKind = "positiveInteger" | "positive" | "nonNegative" | "unit";

const NUMBER_TEXT: Record<NumberKind, string> = {
  positiveInteger: "a positive integer",
  positive: "a positive number",
  nonNegative: "a non-negative number",
  unit: "a number from 0 to 1",
};

function expectNumber(v: PValue, kind: NumberKind, segs: Seg[], d: Diag): number | undefined {
  const n = num(v);
  const what = NUMBER_TEXT[kind];
  if (n === undefined) {
    err(d, v.pos, `${at(segs)}expected ${what}, found ${describe(v)}`);
    return undefined;
  }
  const ok = Number.isFinite(n) &&
    (kind === "positiveInteger"
      ? Number.isInteger(n) && n > 0
      : kind === "positive"
      ? n > 0
      : kind === "nonNegative"
      ? n >= 0
      : n >= 0 && n <= 1);
  if (!ok) {
    err(d, v.pos, `${at(segs)}${n} is out of range; expected ${what}`);
    return undefined;
  }
  return n;
}

function validateFile(file: ParsedFile, d: Diag): void {
  const root = file.root;
  checkKeys(root, TOP_KEYS, [], d);
  for (const p of effective(root)) {
    const segs = [p.key];
    const v = p.value;
    switch (p.key) {
      case "$schema":
        // (Read by editors only, but a wrong type is still a mistake in the file.)
        expectString(v, segs, d, "the path or URL of a JSON Schema (a string)");
        break;
      case "policies":
        checkPolicies(v, segs, d);
        break;
      case "locations":
        checkLocations(v, segs, file.info, d);
        break;
      case "defaultPolicy":
        if (!(v.kind === "scalar" && v.value === null)) {
          expectString(v, segs, d, "a policy name (a string) or null");
        }
        break;
      case "approvalRules": {
        const arr = expectArray(v, segs, d, "an array of rules");
        arr?.items.forEach((item, i) => checkRuleEntry(item, [...segs, i], true, d));
        break;
      }
      case "pathProtection":
        checkProtection(v, segs, d);
        break;
      case "agentTimeout":
        checkTimeout(v, segs, AGENT_TIMEOUT_KEYS, d);
        break;
      case "nudgeTimeout":
        checkTimeout(v, segs, NUDGE_TIMEOUT_KEYS, d);
        break;
      case "decisions":
        checkDecisions(v, segs, d);
        break;
      case "tests": {
        const arr = expectArray(v, segs, d, "an array of tests");
        arr?.items.forEach((item, i) => checkTest(item, [...segs, i], d));
        break;
      }
    }
  }
}

function checkPolicies(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(v, segs, d, "an object mapping policy names to policies");
  if (obj === undefined) return;
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    if (p.key.trim() === "") {
      err(d, p.keyPos, `${at(segs)}a policy name must not be empty`);
    }
    const policy = expectObject(
      p.value,
      ps,
      d,
      'a policy object ({ "defaultAction": …, "rules": [] })',
    );
    if (policy === undefined) continue;
    checkKeys(policy, POLICY_KEYS, ps, d);
    const def = get(policy, "defaultAction");
    if (def !== undefined) {
      expectEnum(
        def.value,
        DEFAULT_ACTIONS,
        [...ps, "defaultAction"],
        d,
        "defaultAction",
        (s) => s === "nudge" ? "nudge needs a message, use it on a rule" : undefined,
      );
    }
    const rules = get(policy, "rules");
    if (rules !== undefined) {
      const rs = [...ps, "rules"];
      const arr = expectArray(rules.value, rs, d, `an array of rules (or ${q(SAFE_BASH)})`);
      arr?.items.forEach((item, i) => checkRuleEntry(item, [...rs, i], false, d));
    }
  }
}

function checkRuleEntry(v: PValue, segs: Seg[], approval: boolean, d: Diag): void {
  if (v.kind === "object") {
    checkRule(v, segs, approval, d);
    return;
  }
  const s = str(v);
  if (s === SAFE_BASH) return;
  if (s !== undefined) {
    err(
      d,
      v.pos,
      `${at(segs)}${q(s)} is not a valid rule; the only string allowed in a rules array is ` +
        `${q(SAFE_BASH)}, anything else must be a rule object${didYouMean(s, [SAFE_BASH])}`,
    );
    return;
  }
  err(
    d,
    v.pos,
    `${at(segs)}expected a rule object ({ "action": …, "tool": … }) or ${q(SAFE_BASH)}, ` +
      `found ${describe(v)}`,
  );
}

function checkRule(rule: PObject, segs: Seg[], approval: boolean, d: Diag): void {
  checkKeys(rule, RULE_KEYS, segs, d);
  const actionProp = get(rule, "action");
  const toolProp = get(rule, "tool");
  const patternProp = get(rule, "pattern");
  const messageProp = get(rule, "message");
  const policyProp = get(rule, "policy");
  let action: string | undefined;
  if (actionProp === undefined) {
    err(d, rule.pos, `${at(segs)}missing "action"; a rule needs one of ${list(ACTIONS)}`);
  } else {
    action = expectEnum(actionProp.value, ACTIONS, [...segs, "action"], d, "action");
  }
  let tool: string | undefined;
  if (toolProp === undefined) {
    err(
      d,
      rule.pos,
      `${at(segs)}missing "tool"; a rule needs a tool name or glob (e.g. "bash", "github_*", "*")`,
    );
  } else {
    tool = expectString(
      toolProp.value,
      [...segs, "tool"],
      d,
      'a tool name or glob (e.g. "bash", "*")',
    );
  }
  let safeBash = false;
  if (patternProp !== undefined) {
    const ps = [...segs, "pattern"];
    const pattern = str(patternProp.value);
    if (pattern === undefined) {
      err(
        d,
        patternProp.value.pos,
        `${at(ps)}expected a command glob (a string), found ${describe(patternProp.value)}`,
      );
    } else if (pattern === SAFE_BASH) {
      safeBash = true;
      if (tool !== undefined && tool !== "bash") {
        err(
          d,
          patternProp.value.pos,
          `${at(ps)}${q(SAFE_BASH)} only applies to tool "bash", ` +
            `but this rule's tool is ${q(tool)}`,
        );
      }
      if (action === "nudge") {
        err(
          d,
          actionProp!.value.pos,
          `${at([...segs, "action"])}a ${q(SAFE_BASH)} rule cannot be "nudge" ` +
            `(its rules carry no message); expected one of ${list(DEFAULT_ACTIONS)}`,
        );
      }
    } else if (tool !== undefined && tool !== "bash") {
      err(
        d,
        patternProp.keyPos,
        `${at(ps)}pattern is only evaluated for bash, but this rule's tool is ${q(tool)}; ` +
          `remove "pattern" or set "tool" to "bash"`,
      );
    }
  }
  if (messageProp !== undefined) {
    const ms = [...segs, "message"];
    if (action === "nudge") expectString(messageProp.value, ms, d, "a message (a string)");
    else if (str(messageProp.value) === undefined) {
      err(
        d,
        messageProp.value.pos,
        `${at(ms)}expected a string, found ${describe(messageProp.value)}`,
      );
    }
  } else if (action === "nudge" && !safeBash) {
    err(
      d,
      rule.pos,
      `${at(segs)}missing "message"; a "nudge" rule needs the message to show the agent`,
    );
  }
  if (policyProp !== undefined) {
    if (!approval) {
      err(
        d,
        policyProp.keyPos,
        `${at([...segs, "policy"])}"policy" is only allowed in approvalRules; ` +
          `a rule inside a policy already belongs to that policy`,
      );
    } else {
      expectString(policyProp.value, [...segs, "policy"], d, "a policy name (a string)");
    }
  }
}

function checkLocations(v: PValue, segs: Seg[], info: FileInfo, d: Diag): void {
  const obj = expectObject(v, segs, d, "an object mapping paths to policy names");
  if (obj === undefined) return;
  for (const p of effective(obj)) {
    const ks = [...segs, p.key];
    const key = p.key;
    if (key.trim() === "") {
      err(
        d,
        p.keyPos,
        `${at(segs)}a location key must not be empty; write "$cwd", "/…", "~/…" or a relative path`,
      );
    } else if (key.startsWith("$") && key !== "$cwd" && !key.startsWith("$cwd/")) {
      err(
        d,
        p.keyPos,
        `${at(segs)}${q(key)} uses an unknown variable; the only one allowed is "$cwd" ` +
          `("$cwd" or "$cwd/…")${didYouMean(key.split("/")[0], ["$cwd"])}`,
      );
    } else if (key.startsWith("~") && key !== "~" && !key.startsWith("~/")) {
      err(
        d,
        p.keyPos,
        `${at(segs)}${q(key)} is not supported; write "~", "~/…" or an absolute path`,
      );
    } else if (isRelativeKey(key) && info.role === "global") {
      err(
        d,
        p.keyPos,
        `${at(segs)}${q(key)} is relative; relative location keys are only allowed in a project ` +
          `config; write an absolute path or ~/…`,
      );
    }
    expectString(p.value, ks, d, "a policy name (a string)");
  }
}

function isRelativeKey(key: string): boolean {
  return !(key.startsWith("/") || key === "~" || key.startsWith("~/") || key === "$cwd" ||
    key.startsWith("$cwd/"));
}

function checkProtection(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(v, segs, d, 'an object mapping path globs to "deny", "ask" or "log"');
  if (obj === undefined) return;
  for (const p of obj.props) {
    if (p.key.trim() === "") {
      err(d, p.keyPos, `${at(segs)}a pathProtection glob must not be empty`);
    }
    expectEnum(
      p.value,
      PROTECTION_ACTIONS,
      [...segs, p.key],
      d,
      "pathProtection action",
      (s) =>
        s === "allow"
          ? "pathProtection only protects; to leave a path unprotected, leave it out"
          : undefined,
    );
  }
}

function checkTimeout(v: PValue, segs: Seg[], keys: string[], d: Diag): void {
  if (v.kind === "scalar" && v.value === null) return;
  const obj = expectObject(v, segs, d, `null or an object with ${list(keys)}`);
  if (obj === undefined) return;
  checkKeys(obj, keys, segs, d);
  for (const p of effective(obj)) {
    if (!keys.includes(p.key)) continue;
    expectNumber(p.value, p.key === "windowSeconds" ? "positive" : "positiveInteger", [
      ...segs,
      p.key,
    ], d);
  }
}

function checkDecisions(v: PValue, segs: Seg[], d: Diag): void {
  if (v.kind === "scalar" && v.value === null) return;
  const obj = expectObject(v, segs, d, "null or an object");
  if (obj === undefined) return;
  checkKeys(obj, DECISIONS_KEYS, segs, d);
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    switch (p.key) {
      case "url": {
        const s = expectString(p.value, ps, d, "an http or https URL (a string)");
        if (s !== undefined && !isHttpUrl(s)) {
          err(d, p.value.pos, `${at(ps)}${q(s)} is not an http or https URL`);
        } else if (s !== undefined && hasCredentials(s)) {
          err(
            d,
            p.value.pos,
            `${at(ps)}must not carry a user name or password; the token is read from the ` +
              `environment variable named by "tokenEnv"`,
          );
        }
        break;
      }
      case "tokenEnv": {
        const s = expectString(p.value, ps, d, "an environment variable name (a string)");
        if (s !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(s)) {
          err(
            d,
            p.value.pos,
            `${at(ps)}${q(s)} is not an environment variable name; expected letters, digits and ` +
              `_ (not starting with a digit), e.g. "OPENROUTER_API_KEY"; the token itself never goes in the config`,
          );
        }
        break;
      }
      case "model":
        expectString(p.value, ps, d, "a model name (a string)");
        break;
      case "timeoutMs": {
        // Timers overflow above 2^31-1 ms and would then fire at once.
        const n = expectNumber(p.value, "positiveInteger", ps, d);
        if (n !== undefined && n > MAX_TIMEOUT_MS) {
          err(d, p.value.pos, `${at(ps)}${n} is out of range; expected at most ${MAX_TIMEOUT_MS}`);
        }
        break;
      }
      case "maxSourceBytes":
        expectNumber(p.value, "positiveInteger", ps, d);
        break;
      case "unavailableAction":
      case "errorAction":
        expectEnum(p.value, DECISION_ACTIONS, ps, d, p.key);
        break;
      case "yesThreshold":
      case "noThreshold":
      case "choiceConfidence":
      case "riskyMassThreshold":
        expectNumber(p.value, "unit", ps, d);
        break;
      case "backstopThreshold":
        expectNumber(p.value, "nonNegative", ps, d);
        break;
      case "weights": {
        const weights = expectObject(p.value, ps, d, "an object mapping signal names to numbers");
        if (weights === undefined) break;
        checkKeys(weights, WEIGHT_KEYS, ps, d);
        for (const w of effective(weights)) {
          if (WEIGHT_KEYS.includes(w.key)) expectNumber(w.value, "nonNegative", [...ps, w.key], d);
        }
        break;
      }
    }
  }
}

const MAX_TIMEOUT_MS = 2147483647;

function hasCredentials(s: string): boolean {
  try {
    const u = new URL(s);
    return u.username !== "" || u.password !== "";
  } catch {
    return false;
  }
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

function checkTest(v: PValue, segs: Seg[], d: Diag): void {
  const obj = expectObject(v, segs, d, 'a test object ({ "tool": …, "input": {…}, "expect": … })');
  if (obj === undefined) return;
  checkKeys(obj, TEST_KEYS, segs, d);
  for (const key of ["tool", "input", "expect"]) {
    if (get(obj, key) === undefined) {
      err(d, obj.pos, `${at(segs)}missing ${q(key)}; a test needs "tool", "input" and "expect"`);
    }
  }
  for (const p of effective(obj)) {
    const ps = [...segs, p.key];
    if (p.key === "tool") expectString(p.value, ps, d, "a tool name (a string)");
    else if (p.key === "input") expectObject(p.value, ps, d, "an object (the tool's input)");
    else if (p.key === "cwd") expectString(p.value, ps, d, "a directory (a string)");
    else if (p.key === "expect") expectEnum(p.value, ACTIONS, ps, d, "expected action");
  }
}

// ---------------------------------------------------------------------------------------------
// Merging and the checks that need the merged config

function mergeValue(a: PValue, b: PValue): PValue {
  if (a.kind !== "object" || b.kind !== "object") return b;
  const map = new Map<string, PProp>();
  for (const p of effective(a)) map.set(p.key, p);
  for (const p of effective(b)) {
    const prev = map.get(p.key);
    map.set(
      p.key,
      prev === undefined
        ? p
        : { key: p.key, keyPos: p.keyPos, value: mergeValue(prev.value, p.value) },
    );
  }
  return { kind: "object", props: [...map.values()], pos: b.pos };
}

/** The deep merge of all files (arrays replace; approvalRules, tests, pathProtection are read per file). */
function mergeFiles(files: ParsedFile[]): PObject {
  let merged: PObject | undefined;
  for (const f of files) {
    merged = merged === undefined ? f.root : mergeValue(merged, f.root) as PObject;
  }
  return merged!;
}

/** Every element of a top-level array, from every file in order, with its index in that file. */
function perFileItems(files: ParsedFile[], key: string): { item: PValue; index: number }[] {
  const out: { item: PValue; index: number }[] = [];
  for (const f of files) {
    const v = get(f.root, key)?.value;
    if (v?.kind === "array") v.items.forEach((item, index) => out.push({ item, index }));
  }
  return out;
}

function validateMerged(merged: PObject, files: ParsedFile[], d: Diag): void {
  const policiesValue = get(merged, "policies")?.value;
  const policies = policiesValue?.kind === "object" ? effective(policiesValue) : [];
  const names = policies.map((p) => p.key).filter((k) => k.trim() !== "");
  const exists = (name: string, pos: Pos, segs: Seg[]) => {
    if (names.includes(name)) return;
    const known = names.length === 0
      ? "no policies are defined"
      : `defined policies: ${list(names)}`;
    err(d, pos, `${at(segs)}policy ${q(name)} does not exist (${known})${didYouMean(name, names)}`);
  };

  for (const p of policies) {
    if (p.value.kind !== "object") continue;
    const ps = ["policies", p.key];
    if (get(p.value, "defaultAction") === undefined) {
      err(
        d,
        p.keyPos,
        `${at(ps)}missing "defaultAction"; a policy needs one of ${list(DEFAULT_ACTIONS)}`,
      );
    }
    if (get(p.value, "rules") === undefined) {
      err(
        d,
        p.keyPos,
        `${at(ps)}missing "rules"; a policy needs a rules array (it may be empty: [])`,
      );
    }
  }

  const locations = get(merged, "locations")?.value;
  if (locations?.kind === "object") {
    for (const p of effective(locations)) {
      const name = str(p.value);
      if (name !== undefined && name.trim() !== "") exists(name, p.value.pos, ["locations", p.key]);
    }
  }

  const defaultPolicy = str(get(merged, "defaultPolicy")?.value);
  if (defaultPolicy !== undefined && defaultPolicy.trim() !== "") {
    exists(defaultPolicy, get(merged, "defaultPolicy")!.value.pos, ["defaultPolicy"]);
  }

  for (const { item, index } of perFileItems(files, "approvalRules")) {
    if (item.kind !== "object") continue;
    const policy = get(item, "policy");
    const name = str(policy?.value);
    if (name !== undefined && name.trim() !== "") {
      exists(name, policy!.value.pos, ["approvalRules", index, "policy"]);
    }
  }

  const timeouts: [string, string[]][] = [
    ["agentTimeout", AGENT_TIMEOUT_KEYS],
    ["nudgeTimeout", NUDGE_TIMEOUT_KEYS],
  ];
  for (const [key, keys] of timeouts) {
    const prop = get(merged, key);
    if (prop?.value.kind !== "object") continue;
    for (const k of keys) {
      if (get(prop.value, k) === undefined) {
        err(
          d,
          prop.keyPos,
          `${at([key])}missing ${q(k)}; ${key} needs both ${q(keys[0])} and ${q(keys[1])}`,
        );
      }
    }
  }

  const decisions = get(merged, "decisions")?.value;
  if (decisions?.kind === "object") {
    const yes = get(decisions, "yesThreshold")?.value;
    const no = get(decisions, "noThreshold")?.value;
    const yesN = yes === undefined ? DEFAULT_YES_THRESHOLD : num(yes);
    const noN = no === undefined ? DEFAULT_NO_THRESHOLD : num(no);
    const inUnit = (n: number | undefined) => n !== undefined && n >= 0 && n <= 1;
    if ((yes !== undefined || no !== undefined) && inUnit(yesN) && inUnit(noN) && noN! > yesN!) {
      const pos = (no ?? yes)!.pos;
      const yesText = yes === undefined ? `${yesN} (the default)` : `${yesN}`;
      const noText = no === undefined ? `${noN} (the default)` : `${noN}`;
      err(
        d,
        pos,
        `${at(["decisions", no !== undefined ? "noThreshold" : "yesThreshold"])}noThreshold ` +
          `${noText} is above yesThreshold ${yesText}; noThreshold must be ≤ yesThreshold`,
      );
    }
  }
}

/**
 * Warn when two location keys name the same directory with different policies ("~/work" and
 * "/home/me/work"): the longest-match rule cannot tell them apart, so which one wins is accidental.
 */
function warnSameDirectory(merged: PObject, home: string, d: Diag): void {
  const locations = get(merged, "locations")?.value;
  if (locations?.kind !== "object") return;
  const seen = new Map<string, PProp>();
  for (const p of effective(locations)) {
    const key = p.key;
    if (key === "$cwd" || key.startsWith("$cwd/")) continue;
    const base = baseOf(p.value.pos.info);
    let dir: string;
    if (key === "~" || key.startsWith("~/")) dir = path.resolve(expandHome(key, home));
    else if (key.startsWith("/")) dir = path.resolve(key);
    else if (base !== null) dir = path.resolve(base, key);
    else continue;
    const prev = seen.get(dir);
    if (prev === undefined) {
      seen.set(dir, p);
      continue;
    }
    if (str(prev.value) === str(p.value)) continue;
    const { line, column } = lineCol(prev.keyPos);
    d.warnings.push({
      pos: p.keyPos,
      message: `${at(["locations", key])}names the same directory (${dir}) as ${q(prev.key)} ` +
        `(${prev.keyPos.info.file}:${line}:${column}) but maps it to another policy; ` +
        `only one of them can apply, keep one`,
    });
  }
}

// ---------------------------------------------------------------------------------------------
// Building the Config (only called when there are no errors)

function plain(v: PValue): unknown {
  if (v.kind === "scalar") return v.value;
  if (v.kind === "array") return v.items.map(plain);
  const out: Record<string, unknown> = {};
  for (const p of effective(v)) setOwn(out, p.key, plain(p.value));
  return out;
}

/** Set an own property even for keys like "__proto__", which plain assignment would not create. */
function setOwn<T>(obj: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

function baseOf(info: FileInfo): string | null {
  return info.role === "global" ? null : info.root;
}

function buildRules(items: PValue[]): Rule[] {
  const rules: Rule[] = [];
  for (const item of items) {
    if (item.kind !== "object") {
      rules.push(...expandSafeBash("allow"));
      continue;
    }
    const action = str(get(item, "action")?.value) as Action;
    const pattern = str(get(item, "pattern")?.value);
    const policy = str(get(item, "policy")?.value);
    if (pattern === SAFE_BASH) {
      const expanded = expandSafeBash(action);
      rules.push(...(policy === undefined ? expanded : expanded.map((r) => ({ ...r, policy }))));
      continue;
    }
    const rule: Rule = { action, tool: str(get(item, "tool")?.value)! };
    if (pattern !== undefined) rule.pattern = pattern;
    const message = str(get(item, "message")?.value);
    if (message !== undefined) rule.message = message;
    if (policy !== undefined) rule.policy = policy;
    rules.push(rule);
  }
  return rules;
}

function buildConfig(
  merged: PObject,
  files: ParsedFile[],
  fileNames: string[],
  builtins: ProtectionEntry[],
): Config {
  const policies: Record<string, Policy> = {};
  const policiesValue = get(merged, "policies")?.value;
  if (policiesValue?.kind === "object") {
    for (const p of effective(policiesValue)) {
      const policy = p.value as PObject;
      const rules = get(policy, "rules")!.value as PArray;
      setOwn(policies, p.key, {
        defaultAction: str(get(policy, "defaultAction")!.value) as DefaultAction,
        rules: buildRules(rules.items),
      });
    }
  }

  const locations: LocationEntry[] = [];
  const locationsValue = get(merged, "locations")?.value;
  if (locationsValue?.kind === "object") {
    for (const p of effective(locationsValue)) {
      const info = p.value.pos.info;
      locations.push({ key: p.key, policy: str(p.value)!, base: baseOf(info), file: info.file });
    }
  }

  const protection = new Map<string, ProtectionEntry>();
  for (const f of files) {
    const v = get(f.root, "pathProtection")?.value;
    if (v?.kind !== "object") continue;
    for (const p of v.props) {
      const action = str(p.value) as ProtectionAction;
      const prev = protection.get(p.key);
      if (prev === undefined || PROTECTION_RANK[action] > PROTECTION_RANK[prev.action]) {
        protection.set(p.key, { glob: p.key, action, base: baseOf(f.info), file: f.info.file });
      }
    }
  }

  const approvalRules = buildRules(perFileItems(files, "approvalRules").map((x) => x.item));

  const tests: ConfigTest[] = perFileItems(files, "tests").map(({ item }) => {
    const obj = item as PObject;
    const test: ConfigTest = {
      tool: str(get(obj, "tool")!.value)!,
      input: plain(get(obj, "input")!.value) as Record<string, unknown>,
      expect: str(get(obj, "expect")!.value) as Action,
    };
    const cwd = str(get(obj, "cwd")?.value);
    if (cwd !== undefined) test.cwd = cwd;
    return test;
  });

  const orNull = <T>(key: string): T | null => {
    const v = get(merged, key)?.value;
    return v === undefined ? null : plain(v) as T | null;
  };

  return {
    policies,
    locations,
    defaultPolicy: orNull<string>("defaultPolicy"),
    approvalRules,
    pathProtection: [...protection.values(), ...builtins],
    agentTimeout: orNull<AgentTimeout>("agentTimeout"),
    nudgeTimeout: orNull<NudgeTimeout>("nudgeTimeout"),
    decisions: orNull<DecisionsConfig>("decisions"),
    tests,
    files: fileNames,
  };
}
