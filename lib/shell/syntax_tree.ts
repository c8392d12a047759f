/**
 * A plain-JavaScript copy of a tree-sitter tree, read in one cursor pass. Every property of a
 * web-tree-sitter node (`type`, `children`, `childForFieldName`, ...) is a call into WASM; the walk
 * over a bash command reads each node many times, so it reads this copy instead.
 *
 * @module
 */
import type { SyntaxNode } from "./parser.ts";

/** The subset of a tree-sitter node the bash analysis reads, as plain data. */
export interface LiteNode {
  id: number;
  type: string;
  isNamed: boolean;
  isError: boolean;
  isMissing: boolean;
  /** The node or something below it is an ERROR or MISSING node. */
  hasError: boolean;
  startIndex: number;
  endIndex: number;
  text: string;
  parent: LiteNode | null;
  children: LiteNode[];
  namedChildren: LiteNode[];
  /** The field name each child has in its parent (`name`, `argument`, `body`), or null. */
  fields: (string | null)[];
  childForFieldName(name: string): LiteNode | null;
  childrenForFieldName(name: string): LiteNode[];
}

const NONE: never[] = Object.freeze([]) as never[];

/** A node of the plain copy (also built directly by `simpleTree` for commands it can read). */
export class Lite implements LiteNode {
  // Leaves (half the nodes) share one frozen empty list; `adopt` gives a node its own.
  children: LiteNode[] = NONE;
  fields: (string | null)[] = NONE;
  hasError: boolean;
  #named: LiteNode[] | null = null;
  #text: string | null = null;
  constructor(
    private source: string,
    public id: number,
    public type: string,
    public isNamed: boolean,
    public isMissing: boolean,
    public startIndex: number,
    public endIndex: number,
    public parent: Lite | null,
  ) {
    this.hasError = type === "ERROR" || isMissing;
  }
  get isError(): boolean {
    return this.type === "ERROR";
  }
  get text(): string {
    return this.#text ??= this.source.slice(this.startIndex, this.endIndex);
  }
  get namedChildren(): LiteNode[] {
    return this.#named ??= this.children === NONE
      ? this.children
      : this.children.filter((c) => c.isNamed);
  }
  /** Append a child (with its field name). */
  adopt(child: LiteNode, field: string | null): void {
    if (this.children === NONE) {
      this.children = [];
      this.fields = [];
    }
    this.children.push(child);
    this.fields.push(field);
  }
  childForFieldName(name: string): LiteNode | null {
    const i = this.fields.indexOf(name);
    return i < 0 ? null : this.children[i];
  }
  childrenForFieldName(name: string): LiteNode[] {
    return this.children.filter((_, i) => this.fields[i] === name);
  }
}

/** A grammar's node types by id (a pure function of the language; ERROR is id 65535). */
type NodeType = { name: string; named: boolean };
const typeTables = new WeakMap<object, Map<number, NodeType>>();

/** Copy the tree under `root` (parsed from `source`) into plain objects. */
export function liteTree(root: SyntaxNode, source: string): LiteNode {
  const cursor = root.walk();
  const language = root.tree.language;
  let types = typeTables.get(language);
  if (!types) typeTables.set(language, types = new Map());
  // A missing node is an error: in a tree without errors no node is missing (no need to ask).
  const mayMiss = root.hasError;
  try {
    const make = (parent: Lite | null, id: number) => {
      // The type id gives the name and the namedness: one WASM call per node instead of two.
      const typeId = cursor.nodeTypeId;
      let type = types.get(typeId);
      if (!type) {
        type = { name: language.types[typeId] || "ERROR", named: language.nodeTypeIsNamed(typeId) };
        types.set(typeId, type);
      }
      return new Lite(
        source,
        id,
        type.name,
        type.named,
        mayMiss && cursor.nodeIsMissing,
        cursor.startIndex,
        cursor.endIndex,
        parent,
      );
    };
    const top = make(null, 0);
    const all: Lite[] = [top];
    const stack: Lite[] = [top];
    if (cursor.gotoFirstChild()) {
      outer: for (;;) {
        const parent = stack[stack.length - 1];
        const node = make(parent, all.length);
        parent.adopt(node, cursor.currentFieldName);
        all.push(node);
        if (cursor.gotoFirstChild()) {
          stack.push(node);
          continue;
        }
        while (!cursor.gotoNextSibling()) {
          cursor.gotoParent();
          stack.pop();
          if (stack.length === 0) break outer;
        }
      }
    }
    // Children come after their parent in this order: walking it backwards lifts errors up.
    for (let i = all.length - 1; i > 0; i--) {
      if (all[i].hasError) all[i].parent!.hasError = true;
    }
    return top;
  } finally {
    cursor.delete();
  }
}
