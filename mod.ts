/**
 * pi-controls: the pi extension entry. pi calls the default export with its ExtensionAPI; the
 * extension then gates every tool call (see README.md).
 */
import { fileURLToPath } from "node:url";
import { createExtension, type PiApi } from "./lib/extension.ts";

/** The pi extension factory. */
export default function piControls(pi: PiApi): void {
  createExtension(pi, { codeFile: fileURLToPath(import.meta.url) });
}
