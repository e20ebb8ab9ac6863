import type {
  ComplianceLine,
  ComplianceReportDto,
  ExportDto,
  GenerationDto,
  GenerationListItem,
} from '@prodshot/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GenerationPopup } from '../generations/generation-popup.js';
import { setTokenSource } from '../../lib/api-client.js';
import { apiError, stubApi } from '../../test-support/fake-api.js';
import { renderRoutes } from '../../test-support/render-routes.js';
import { renditionsOf } from '../../test-support/renditions.js';
import { SHOT_FILES } from '../../test-support/shot-files.js';
import { SmartResultsPage } from '../../routes/smart-results.js';
import { ExportDialog } from './export-dialog.js';
import { catchDownloads } from '../../test-support/downloads.js';

const shot: GenerationListItem = {
  id: 'out-1',
  generationId: 'gen-1',
  index: 2,
  imageUrl: '/storage/out.png',
  ...renditionsOf('/storage/out.png'),
  name: 'Marble',
  files: SHOT_FILES,
  createdAt: '2025-01-01T00:00:00.000Z',
};
const MAGIC = {
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  webp: [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
};

const line = (id: ComplianceLine['id'], status: ComplianceLine['status'], fix = status === 'fail'): ComplianceLine => ({
  id,
  label: `${id} label`,
  status,
  measured: `${id} measured`,
  target: `${id} target`,
  fix: fix ? { preset: 'amazon', label: `Fix ${id}` } : null,
});
const report = (
  passed: boolean,
  subject: ComplianceReportDto['subject'],
  note: string | null = null,
): { data: ComplianceReportDto } => ({
  data: {
    generationId: 'gen-1',
    outputIndex: 2,
    preset: 'amazon',
    subject,
    width: 2000,
    height: 2000,
    passed,
    note,
    lines: passed
      ? [line('background', 'pass'), line('fill', 'pass'), line('size', 'pass')]
      : [line('background', 'fail'), line('fill', 'fail'), line('size', 'pass')],
  },
});
const exported = (preset: ExportDto['preset'], format: ExportDto['format'], fileName: string): { data: ExportDto } => ({
  data: {
    url: '/storage/x',
    downloadPath: `/api/exports/download?preset=${preset}&format=${format}`,
    fileName,
    contentType: `image/${format}`,
    width: 2000,
    height: 2000,
    preset,
    format,
  },
});
const file = (format: keyof typeof MAGIC, declared = `image/${format}`) =>
  new Response(new Uint8Array([...MAGIC[format], 1, 2, 3, 4]), { status: 200, headers: { 'content-type': declared } });

let saved: string[];
beforeEach(() => {
  saved = catchDownloads();
  setTokenSource(() => 'seller-token');
  localStorage.clear();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setTokenSource(() => null);
});

describe('the export dialog', () => {
  it("exports the chosen preset and format, saves it under an extension matching its bytes, and shows the exported file's report", async () => {
    const calls = stubApi({
      'POST /exports': () => exported('instagram-story', 'webp', 'mug-instagram-story-3.webp'),
      'GET /exports/download': () => file('webp'),
      'GET /generations/gen-1/compliance': () =>
        report(true, { kind: 'export', preset: 'instagram-story', format: 'webp' }),
    });
    renderRoutes([{ path: '/', element: <ExportDialog shot={shot} onClose={() => undefined} /> }], ['/']);
    fireEvent.click(screen.getByRole('radio', { name: /Instagram story/ }));
    fireEvent.click(screen.getByRole('radio', { name: 'WebP' }));
    fireEvent.click(screen.getByRole('button', { name: 'Export and download' }));
    await screen.findByText(/Saved mug-instagram-story-3\.webp/);
    expect(calls.find((call) => call.path === '/exports')!.body).toEqual({
      generationId: 'gen-1',
      outputIndex: 2,
      preset: 'instagram-story',
      format: 'webp',
    });
    expect(calls.find((call) => call.path === '/exports/download')!.headers.authorization).toBe('Bearer seller-token');
    expect(saved).toEqual(['mug-instagram-story-3.webp']);
    await screen.findByText('Passes every Amazon main image check');
    expect(calls.find((call) => call.path.endsWith('/compliance'))!.query.get('exportFormat')).toBe('webp');
  });

  it('names the file by its bytes even when the name given says otherwise', async () => {
    stubApi({
      'POST /exports': () => exported('amazon', 'jpeg', 'mug-amazon-3.png'),
      'GET /exports/download': () => file('jpeg', 'image/png'),
      'GET /generations/gen-1/compliance': () => report(true, { kind: 'export', preset: 'amazon', format: 'jpeg' }),
    });
    renderRoutes([{ path: '/', element: <ExportDialog shot={shot} onClose={() => undefined} /> }], ['/']);
    fireEvent.click(screen.getByRole('button', { name: 'Export and download' }));
    await waitFor(() => expect(saved).toEqual(['mug-amazon-3.jpg']));
  });

  it('offers only the formats a preset takes: no WebP for Amazon, no JPEG for a transparent cutout', () => {
    stubApi({});
    renderRoutes([{ path: '/', element: <ExportDialog shot={shot} onClose={() => undefined} /> }], ['/']);
    expect((screen.getByRole('radio', { name: 'WebP' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: 'JPEG' }) as HTMLInputElement).checked).toBe(true);
    fireEvent.click(screen.getByRole('radio', { name: /Transparent cutout/ }));
    expect((screen.getByRole('radio', { name: 'JPEG' }) as HTMLInputElement).disabled).toBe(true);
    expect((screen.getByRole('radio', { name: 'PNG' }) as HTMLInputElement).checked).toBe(true);
  });

  it('says why an export failed', async () => {
    stubApi({ 'POST /exports': () => apiError(409, 'This output is not finished yet', 'output_not_finished') });
    renderRoutes([{ path: '/', element: <ExportDialog shot={shot} onClose={() => undefined} /> }], ['/']);
    fireEvent.click(screen.getByRole('button', { name: 'Export and download' }));
    expect((await screen.findByRole('alert')).textContent).toContain('This output is not finished yet');
    expect(saved).toEqual([]);
  });
});

describe('the checklist beside a result', () => {
  it("shows each line with its measured value and target; a failing line's fix exports for Amazon in one click and the export passes", async () => {
    const calls = stubApi({
      'GET /generations/gen-1/compliance': (_body, call) =>
        call.query.get('exportFormat')
          ? report(true, { kind: 'export', preset: 'amazon', format: 'jpeg' })
          : report(false, { kind: 'output' }),
      'POST /exports': () => exported('amazon', 'jpeg', 'mug-amazon-3.jpg'),
      'GET /exports/download': () => file('jpeg'),
    });
    renderRoutes([{ path: '/', element: <GenerationPopup generation={shot} onClose={() => undefined} /> }], ['/']);
    const check = await screen.findByRole('region', { name: 'Marketplace check' });
    await within(check).findByText('2 of 3 Amazon main image checks need attention');
    // A failing line says what is wrong and what is wanted, then what this shot shows; a passing one what it shows.
    const background = check.querySelector('[data-check="background"]') as HTMLElement;
    expect(within(background).getByText('background label: background target')).toBeTruthy();
    expect(within(background).getByText('This shot: background measured')).toBeTruthy();
    expect(within(check.querySelector('[data-check="size"]') as HTMLElement).getByText('size label')).toBeTruthy();
    const fixes = within(check).getAllByRole('button');
    expect(fixes.map((button) => button.textContent)).toEqual(['Fix background', 'Fix fill']);
    expect(calls.find((call) => call.path.endsWith('/compliance'))!.query.get('output')).toBe('2');
    fireEvent.click(fixes[0]!);
    await screen.findByText('Passes every Amazon main image check');
    expect(calls.filter((call) => call.path === '/exports').map((call) => call.body)).toEqual([
      { generationId: 'gen-1', outputIndex: 2, preset: 'amazon', format: 'jpeg' },
    ]);
    expect(saved).toEqual(['mug-amazon-3.jpg']);
  });

  it("shows the report's note above its lines, as for a lifestyle shot checked for the main image", async () => {
    const note =
      'Lifestyle shots like this one are for secondary images: the Amazon main image shows the product alone on pure white.';
    stubApi({ 'GET /generations/gen-1/compliance': () => report(false, { kind: 'output' }, note) });
    renderRoutes([{ path: '/', element: <GenerationPopup generation={shot} onClose={() => undefined} /> }], ['/']);
    const check = await screen.findByRole('region', { name: 'Marketplace check' });
    const shown = await within(check).findByText(note);
    expect(
      shown.compareDocumentPosition(check.querySelector('.compliance-lines')!) & Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy();
  });

  it('reads the report for the marketplace the seller picks, and remembers it', async () => {
    const calls = stubApi({ 'GET /generations/gen-1/compliance': () => report(false, { kind: 'output' }) });
    renderRoutes([{ path: '/', element: <GenerationPopup generation={shot} onClose={() => undefined} /> }], ['/']);
    fireEvent.change(await screen.findByLabelText('Check for'), { target: { value: 'etsy' } });
    await waitFor(() => expect(calls.some((call) => call.query.get('preset') === 'etsy')).toBe(true));
    expect(localStorage.getItem('prodshot.marketplace')).toBe('etsy');
  });
});

describe('smart results', () => {
  const run: GenerationDto = {
    id: 'gen-1',
    kind: 'smart',
    status: 'complete',
    stage: 'generating',
    imageId: 'img-1',
    productInfo: null,
    error: null,
    unsupportedProduct: false,
    styles: [
      {
        index: 2,
        name: 'Marble',
        prompt: 'marble',
        status: 'complete',
        progress: 100,
        url: '/storage/out.png',
        ...renditionsOf('/storage/out.png'),
        error: null,
      },
    ],
    createdAt: '2025-01-01T00:00:00.000Z',
  };

  it('measures a card only when its checklist is opened, and its fix exports that style', async () => {
    const calls = stubApi({
      'GET /generations/gen-1': () => ({ data: run }),
      'GET /generations/gen-1/compliance': (_body, call) =>
        call.query.get('exportFormat')
          ? report(true, { kind: 'export', preset: 'amazon', format: 'jpeg' })
          : report(false, { kind: 'output' }),
      'POST /exports': () => exported('amazon', 'jpeg', 'product-shot-amazon-3.jpg'),
      'GET /exports/download': () => file('jpeg'),
    });
    renderRoutes([{ path: '/smart-results/:generationId', element: <SmartResultsPage /> }], ['/smart-results/gen-1']);
    const summary = await screen.findByText('Marketplace check');
    expect(calls.some((call) => call.path.endsWith('/compliance'))).toBe(false);
    const details = summary.closest('details')!;
    details.open = true;
    fireEvent(details, new Event('toggle'));
    const fix = await within(details).findByRole('button', { name: 'Fix background' });
    fireEvent.click(fix);
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Passes every Amazon main image check');
    expect(calls.find((call) => call.path === '/exports')!.body).toEqual({
      generationId: 'gen-1',
      outputIndex: 2,
      preset: 'amazon',
      format: 'jpeg',
    });
    expect(saved).toEqual(['product-shot-amazon-3.jpg']);
  });
});
