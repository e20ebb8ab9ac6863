import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import ts from 'typescript';
import { signWebhookBody } from '@prodshot/client';
import { PYTHON_RECEIVER, TYPESCRIPT_RECEIVER } from './api-guide.js';

// The guide's receivers are code an integrator pastes: run each as written against deliveries
// signed as Prodshot signs them, in the order a receiver would see them.

const secret = 'whsec_guide_endpoint';
const body = JSON.stringify({
  id: 'evt_guide',
  type: 'generation.completed',
  data: { id: 'gen_1', status: 'complete' },
});
const now = Math.floor(Date.now() / 1000);

interface Delivery {
  what: string;
  body: string;
  header: string;
  eventId: string;
}

const deliveries: Delivery[] = [
  { what: 'another secret', body, header: signWebhookBody('whsec_someone_else', body, now), eventId: 'evt_guide' },
  {
    what: 'a body changed after signing',
    body: body.replace('complete', 'failed'),
    header: signWebhookBody(secret, body, now),
    eventId: 'evt_guide',
  },
  { what: 'a t older than five minutes', body, header: signWebhookBody(secret, body, now - 301), eventId: 'evt_guide' },
  { what: 'a garbled header', body, header: 't=abc,v1=zz', eventId: 'evt_guide' },
  { what: 'the good delivery', body, header: signWebhookBody(secret, body, now - 5), eventId: 'evt_guide' },
  { what: 'its retry, signed again', body, header: signWebhookBody(secret, body, now), eventId: 'evt_guide' },
];
const expected = Object.fromEntries(deliveries.map(({ what }) => [what, what === 'the good delivery']));

const verdicts = (output: string) =>
  Object.fromEntries((JSON.parse(output) as boolean[]).map((accepted, i) => [deliveries[i]!.what, accepted]));

function hasPython(): boolean {
  try {
    execFileSync('python3', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe("the guide's webhook receivers", () => {
  it('TypeScript: accepts the good delivery once and refuses the rest', () => {
    const js = ts.transpileModule(TYPESCRIPT_RECEIVER, {
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
    }).outputText;
    const run = `${js}\nconst cases = JSON.parse(process.argv[1]);\nconsole.log(JSON.stringify(cases.map((c) => acceptWebhook(c.body, c.header, c.eventId, ${JSON.stringify(secret)}))));`;
    const output = execFileSync(process.execPath, ['--input-type=module', '-e', run, JSON.stringify(deliveries)], {
      encoding: 'utf8',
    });
    expect(verdicts(output)).toEqual(expected);
  });

  it.skipIf(!hasPython())('Python: accepts the good delivery once and refuses the rest', () => {
    const run = `${PYTHON_RECEIVER}\n\nimport json, sys\ncases = json.loads(sys.argv[1])\nprint(json.dumps([accept_webhook(c["body"].encode(), c["header"], c["eventId"], ${JSON.stringify(secret)}) for c in cases]))\n`;
    const output = execFileSync('python3', ['-c', run, JSON.stringify(deliveries)], { encoding: 'utf8' });
    expect(verdicts(output)).toEqual(expected);
  });
});
