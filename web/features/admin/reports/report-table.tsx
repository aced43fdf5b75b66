import { Download } from 'lucide-react';
import { type FigureTable, toCsv } from './report-figures';

/** Saves the table as a CSV file named after it and the range. */
export function downloadCsv(table: FigureTable, range: { from: string; to: string }): void {
  const url = URL.createObjectURL(new Blob([toCsv(table)], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `${table.name}-${range.from}-to-${range.to}.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has its own copy once it started.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

export function CsvButton({ table, range, label }: { table: FigureTable; range: { from: string; to: string }; label: string }) {
  return (
    <button
      type="button"
      onClick={() => downloadCsv(table, range)}
      aria-label={`Download ${label} as CSV`}
      className="inline-flex shrink-0 items-center gap-1.5 rounded-md border border-slate-300 px-2.5 py-1 text-sm font-medium text-slate-700 hover:bg-slate-50"
    >
      <Download className="size-4" aria-hidden="true" />
      CSV
    </button>
  );
}

/** The figures of a chart, as a table: the first column names the row, the others are numbers. */
export function ReportTable({ table, caption }: { table: FigureTable; caption: string }) {
  return (
    <div className="max-h-80 min-w-0 self-start overflow-auto rounded-md border border-slate-200">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="sticky top-0 bg-slate-50 text-left text-xs font-semibold tracking-wide text-slate-500 uppercase">
          <tr>
            {table.columns.map((column, index) => (
              <th key={column} scope="col" className={`px-3 py-2 ${index === 0 ? '' : 'text-right'}`}>
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {table.rows.map((row) => (
            <tr key={row.key}>
              {row.cells.map((cell, index) =>
                index === 0 ? (
                  <th key={index} scope="row" className="px-3 py-1.5 text-left font-medium whitespace-nowrap text-slate-900">
                    {cell.shown}
                  </th>
                ) : (
                  <td key={index} className="px-3 py-1.5 text-right whitespace-nowrap text-slate-700 tabular-nums">
                    {cell.shown}
                  </td>
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
