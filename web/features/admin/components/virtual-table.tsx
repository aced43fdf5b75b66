import { phoneQuery, useMediaQuery } from '../use-media-query';
import { type KeyboardEvent, memo, type MouseEvent, type ReactNode, type UIEvent, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';

export interface Column<Row> {
  key: string;
  header: string;
  /** Least CSS width of the column; columns share any extra width. Every row has the same height. */
  width: string;
  cell: (row: Row) => ReactNode;
  /** Cells that hold a control (select, input, button) rather than text to truncate. */
  control?: boolean;
}

interface VirtualTableProps<Row> {
  label: string;
  rows: Row[];
  rowKey: (row: Row) => string | number;
  /** Keep this array stable (module constant or memo): rows re-render only when it or their row changes. */
  columns: Column<Row>[];
  rowHeight?: number;
  hasMore: boolean;
  loading: boolean;
  loadingMore: boolean;
  onEndReached: () => void;
  emptyText: string;
  /** Makes each row open something: focusable, opened by a click or by Enter or Space. Keep it stable. */
  onRowOpen?: (row: Row) => void;
  /**
   * Each row as a card of labelled cells, two to a line, that fits a narrow width (no sideways
   * scrolling). By default on phones only.
   */
  stacked?: boolean;
}

/** Rows drawn beyond the visible ones on each side, so a quick flick does not show blank space. */
const overscanRows = 6;
/** Load the next page while this many loaded rows are still ahead of the viewport. */
const prefetchRows = 40;
/** Before the first layout (and in jsdom) the viewport is assumed this tall. */
const fallbackViewportPx = 600;
const headerHeightPx = 40;
const emptyStatePx = 120;
const loadingMorePx = 44;
/** A stacked row: each line of two cells (a caption over its value), plus the card's padding. */
const stackedLinePx = 48;
const stackedPaddingPx = 16;

function columnStyle(width: string) {
  return { flex: `1 0 ${width}`, width };
}

interface RowProps<Row> {
  row: Row;
  index: number;
  columns: Column<Row>[];
  rowHeight: number;
  rowKey: string | number;
  onOpen?: (row: Row) => void;
  stacked: boolean;
}

/** A click that lands on a control in the row (the status select, the note) works that control. */
function isOnControl(event: MouseEvent<HTMLElement>): boolean {
  return event.target instanceof Element && event.target.closest('a, button, input, select, textarea, label') !== null;
}

function VirtualRowView<Row>({ row, index, columns, rowHeight, rowKey, onOpen, stacked }: RowProps<Row>) {
  const open = onOpen
    ? {
        tabIndex: 0,
        onClick: (event: MouseEvent<HTMLElement>) => {
          // Selecting a row's text to copy it is not a request to open it.
          if (isOnControl(event) || window.getSelection()?.toString()) return;
          onOpen(row);
        },
        onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
          // Keys typed in the row's controls stay theirs.
          if (event.target !== event.currentTarget || (event.key !== 'Enter' && event.key !== ' ')) return;
          event.preventDefault();
          onOpen(row);
        },
      }
    : {};
  return (
    <tr
      role="row"
      aria-rowindex={index + 2}
      data-row-index={index}
      data-row-key={rowKey}
      className={`absolute left-0 w-full border-b border-slate-100 hover:bg-slate-50 ${
        stacked ? 'grid grid-cols-2 content-start gap-x-3 px-1 py-2' : 'flex items-center'
      } ${
        // Inside the scroller an outline outside the row would be cut off.
        onOpen ? 'cursor-pointer focus-visible:outline-offset-[-3px]' : ''
      }`}
      style={{ height: rowHeight, transform: `translateY(${index * rowHeight}px)` }}
      {...open}
    >
      {columns.map((column) =>
        stacked ? (
          <td key={column.key} role="cell" className="flex h-12 min-w-0 flex-col justify-center px-2">
            {/* The cell first, as in a table row, so a control in it stays the same element when the layout changes. */}
            <div className={column.control ? 'w-full' : 'min-w-0 truncate text-slate-700'}>{column.cell(row)}</div>
            {/* Above it, the header, which a screen reader already announces from the column. */}
            <span aria-hidden="true" className="order-first truncate text-[11px] font-semibold tracking-wide text-slate-500 uppercase">
              {column.header}
            </span>
          </td>
        ) : (
          <td key={column.key} role="cell" className={`flex min-w-0 items-center ${column.control ? 'px-2' : 'px-3'}`} style={columnStyle(column.width)}>
            <div className={column.control ? 'w-full' : 'min-w-0 truncate text-slate-700'}>{column.cell(row)}</div>
          </td>
        ),
      )}
    </tr>
  );
}

// A row that scrolls into view renders once; rows already on screen are left alone while scrolling.
const VirtualRow = memo(VirtualRowView) as typeof VirtualRowView;

/**
 * A table that renders only the rows in view (plus a margin), so 50,000 loaded rows scroll as
 * smoothly as 50. Rows are absolutely positioned in a body as tall as all of them, so scrolling
 * re-lays out only the rows that enter the view. Nearing the end asks for the next page
 * (keyset paging on the server). Table semantics are kept with explicit ARIA roles.
 *
 * Our own windowing rather than @tanstack/react-virtual: with one fixed row height it is a few
 * lines of arithmetic, and a dependency is added only when it is truly the standard tool.
 */
export function VirtualTable<Row>({
  label,
  rows,
  rowKey,
  columns,
  rowHeight: tableRowHeight = 52,
  hasMore,
  loading,
  loadingMore,
  onEndReached,
  emptyText,
  onRowOpen,
  stacked: stackedAsked,
}: VirtualTableProps<Row>) {
  const phone = useMediaQuery(phoneQuery);
  const stacked = stackedAsked ?? phone;
  const rowHeight = stacked ? Math.ceil(columns.length / 2) * stackedLinePx + stackedPaddingPx : tableRowHeight;
  // Stacked, the header row is there for screen readers only.
  const headerHeight = stacked ? 0 : headerHeightPx;
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

  const bodyTop = Math.max(0, scrollTop - headerHeight);
  const first = Math.max(0, Math.floor(bodyTop / rowHeight) - overscanRows);
  const last = Math.min(rows.length, Math.ceil((bodyTop + viewportHeight) / rowHeight) + overscanRows);

  useEffect(() => {
    if (hasMore && !loading && !loadingMore && rows.length > 0 && last >= rows.length - prefetchRows) onEndReached();
  }, [hasMore, loading, loadingMore, rows.length, last, onEndReached]);

  const visible: ReactNode[] = [];
  for (let index = first; index < last; index++) {
    const row = rows[index]!;
    const key = rowKey(row);
    visible.push(<VirtualRow<Row> key={key} rowKey={key} row={row} index={index} columns={columns} rowHeight={rowHeight} onOpen={onRowOpen} stacked={stacked} />);
  }
  const minWidth = `calc(${columns.map((column) => column.width).join(' + ')})`;

  return (
    <div
      ref={scrollerRef}
      onScroll={onScroll}
      // As tall as the rows, up to most of the screen: a short list leaves no empty box.
      style={{ height: headerHeight + (rows.length === 0 ? emptyStatePx : rows.length * rowHeight + (loadingMore ? loadingMorePx : 0)) + 2 }}
      className="relative max-h-[min(65vh,42rem)] overflow-auto overscroll-contain rounded-lg border border-slate-200 bg-white"
      data-testid="virtual-table-scroller"
    >
      <table role="table" aria-label={label} aria-rowcount={rows.length + 1} className="grid text-sm" style={stacked ? undefined : { minWidth }}>
        <thead role="rowgroup" className={stacked ? 'sr-only' : 'sticky top-0 z-10 grid bg-slate-50 shadow-[inset_0_-1px_0_rgb(226_232_240)]'}>
          <tr role="row" aria-rowindex={1} className="flex w-full" style={{ height: headerHeightPx }}>
            {columns.map((column) => (
              <th
                key={column.key}
                role="columnheader"
                scope="col"
                className="flex items-center px-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase"
                style={columnStyle(column.width)}
              >
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role="rowgroup" className="relative grid" style={{ height: rows.length * rowHeight }}>
          {visible}
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
