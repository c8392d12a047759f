/**
 * A stand-in Decisions API for the tests: a Deno.serve server on 127.0.0.1 (port 0) that records
 * every request and answers from a handler. Test-only (it uses Deno.serve).
 *
 * @module
 */
import type { Answer, DecisionsRequest } from "./decisions_client.ts";

/** One request the stand-in received. */
export interface SeenRequest {
  method: string;
  path: string;
  authorization: string | null;
  contentType: string | null;
  body: DecisionsRequest;
}

/** What a handler may return: a Response, or a JSON value sent with status 200. */
export type StandInReply = Response | Record<string, unknown>;

/** A running stand-in. */
export interface StandIn {
  /** The endpoint URL (http://127.0.0.1:PORT/api/alpha/decisions). */
  url: string;
  requests: SeenRequest[];
  /** Stop the server (waits for requests in flight). */
  close(): Promise<void>;
}

/** Answers that trigger nothing: every yes/no near 0, writes within the project, ordinary reads. */
export function quietAnswers(): Record<string, Answer> {
  return {
    destructive: { type: "noul", noul: 0 },
    network: { type: "noul", noul: 0 },
    exec: { type: "noul", noul: 0 },
    obfuscated: { type: "noul", noul: 0 },
    inference_call: { type: "noul", noul: 0 },
    write_scope: {
      type: "choice",
      choice: "within",
      probabilities: { within: 1 },
      confidence: 1,
    },
    read_scope: {
      type: "choice",
      choice: "ordinary",
      probabilities: { ordinary: 1 },
      confidence: 1,
    },
  };
}

/** A yes/no answer. */
export function yesNo(p: number): Answer {
  return { type: "noul", noul: p };
}

/** A choice answer (confidence defaults to the chosen label's probability). */
export function choice(
  label: string,
  probabilities: Record<string, number>,
  confidence?: number,
): Answer {
  return {
    type: "choice",
    choice: label,
    probabilities,
    confidence: confidence ?? probabilities[label] ?? 0,
  };
}

/** A full reply in the RULINGS shape, with quiet answers overridden by `answers`. */
export function replyWith(answers: Record<string, Answer>): Record<string, unknown> {
  return {
    id: "dec-test",
    model: "typesafe/jev-1.13",
    provider: "stand-in",
    usage: { prompt_tokens: 120, completion_tokens: 7, cost: 0.00002 },
    answers: { ...quietAnswers(), ...answers },
  };
}

/** Start a stand-in; the handler sees each request's body and returns the reply. */
export function startStandIn(
  handler: (body: DecisionsRequest, seen: SeenRequest) => StandInReply | Promise<StandInReply>,
): StandIn {
  const requests: SeenRequest[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (req) => {
    const text = await req.text();
    const seen: SeenRequest = {
      method: req.method,
      path: new URL(req.url).pathname,
      authorization: req.headers.get("authorization"),
      contentType: req.headers.get("content-type"),
      body: JSON.parse(text),
    };
    requests.push(seen);
    const out = await handler(seen.body, seen);
    return out instanceof Response ? out : Response.json(out);
  });
  return {
    url: `http://127.0.0.1:${server.addr.port}/api/alpha/decisions`,
    requests,
    close: () => server.shutdown(),
  };
}
