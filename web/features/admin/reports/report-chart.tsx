import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  type ChartConfiguration,
  DoughnutController,
  Legend,
  LinearScale,
  Title,
  Tooltip,
} from 'chart.js';
import { useEffect, useRef } from 'react';

// Only the parts the reports draw: this module, and Chart.js with it, load on /admin/reports alone.
Chart.register(BarController, BarElement, CategoryScale, LinearScale, DoughnutController, ArcElement, Legend, Title, Tooltip);
Chart.defaults.font.family = 'ui-sans-serif, system-ui, sans-serif';
Chart.defaults.color = '#475569';

/** The brand's indigo and the colours beside it, one per series. */
export const seriesColors = ['#333399', '#7c83db', '#0d9488', '#f59e0b'] as const;
export const goodColor = '#16a34a';
export const badColor = '#dc2626';

/**
 * A Chart.js chart on a canvas, drawn again when its configuration changes. The canvas is an image
 * to assistive technology, named by `label`: the table beside it carries the figures.
 */
export function ReportChart({ config, label }: { config: ChartConfiguration; label: string }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = canvasRef.current;
    // No 2D context (a browser without canvas, a test's DOM): the table beside it says it all.
    if (!canvas?.getContext('2d')) return;
    const chart = new Chart(canvas, { ...config, options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options } });
    return () => chart.destroy();
  }, [config]);
  return (
    <div className="relative h-64 min-w-0">
      <canvas ref={canvasRef} role="img" aria-label={label} data-testid="report-chart" />
    </div>
  );
}
