import { AUTO_BACKGROUND, GENERATION_FAILED_MESSAGE } from '@prodshot/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { newIdempotencyKey } from '../../lib/idempotency.js';
import { queryKeys } from '../../lib/query-keys.js';
import { useGeneration } from '../generations/index.js';
import { useGenerateProductShots, type ShotRequest } from './api/generate-product-shots.js';
import { problemOf, type EditorProblem } from './editor-problem.js';
import { pickedScene, shotsOf, type AskedFor, type HistoryEntry, type PendingShot, type Shot } from './editor-shots.js';

/** The news that a request's shots landed: the toast's title, e.g. 'Marble shot ready'. */
export interface ShotsReady {
  key: number;
  title: string;
}

function readyTitle(images: Shot[]): string {
  const name = images[0]!.name;
  return images.length === 1 ? `${name} shot ready` : `${images.length} ${name} shots ready`;
}

/**
 * The editor's shots: a click starts a generation, whose shots arrive over the socket; once it
 * settles they are shown, join the session history and are announced. `opened` is the shot the
 * editor was opened on, shown first. `onListed` runs when a new shot is in the seller's history.
 */
export function useEditorShots(opened: Shot | null, onListed: () => void) {
  const queryClient = useQueryClient();
  const [results, setResults] = useState<Shot[]>(opened ? [opened] : []);
  const [shown, setShown] = useState(0);
  const [history, setHistory] = useState<HistoryEntry[]>([]);
  const [activeEntry, setActiveEntry] = useState<number | null>(null);
  const [problem, setProblem] = useState<EditorProblem | null>(null);
  const [ready, setReady] = useState<ShotsReady | null>(null);
  const [pending, setPending] = useState<PendingShot | null>(null);
  const shot = useGeneration(pending?.generationId ?? null);
  const setError = (message: string | null) => setProblem(message === null ? null : { message });

  const start = useGenerateProductShots<AskedFor>({
    onMutate: () => {
      setProblem(null);
      setReady(null);
    },
    // Cleared only once started: a refused request leaves the shot the seller was looking at.
    onStarted: (generationId, asked) => {
      setResults([]);
      setPending({ ...asked, generationId });
    },
    onError: (caught) => setProblem(problemOf(caught, GENERATION_FAILED_MESSAGE)),
  });

  const settledShot = shot.settled ? shot.generation : undefined;
  const lostShot = pending !== null && !shot.generation && shot.error ? shot.error : null;
  useEffect(() => {
    if (!pending || (!settledShot && !lostShot)) return;
    setPending(null);
    // Reserved credits are settled or refunded by now.
    void queryClient.invalidateQueries({ queryKey: queryKeys.subscription });
    if (!settledShot) return setProblem(problemOf(lostShot, GENERATION_FAILED_MESSAGE));
    const images = shotsOf(settledShot, pending);
    if (images.length === 0)
      return setError(settledShot.error ?? settledShot.styles.find((s) => s.error)?.error ?? GENERATION_FAILED_MESSAGE);
    setResults(images);
    setShown(0);
    const picked =
      pending.backgroundType === AUTO_BACKGROUND ? pickedScene(settledShot) : { scene: null, prompt: pending.prompt };
    const entry: HistoryEntry = { ...pending, key: Date.now(), images, ...picked };
    setHistory((previous) => [entry, ...previous]);
    setActiveEntry(entry.key);
    setReady({ key: entry.key, title: readyTitle(images) });
    onListed();
  }, [pending, settledShot, lostShot]);

  return {
    results,
    shown,
    setShown,
    history,
    activeEntry,
    showEntry: (entry: HistoryEntry) => {
      setActiveEntry(entry.key);
      setResults(entry.images);
      setShown(0);
    },
    problem,
    setError,
    ready,
    dismissReady: () => setReady(null),
    generate: (body: ShotRequest, asked: AskedFor) =>
      start.mutate({ body, context: asked, idempotencyKey: newIdempotencyKey() }),
    busy: start.isPending || pending !== null,
    /** The first shot's progress, 0..100 as the worker reports it. */
    progress: shot.generation?.styles[0]?.progress ?? 0,
  };
}
