import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { Spinner } from './spinner.js';

interface SidebarSectionProps {
  title: string;
  /** Where 'View All' leads. */
  viewAll: string;
  loading: boolean;
  /** Shown instead of the list when there is nothing in it. */
  empty: ReactNode | null;
  children: ReactNode;
}

/** A dashboard sidebar list: its heading and 'View All' link, then a spinner, the empty notice or the thumbnails. */
export function SidebarSection({ title, viewAll, loading, empty, children }: SidebarSectionProps) {
  return (
    <section>
      <div className="sidebar-head">
        <h2>{title}</h2>
        <Link to={viewAll}>View All</Link>
      </div>
      {loading ? <Spinner label={`Loading ${title.toLowerCase()}`} /> : (empty ?? <ul className="thumb-grid">{children}</ul>)}
    </section>
  );
}
