/**
 * The positioned JSON tree of a config file: every node knows the file and offset it was written
 * at, so each problem found in it can be reported as `file:line:column`. Also the diagnostics
 * collected while checking the tree, and the reads of a node's value.
 *
 * @module
 */
import type { ConfigError } from "./types.ts";
import type { ConfigFileRef } from "./config_files.ts";

/** A config file as its nodes know it: its reference, load order and line starts. */
export interface FileInfo extends ConfigFileRef {
  /** Position of the file in load order (global first). */
  index: number;
  lineStarts: number[];
}

/** Where a node (or a property key) was written. */
export interface Pos {
  info: FileInfo;
  offset: number;
}

/** A node of the tree. */
export type PValue = PObject | PArray | PScalar;

/** An object node. */
export interface PObject {
  kind: "object";
  /** Every property as written, duplicates included. */
  props: PProp[];
  pos: Pos;
}

/** A property of an object node, with where its key was written. */
export interface PProp {
  key: string;
  keyPos: Pos;
  value: PValue;
}

/** An array node. */
export interface PArray {
  kind: "array";
  items: PValue[];
  pos: Pos;
}

/** A string, number, boolean or null node. */
export interface PScalar {
  kind: "scalar";
  value: string | number | boolean | null;
  pos: Pos;
}

/** One step of the path to a value: a key or an array index. */
export type Seg = string | number;

/** An error or warning at a position. */
export interface Problem {
  pos: Pos;
  message: string;
}

/** The errors and warnings collected while checking config files. */
export interface Diag {
  errors: Problem[];
  warnings: Problem[];
}

/** A parsed file: its info and its top-level object. */
export interface ParsedFile {
  info: FileInfo;
  root: PObject;
}

/** Record an error at a position. */
export function err(d: Diag, pos: Pos, message: string): void {
  d.errors.push({ pos, message });
}

/** Problems as ConfigErrors, in file order and then by position. */
export function toConfigErrors(problems: Problem[]): ConfigError[] {
  return [...problems]
    .sort((a, b) => a.pos.info.index - b.pos.info.index || a.pos.offset - b.pos.offset)
    .map((p) => ({ file: p.pos.info.file, ...lineCol(p.pos), message: p.message }));
}

/** The 1-based line and column of a position. */
export function lineCol(pos: Pos): { line: number; column: number } {
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

/** The property that counts for a key (the last one written). */
export function get(obj: PObject, key: string): PProp | undefined {
  for (let i = obj.props.length - 1; i >= 0; i--) {
    if (obj.props[i].key === key) return obj.props[i];
  }
  return undefined;
}

/** Properties that count (the last of each key), in first-written order. */
export function effective(obj: PObject): PProp[] {
  const map = new Map<string, PProp>();
  for (const p of obj.props) map.set(p.key, p);
  return [...map.values()];
}

/** A string node's value, else undefined. */
export function str(v: PValue | undefined): string | undefined {
  return v?.kind === "scalar" && typeof v.value === "string" ? v.value : undefined;
}

/** A number node's value, else undefined. */
export function num(v: PValue | undefined): number | undefined {
  return v?.kind === "scalar" && typeof v.value === "number" ? v.value : undefined;
}

/** The directory relative keys of a file resolve against (none for the global file). */
export function baseOf(info: FileInfo): string | null {
  return info.role === "global" ? null : info.root;
}
