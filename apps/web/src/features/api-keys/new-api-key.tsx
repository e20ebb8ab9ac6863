import type { CreatedApiKey } from '@prodshot/contracts';
import { ShownOnce } from '../../components/ui/shown-once.js';

/** The key just made, in full: the only time it is ever shown. */
export function NewApiKey({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  return (
    <ShownOnce
      titleId="api-key-new-title"
      title={`Your new key “${created.name}”`}
      intro="Copy it now and keep it somewhere safe: it will not be shown again."
      secret={created.key}
      noun="key"
      testId="new-api-key"
      classNames={{ panel: 'api-key-new', secret: 'api-key-secret' }}
      onDone={onDone}
    />
  );
}
