import { NotFoundNotice } from '../components/ui/not-found-notice.js';

export function NotFoundPage() {
  return (
    <NotFoundNotice
      title="Page not found"
      message="The page you are looking for does not exist or has moved."
      next={{ to: '/', label: 'Go home' }}
    />
  );
}
