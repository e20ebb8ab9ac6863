import { documentExample, requestViolations, responseViolations } from './openai-contract.js';
import { fakeServer, sendJson } from './fake-server.js';
import type { Recorded } from './fake-server.js';

/** The API's base path in the document's `servers` URL (https://api.openai.com/v1). */
const BASE_PATH = '/v1';

/** One request the fake took, parsed: JSON, or the multipart form with its files. */
export interface OpenAICall {
  method: string;
  /** The operation's path in the document, e.g. '/images/edits'. */
  path: string;
  headers: Recorded['headers'];
  json?: Record<string, unknown>;
  form?: FormData;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

async function parse(request: Recorded, base: string): Promise<OpenAICall> {
  const path = request.url.slice(BASE_PATH.length);
  const call: OpenAICall = { method: request.method, path, headers: request.headers };
  const type = request.headers['content-type'] ?? '';
  // undici's own multipart parser reads the form, as a server would.
  const asWeb = () =>
    new Request(`${base}${request.url}`, {
      method: request.method,
      headers: { 'content-type': type },
      body: new Uint8Array(request.body),
    });
  if (type.startsWith('multipart/form-data')) call.form = await asWeb().formData();
  else if (request.body.length) call.json = (await asWeb().json()) as Record<string, unknown>;
  return call;
}

/** A form's fields as the schema sees them: text as text, each file as the binary string it stands for. */
function formFields(form: FormData): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  // forEach rather than for…of: the e2e files compile this under the DOM lib, whose FormData is not iterable there.
  form.forEach((value, name) => (fields[name] = typeof value === 'string' ? value : `<binary ${value.size} bytes>`));
  return fields;
}

function violationsOf(call: OpenAICall): string[] {
  if (!call.form && !call.json) return [`${call.method} ${call.path}: no body`];
  return call.form
    ? requestViolations(call.method, call.path, 'multipart/form-data', formFields(call.form))
    : requestViolations(call.method, call.path, 'application/json', call.json);
}

/**
 * A local OpenAI: every request is checked against the published request schema (a violation is
 * answered 400 with the document's ErrorResponse, and recorded), and every answer the test gives is
 * checked against the published response schema before it is sent, so the fake cannot drift either.
 * `files` are served outside the API's path, as a compatible server's result URLs are. An answer
 * of 'never' leaves the request hanging, as a stuck provider does. An answer may be awaited (a
 * stand-in vision model that looks at the photo it was sent).
 */
export async function openAIFake(
  answer: (call: OpenAICall) => Answer | 'never' | Promise<Answer | 'never'>,
  files: Record<string, Buffer> = {},
) {
  const calls: OpenAICall[] = [];
  const downloads: string[] = [];
  const violations: string[] = [];
  const server = await fakeServer((request, res, base) => {
    if (!request.url.startsWith(`${BASE_PATH}/`)) {
      downloads.push(request.url);
      const served = files[request.url];
      res.writeHead(served ? 200 : 404, { 'content-type': 'image/png' });
      return res.end(served);
    }
    void (async () => {
      const call = await parse(request, base);
      calls.push(call);
      const invalid = violationsOf(call);
      if (invalid.length) {
        violations.push(...invalid.map((v) => `request ${call.method} ${call.path}: ${v}`));
        return sendJson(res, 400, apiError(invalid.join('; '), 'invalid_request_error', null, null));
      }
      const given = await answer(call);
      if (given === 'never') return;
      const wrong = responseViolations(call.method, call.path, given.status, given.body);
      if (wrong.length) {
        violations.push(...wrong.map((v) => `fake's own ${given.status} answer to ${call.path}: ${v}`));
        return sendJson(res, 500, apiError('the fake answered off the document', 'server_error', null, null));
      }
      res.writeHead(given.status, { 'content-type': 'application/json', ...given.headers });
      res.end(JSON.stringify(given.body));
    })().catch((error: unknown) => {
      violations.push(`fake failed: ${String(error)}`);
      sendJson(res, 500, apiError(String(error), 'server_error', null, null));
    });
  });
  return { ...server, base: `${server.base}${BASE_PATH}`, origin: server.base, calls, downloads, violations };
}

/** The document's ErrorResponse: every field it requires, `param` and `code` included. */
export function apiError(message: string, type: string, param: string | null, code: string | null) {
  return { error: { message, type, param, code } };
}

/** The document's example chat completion, answering `content` (or refusing, or cut short). */
export function chatCompletion(
  reply: { content: unknown } | { refusal: string } | { content: unknown; finish_reason: 'length' | 'content_filter' },
) {
  const example = documentExample<{
    created: number;
    choices: { message: Record<string, unknown>; finish_reason: string }[];
  }>('CreateChatCompletionResponse');
  const [choice] = example.choices;
  if ('refusal' in reply) Object.assign(choice!.message, { content: null, refusal: reply.refusal });
  else choice!.message.content = typeof reply.content === 'string' ? reply.content : JSON.stringify(reply.content);
  if ('finish_reason' in reply) choice!.finish_reason = reply.finish_reason;
  return example;
}

/** The document's example image answer with our PNG: base64, which GPT image models always answer. */
export function imagesResponse(image: Buffer) {
  const example = documentExample<{ data: Record<string, unknown>[]; background: string }>('ImagesResponse');
  example.data = [{ b64_json: image.toString('base64') }];
  example.background = 'opaque';
  return example;
}

/** The answer dall-e-2 gives by default: a URL, which the document says GPT image models never return. */
export function imagesUrlResponse(url: string) {
  const example = documentExample<{ data: Record<string, unknown>[]; created: number }>('ImagesResponse');
  return { created: example.created, data: [{ url }] };
}
