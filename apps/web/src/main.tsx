import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router.js';
import './styles.css';

const root = document.getElementById('root');
if (!root) throw new Error('The page has no #root element');
// A transition lets React render the app in slices: on a phone's slow CPU the first render of a
// signed-in page is otherwise one long task that holds taps back (Lighthouse's blocking time).
// Until it commits, the page's own chrome (index.html) stays on screen.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <AppRouter />
    </StrictMode>,
  );
});
