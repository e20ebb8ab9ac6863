import { pageWindow } from '../../lib/pagination.js';

export function Pagination({ page, pages, onPage }: { page: number; pages: number; onPage: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" className="button button-ghost" onClick={() => onPage(page - 1)} disabled={page <= 1}>
        Previous
      </button>
      <ul>
        {pageWindow(page, pages).map((item) =>
          typeof item === 'number' ? (
            <li key={item}>
              <button
                type="button"
                className={item === page ? 'page-number current' : 'page-number'}
                aria-current={item === page ? 'page' : undefined}
                aria-label={`Page ${item}`}
                onClick={() => onPage(item)}
              >
                {item}
              </button>
            </li>
          ) : (
            <li key={item} className="ellipsis" aria-hidden="true">
              …
            </li>
          ),
        )}
      </ul>
      <button type="button" className="button button-ghost" onClick={() => onPage(page + 1)} disabled={page >= pages}>
        Next
      </button>
    </nav>
  );
}
