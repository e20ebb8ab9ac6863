import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

interface SidebarSectionProps {
  title: string;
  /** Where 'View All' leads. */
  viewAll: string;
  /** Shown instead of the list when there is nothing in it. */
  empty: ReactNode | null;
  children: ReactNode;
}

/** A dashboard sidebar list: its heading and 'View All' link, then the empty notice or the thumbnails (the dashboard shows it once loaded). */
export function SidebarSection({ title, viewAll, empty, children }: SidebarSectionProps) {
  return (
    <section>
      <div className="sidebar-head">
        <h2>{title}</h2>
        <Link to={viewAll}>View All</Link>
      </div>
      {empty ?? <ul className="thumb-grid">{children}</ul>}
    </section>
  );
}
