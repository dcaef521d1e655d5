import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { formatNumber } from '../format';
import { OPERATIONS, type Operation, type UsageDay } from '../types';

/** One colour per operation, each ≥ 3:1 against white (graphics contrast). */
const COLORS: Record<Operation, string> = {
  scrape: '#1f5fbf',
  batch: '#b35c00',
  crawl: '#2e7d32',
  map: '#8e24aa',
  search: '#c62828',
  extract: '#00796b',
  monitor: '#5d4037',
};

const dayToSeconds = (date: string) => Date.parse(`${date}T00:00:00Z`) / 1000;

/**
 * Stacked bars per operation. uPlot has no stacking, so series k is drawn at the running sum of
 * operations 0..k, tallest first, each bar covering the lower part of the one before; the legend
 * still shows each operation's own value.
 */
function buildOptions(days: UsageDay[], width: number): { opts: uPlot.Options; data: uPlot.AlignedData } {
  const xs = days.map((d) => dayToSeconds(d.date));
  const running = days.map(() => 0);
  const stacked = OPERATIONS.map((op) => days.map((d, i) => (running[i] = (running[i] ?? 0) + d[op])));
  const order = [...OPERATIONS.keys()].reverse();
  const bars = uPlot.paths.bars?.({ size: [0.8, 40], align: 0 });
  const series: uPlot.Series[] = [
    { label: 'Day', value: (_u, v) => (v == null ? '—' : new Date(v * 1000).toISOString().slice(0, 10)) },
    ...order.map((k): uPlot.Series => {
      const op = OPERATIONS[k] as Operation;
      return {
        label: op,
        stroke: COLORS[op],
        fill: COLORS[op],
        width: 0,
        paths: bars,
        points: { show: false },
        value: (_u, _v, _s, idx) => {
          const day = idx == null ? undefined : days[idx];
          return day ? formatNumber(day[op]) : '—';
        },
      };
    }),
  ];
  const opts: uPlot.Options = {
    width,
    height: 240,
    series,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
    // Half a day of room on each side so the first and last bars are not cut in half.
    scales: {
      x: { time: true, range: (_u, min, max) => [min - 43_200, max + 43_200] },
      y: { range: (_u, _min, max) => [0, Math.max(1, max)] },
    },
    axes: [{}, { values: (_u, ticks) => ticks.map((t) => formatNumber(t)) }],
    cursor: { drag: { x: false, y: false } },
  };
  const data: uPlot.AlignedData = [xs, ...order.map((k) => stacked[k] ?? [])];
  return { opts, data };
}

export function UsageChart({ days }: { days: UsageDay[] }) {
  const hostRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const host = hostRef.current;
    if (!host) return;
    const width = () => Math.max(280, host.clientWidth);
    const { opts, data } = buildOptions(days, width());
    const plot = new uPlot(opts, data, host);
    const observer = new ResizeObserver(() => plot.setSize({ width: width(), height: 240 }));
    observer.observe(host);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [days]);

  return (
    <figure data-testid="usage-chart" class="chart">
      <figcaption>Credits used per day and operation (UTC), last {days.length} days</figcaption>
      {/* The canvas is not readable by assistive technology; the table below holds the same numbers. */}
      <div ref={hostRef} aria-hidden="true" class="chart-host" />
    </figure>
  );
}
