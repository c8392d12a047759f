/**
 * ImageMagick (`convert`, `magick`, `montage`, `composite`, `mogrify`, also `magick mogrify` and
 * kin): the files it writes by names it builds. An output name is the last operand, or the value
 * of `-write`; a `FORMAT:` prefix (`png:out`, `info:x.txt`) names the coder, not the file. Its
 * escapes build the name: `%d`/`%03d` a frame's number (the names are a glob: `frame_*.png`),
 * `%[filename:X]` a text `-set` gives, which may hold a `/` or be absolute (`%[filename:f]` with
 * `-set filename:f /home/user/.pi/agent/settings`: a path not known). mogrify writes each input
 * in place, or beside it with the extension `-format` gives (`mogrify -format json
 * .pi/settings.png` writes `.pi/settings.json`), below `-path DIR` when given. A name starting
 * with `|` (after a coder) is a command some builds run with the image as its input or output.
 *
 * @example
 * ```ts
 * import { literal } from "./words.ts";
 * imageMagickFiles(["convert", "a.png", "frame_%03d.png"].map(literal)).map((f) => f.path);
 * // ["frame_*.png"]
 * ```
 *
 * @module
 */
import type { Stage, Word } from "../shell/model.ts";
import { programName, unknownWord } from "./words.ts";
import type { NamedFile, Program, Runner } from "./spec.ts";

/**
 * Options that take a value (the common ones; `-set` takes two, and one read as taking fewer than
 * it does leaves a word read as a file too, never one less). Any other takes none.
 */
// deno-fmt-ignore
const VALUED = new Set(["-resize", "-format", "-quality", "-density", "-depth", "-crop", "-rotate",
  "-geometry", "-size", "-scale", "-sample", "-thumbnail", "-extent", "-gravity", "-background",
  "-fill", "-stroke", "-strokewidth", "-pointsize", "-font", "-annotate", "-draw", "-colorspace",
  "-colors", "-type", "-compose", "-define", "-alpha", "-border", "-bordercolor", "-frame",
  "-blur", "-sharpen", "-unsharp", "-modulate", "-level", "-gamma", "-delay", "-loop",
  "-dispose", "-page", "-units", "-interlace", "-path", "-write", "-label",
  "-tile", "-channel", "-fuzz", "-transparent", "-shave", "-chop", "-splice",
  "-resample", "-filter", "-interpolate", "-virtual-pixel", "-limit", "-compress",
  "-sampling-factor", "-morphology", "-evaluate", "-fx", "-distort",
  "-opacity", "-weight", "-kerning", "-interword-spacing", "-interline-spacing", "-title",
  "-mode", "-shadow", "-attenuate", "-noise", "-threshold", "-bias", "-dither", "-remap",
  "-map", "-mask", "-clip-path", "-profile", "-caption", "-comment", "-scene"]);

/** Whether a program named so is one of ImageMagick's, and which: `magick mogrify` is mogrify. */
function tool(argv: Word[]): { name: string; args: Word[] } {
  const name = programName(argv[0]);
  const sub = argv[1]?.value;
  if (name === "magick" && sub && /^(convert|mogrify|montage|composite)$/.test(sub)) {
    return { name: sub, args: argv.slice(2) };
  }
  return { name, args: argv.slice(1) };
}

/** The operands and `-write` values, as read with `VALUED` (null: an option's arity not known). */
function read(args: Word[]): { operands: Word[]; writes: Word[]; format?: Word; path?: Word } {
  const out: { operands: Word[]; writes: Word[]; format?: Word; path?: Word } = {
    operands: [],
    writes: [],
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i];
    const v = w.value;
    if (w.kind === "static" && /^[-+][a-z]/.test(v)) {
      const name = "-" + v.slice(1);
      if (name === "-set") {
        i += 2;
      } else if ((VALUED.has(name) && v.startsWith("-")) || v === "+write") {
        const value = args[++i];
        if (!value) break;
        if (name === "-write") out.writes.push(value);
        else if (name === "-format") out.format = value;
        else if (name === "-path") out.path = value;
      }
      continue;
    }
    out.operands.push(w);
  }
  return out;
}

/** A name without its coder (`png:out.png` → `out.png`; `C:/x` and `./a:b` are names). */
function withoutCoder(name: string): string {
  const m = /^([A-Za-z0-9]{2,}):(?!\/\/)/.exec(name);
  return m ? name.slice(m[0].length) : name;
}

/**
 * The file an output name writes (see the module); null where the word is that file as it is (a
 * word not known statically is the stage's target itself: `convert {} -resize 50% {}`).
 */
function output(w: Word, source: string): NamedFile | null {
  if (w.kind !== "static") return null;
  const name = withoutCoder(w.value);
  if (name === "-" || name.startsWith("|") || name === "") return null;
  if (name.includes("%[")) return { path: null, source: `${w.text} (a name -set builds)` };
  if (/%-?\d*d/.test(name)) {
    const glob = name.replace(/[*?[\]\\]/g, "\\$&").replace(/%-?\d*d/g, "*");
    return { path: glob, source, pattern: true };
  }
  return { path: name, source };
}

/** The files ImageMagick writes (see the module). */
export function imageMagickFiles(argv: Word[]): NamedFile[] {
  const { name, args } = tool(argv);
  const { operands, writes, format, path } = read(args);
  const out: NamedFile[] = [];
  const add = (f: NamedFile | null) => f && out.push(f);
  for (const w of writes) add(output(w, `${w.text} (-write)`));
  if (name === "mogrify") {
    const dir = path?.kind === "static" ? path.value : path ? null : undefined;
    for (const w of operands) {
      if (dir === null || format?.kind === "dynamic") {
        out.push({ path: null, source: `${w.text} (what mogrify writes)` });
        continue;
      }
      if (w.kind !== "static") {
        // (In place, the word is the file; with another extension, names of its own below it.)
        const at = w.prefix.lastIndexOf("/");
        const below = dir ?? (at < 0 ? "." : w.prefix.slice(0, at) || "/");
        if (format || dir !== undefined) {
          out.push({ path: below, source: `${w.text} (what mogrify writes)`, below: true });
        }
        continue;
      }
      let file = withoutCoder(w.value);
      if (format) file = file.replace(/(\.[^./]*)?$/, "." + format.value);
      if (dir !== undefined) file = `${dir}/${file.slice(file.lastIndexOf("/") + 1)}`;
      add(output({ ...w, value: file }, `${w.text} (mogrify)`));
    }
  } else if (operands.length > 1) add(output(operands[operands.length - 1], "(the output)"));
  return out;
}

/** A name starting with `|` (after a coder): a command the image is piped to or from. */
function imageMagickPipes(stage: Stage, run: Runner): void {
  for (const w of stage.argv.slice(1)) {
    const name = withoutCoder(w.value);
    if (name.startsWith("|")) {
      run.stage([unknownWord(`(the command ${w.text} pipes to)`)], "magick");
    }
  }
}

/** ImageMagick's programs (identify only reads: not here). */
export const IMAGEMAGICK_PROGRAMS: Program[] = [
  {
    names: ["convert", "magick", "montage", "composite", "mogrify"],
    namedFiles: imageMagickFiles,
    runs: imageMagickPipes,
  },
];
