/**
 * Compressors and decompressors name the files they write after the files they are given:
 * `gunzip .env.gz` writes `.env`, `gzip -S v .en` writes `.env`, `zstd -d x.zst
 * --output-dir-flat .pi` writes `.pi/x`. Their `namedFiles` are those names.
 *
 * @example
 * ```ts
 * import { compressedNames } from "./compressors.ts";
 * compressedNames(["gunzip", "-f", ".env.gz"].map((v) => ({ value: v, kind: "static", prefix: v, text: v })));
 * // [{ path: ".env", source: ".env.gz" }, { path: ".env.gz.gz", source: ".env.gz" }]
 * ```
 *
 * @module
 */
import { basename } from "node:path";
import type { Word } from "../shell/model.ts";
import type { NamedFile, Program } from "./spec.ts";
import { filesFromList } from "./file_lists.ts";

/** Each program's default suffix. */
const SUFFIX: Record<string, string> = {
  gzip: ".gz",
  gunzip: ".gz",
  pigz: ".gz",
  unpigz: ".gz",
  bzip2: ".bz2",
  bunzip2: ".bz2",
  xz: ".xz",
  unxz: ".xz",
  lzma: ".lzma",
  unlzma: ".lzma",
  zstd: ".zst",
  unzstd: ".zst",
  lz4: ".lz4",
  brotli: ".br",
  compress: ".Z",
  uncompress: ".Z",
  lzip: ".lz",
  lzop: ".lzo",
};

/** Suffixes any of them strips when decompressing (`.tgz` gives `.tar`; gzip's `-gz`, `_z`). */
const KNOWN = /(\.(gz|z|bz2?|xz|lzma|zst|lz4|br|Z|lz|lzo|tgz|tbz2?|txz|tzst)|[-_](gz|z))$/;

/** Options that write to standard output or only test or list: no file is written. */
const NO_FILES = /^(-[a-zA-Z]*[ctl][a-zA-Z]*|--stdout|--to-stdout|--test|--list)$/;

/**
 * The files a compressor writes for its operands: each name with its suffix stripped (as it
 * decompresses) and with it added (as it compresses), whichever way it runs; in the directory
 * `--output-dir-flat` names, if one is. None with `-c`, `-t` or `-l`.
 */
export function compressedNames(argv: Word[]): NamedFile[] {
  const name = basename(argv[0]?.value ?? "");
  let suffix = SUFFIX[name] ?? ".gz";
  let dir: string | null = null;
  let named = false;
  const operands: Word[] = [];
  const args = argv.slice(1);
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.kind === "static" ? w.value : null;
    if (v === null || !options || !v.startsWith("-") || v === "-") {
      if (v !== "-") operands.push(w);
      continue;
    }
    if (v === "--") options = false;
    else if (NO_FILES.test(v) && !/^-[a-zA-Z]*S/.test(v)) return [];
    else if (v === "-S" || v === "--suffix") suffix = args[++i]?.value ?? suffix;
    else if (/^-S./.test(v)) suffix = v.slice(2);
    else if (v.startsWith("--suffix=")) suffix = v.slice(9);
    else if (v === "--output-dir-flat" || v === "--output-dir-mirror") {
      dir = args[++i]?.value ?? null;
    } else if (/^--output-dir-(flat|mirror)=/.test(v)) dir = v.slice(v.indexOf("=") + 1);
    // `-N`: the name stored in the archive, which no one reads here.
    else if (/^(-[a-zA-Z]*N[a-zA-Z]*|--name)$/.test(v)) named = true;
  }
  if (named) return [{ path: null, source: "(the name the archive holds)" }];
  const out: NamedFile[] = [];
  for (const w of operands) {
    if (w.kind !== "static") continue;
    const names = [w.value + suffix];
    if (w.value.endsWith(suffix) && w.value.length > suffix.length) {
      names.unshift(w.value.slice(0, -suffix.length));
    } else if (KNOWN.test(w.value)) names.unshift(w.value.replace(KNOWN, ""));
    for (const n of names) {
      out.push({ path: dir === null ? n : `${dir}/${basename(n)}`, source: w.text });
    }
  }
  return out;
}

/** The compressors and decompressors. */
const compressedList = filesFromList({
  valued: ["--files", "--files0"],
  stdin: ["--files", "--files0"],
});

export const COMPRESSOR_PROGRAMS: Program[] = [
  {
    names: Object.keys(SUFFIX),
    // (xz's and lzma's `--files`/`--files0` take the names from standard input or a file, as
    // zstd's `--filelist` does.)
    namedFiles: (argv) => [...compressedNames(argv), ...compressedList(argv)],
    // `-r`: every file below a directory it names is replaced by its compressed form.
    replacesTrees: (argv) => argv.some((w) => /^(-[a-zA-Z]*r[a-zA-Z]*|--recursive)$/.test(w.value)),
  },
];
