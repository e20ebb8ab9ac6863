import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crc32, deflateSync } from 'node:zlib';

/** A style the fake recommends; `failures` edits whose prompt holds its prompt are refused before it paints. */
export interface FlakyStyle {
  name: string;
  prompt: string;
  failures: number;
}

export interface FlakyImageModel {
  /** OPENAI_BASE_URL for the API and the worker. */
  baseUrl: string;
  /** The edit prompts it received, in order. */
  edits: string[];
  close(): Promise<void>;
}

/** A solid 64 px PNG, encoded by hand so the fake needs no image library. */
function solidPng(rgb: [number, number, number]): Buffer {
  const side = 64;
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: side }, () => rgb).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: side }, () => row)));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk('IHDR', header),
    chunk('IDAT', pixels),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chat(content: object) {
  return {
    id: 'c',
    object: 'chat.completion',
    created: 1,
    model: 'gpt',
    choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(content) } }],
  };
}

/** What OpenAI answers when its safety system declines an edit: the seller's to change, never retried by the worker. */
const REFUSED = {
  error: {
    message: 'Your request was rejected by the safety system.',
    type: 'image_generation_user_error',
    param: null,
    code: 'moderation_blocked',
  },
};

/**
 * An OpenAI-compatible image server on loopback that fails for real: it reads any product as
 * beauty, recommends `styles`, and refuses the first `failures` edits of each style before it
 * paints them. Each painting is another colour, so two takes of a scene look different.
 */
export async function startFlakyImageModel(styles: FlakyStyle[]): Promise<FlakyImageModel> {
  const left = new Map(styles.map((style) => [style.prompt, style.failures]));
  const edits: string[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('latin1');
      const send = (status: number, answer: object) => {
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify(answer));
      };
      if (request.url?.endsWith('/chat/completions')) {
        const recommend = {
          productInfo: { productTitle: 'Serum', productDescription: 'A serum', productType: 'beauty' },
          styles: styles.map(({ name, prompt }) => ({ name, prompt })),
        };
        return send(200, body.includes('art-direct') ? chat(recommend) : chat({ kind: 'beauty', confidence: 0.9 }));
      }
      const style = styles.find((s) => body.includes(s.prompt));
      edits.push(style?.prompt ?? body.slice(0, 200));
      const failures = style ? (left.get(style.prompt) ?? 0) : 0;
      if (style && failures > 0) {
        left.set(style.prompt, failures - 1);
        return send(400, REFUSED);
      }
      const shade = (edits.length * 47) % 160;
      send(200, { created: 1, data: [{ b64_json: solidPng([90 + shade, 200 - shade / 2, 140]).toString('base64') }] });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    edits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
