/**
 * A scripted stand-in for an OpenAI chat-completions service, for driving the real pi in tests.
 *
 * Each `POST /v1/chat/completions` is answered with the next step of the script, streamed as
 * server-sent events in OpenAI's chunk format: one or more tool calls (`finish_reason:
 * "tool_calls"`) or a text answer (`finish_reason: "stop"`). Every request body is recorded so a
 * test can assert what the model was sent (tool results, deny reasons, nudge texts). When the
 * script runs out, the server answers with the text `(script exhausted)` and records that.
 */

/** One tool call the scripted model makes. */
export interface ScriptedCall {
  name: string;
  args: Record<string, unknown>;
  /** The tool call id; defaults to `call_<n>` counting every call the server has made. */
  id?: string;
}

/**
 * One step: tool calls (run in parallel by pi when there are several) or a final text. `before`
 * runs just before the step is answered, after pi sent the request (so after the previous step's
 * tool calls ran): a test changes files there as a user would mid-session.
 */
export type Step = ({ calls: ScriptedCall[] } | { text: string }) & {
  before?: () => void | Promise<void>;
};

/** A chat-completion request as the server received it. */
export interface ChatRequest {
  // deno-lint-ignore no-explicit-any
  messages: any[];
  // deno-lint-ignore no-explicit-any
  tools?: any[];
  model?: string;
  stream?: boolean;
}

/** A running scripted server. */
export interface ModelServer {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string;
  /** Every chat-completion request body, in order. */
  requests: ChatRequest[];
  /** Add steps to the end of the script (for multi-prompt RPC sessions). */
  push(...steps: Step[]): void;
  /** Steps not yet used. */
  remaining(): number;
  /** True when a request came after the script ran out. */
  exhausted(): boolean;
  close(): Promise<void>;
}

/** A step that calls one tool. */
export function call(name: string, args: Record<string, unknown>, id?: string): Step {
  return { calls: [{ name, args, ...(id ? { id } : {}) }] };
}

/** A step that answers with text (ends the agent's turn). */
export function text(t: string): Step {
  return { text: t };
}

function sse(chunks: unknown[]): string {
  return chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join("") + "data: [DONE]\n\n";
}

function chunk(n: number, delta: unknown, finish: string | null, usage?: unknown) {
  return {
    id: `chatcmpl-scripted-${n}`,
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model: "scripted",
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
}

const USAGE = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** Start a scripted server on 127.0.0.1 (a free port). */
export function startModelServer(script: Step[]): ModelServer {
  const steps = [...script];
  const requests: ChatRequest[] = [];
  let calls = 0;
  let responses = 0;
  let ranOut = false;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (req) => {
      const url = new URL(req.url);
      if (req.method !== "POST" || !url.pathname.endsWith("/chat/completions")) {
        return new Response(JSON.stringify({ error: { message: `no route ${url.pathname}` } }), {
          status: 404,
          headers: { "content-type": "application/json" },
        });
      }
      const body = await req.json() as ChatRequest;
      requests.push(body);
      const n = ++responses;
      let step = steps.shift();
      if (!step) {
        ranOut = true;
        step = { text: "(script exhausted)" };
      }
      await step.before?.();
      const chunks: unknown[] = [];
      if ("text" in step) {
        chunks.push(chunk(n, { role: "assistant", content: "" }, null));
        chunks.push(chunk(n, { content: step.text }, null));
        chunks.push(chunk(n, {}, "stop", USAGE));
      } else {
        step.calls.forEach((c, index) => {
          const id = c.id ?? `call_${++calls}`;
          const args = JSON.stringify(c.args);
          chunks.push(chunk(n, {
            ...(index === 0 ? { role: "assistant", content: null } : {}),
            tool_calls: [{
              index,
              id,
              type: "function",
              function: { name: c.name, arguments: "" },
            }],
          }, null));
          // The arguments arrive in two pieces, as real services stream them.
          const cut = Math.floor(args.length / 2);
          for (const part of [args.slice(0, cut), args.slice(cut)]) {
            chunks.push(chunk(n, { tool_calls: [{ index, function: { arguments: part } }] }, null));
          }
        });
        chunks.push(chunk(n, {}, "tool_calls", USAGE));
      }
      return new Response(sse(chunks), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    },
  );
  return {
    baseUrl: `http://127.0.0.1:${server.addr.port}/v1`,
    requests,
    push: (...more) => void steps.push(...more),
    remaining: () => steps.length,
    exhausted: () => ranOut,
    close: () => server.shutdown(),
  };
}

/** The tool results the model was sent in a request, by tool call id, as plain text. */
export function toolResults(req: ChatRequest): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of req.messages) {
    if (m.role !== "tool") continue;
    const content = typeof m.content === "string"
      ? m.content
      // deno-lint-ignore no-explicit-any
      : (m.content ?? []).map((p: any) => p.text ?? "").join("");
    out.set(m.tool_call_id, content);
  }
  return out;
}

/** The tool results sent in the last request (which carries the whole conversation). */
export function lastToolResults(server: ModelServer): Map<string, string> {
  const last = server.requests.at(-1);
  return last ? toolResults(last) : new Map();
}
