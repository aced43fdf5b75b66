import { type ReactNode, type UIEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface Column<Row> {
  key: string;
  header: string;
  /** CSS width of the column; the table lays out fixed so every row has the same height. */
  width: string;
  cell(row: Row): ReactNode;
  /** Cells that hold a control (select, input) keep their content from being clipped. */
  className?: string;
}

interface VirtualTableProps<Row> {
  label: string;
  rows: Row[];
  rowKey(row: Row): string | number;
  columns: Column<Row>[];
  rowHeight?: number;
  hasMore: boolean;
  loading: boolean;
  loadingMore: boolean;
  onEndReached(): void;
  emptyText: string;
}

/** Rows drawn beyond the visible ones on each side, so a quick flick does not show blank space. */
const overscanRows = 8;
/** Load the next page while this many loaded rows are still ahead of the viewport. */
const prefetchRows = 40;
/** Before the first layout (and in jsdom) the viewport is assumed this tall. */
const fallbackViewportPx = 600;

/**
 * A table that renders only the rows in view (plus a margin), so 50,000 loaded rows scroll as
 * smoothly as 50. Rows have one fixed height; spacer rows above and below keep the scrollbar true.
 * Nearing the end asks for the next page (keyset paging on the server).
 */
export function VirtualTable<Row>({
  label,
  rows,
  rowKey,
  columns,
  rowHeight = 52,
  hasMore,
  loading,
  loadingMore,
  onEndReached,
  emptyText,
}: VirtualTableProps<Row>) {
  const scrollerRef = useRef<HTMLDivElement>(null);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewportHeight, setViewportHeight] = useState(fallbackViewportPx);
  const frame = useRef(0);

  useLayoutEffect(() => {
    const scroller = scrollerRef.current;
    if (!scroller) return;
    const measure = () => setViewportHeight(scroller.clientHeight || fallbackViewportPx);
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, []);

  const onScroll = useCallback((event: UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop;
    // One render per frame, however many scroll events the browser sends.
    cancelAnimationFrame(frame.current);
    frame.current = requestAnimationFrame(() => setScrollTop(top));
  }, []);
  useEffect(() => () => cancelAnimationFrame(frame.current), []);

  const first = Math.max(0, Math.floor(scrollTop / rowHeight) - overscanRows);
  const last = Math.min(rows.length, Math.ceil((scrollTop + viewportHeight) / rowHeight) + overscanRows);
  const visible = rows.slice(first, last);

  useEffect(() => {
    if (hasMore && !loading && !loadingMore && rows.length > 0 && last >= rows.length - prefetchRows) onEndReached();
  }, [hasMore, loading, loadingMore, rows.length, last, onEndReached]);

  return (
    <div
      ref={scrollerRef}
      onScroll={onScroll}
      className="relative h-[min(65vh,42rem)] min-h-80 overflow-auto rounded-lg border border-slate-200 bg-white"
      data-testid="virtual-table-scroller"
    >
      <table aria-label={label} aria-rowcount={rows.length + 1} className="w-full min-w-[56rem] table-fixed border-collapse text-sm">
        <colgroup>
          {columns.map((column) => (
            <col key={column.key} style={{ width: column.width }} />
          ))}
        </colgroup>
        <thead className="sticky top-0 z-10 bg-slate-50 shadow-[inset_0_-1px_0_rgb(226_232_240)]">
          <tr aria-rowindex={1}>
            {columns.map((column) => (
              <th key={column.key} scope="col" className="px-3 py-2.5 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {first > 0 ? (
            <tr aria-hidden="true" style={{ height: first * rowHeight }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
          {visible.map((row, offset) => (
            <tr
              key={rowKey(row)}
              aria-rowindex={first + offset + 2}
              data-row-index={first + offset}
              style={{ height: rowHeight }}
              className="border-b border-slate-100 hover:bg-slate-50"
            >
              {columns.map((column) => (
                <td key={column.key} className={column.className ?? 'truncate px-3 text-slate-700'}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
          {last < rows.length ? (
            <tr aria-hidden="true" style={{ height: (rows.length - last) * rowHeight }}>
              <td colSpan={columns.length} />
            </tr>
          ) : null}
        </tbody>
      </table>
      {rows.length === 0 ? (
        <p className="px-4 py-10 text-center text-sm text-slate-500" data-empty-table={loading ? undefined : ''}>
          {loading ? 'Loading...' : emptyText}
        </p>
      ) : null}
      {loadingMore ? <p className="px-4 py-3 text-center text-sm text-slate-500">Loading more...</p> : null}
    </div>
  );
}
