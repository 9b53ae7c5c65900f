import {
  CandlestickSeries,
  createChart,
  HistogramSeries,
  type IChartApi,
  type ISeriesApi,
  type UTCTimestamp,
} from 'lightweight-charts';
import { useEffect, useRef } from 'preact/hooks';
import type { Candle } from './market-types';

const UP = '#027a48';
const DOWN = '#b42318';

interface ChartParts {
  chart: IChartApi;
  candles: ISeriesApi<'Candlestick'>;
  volume: ISeriesApi<'Histogram'>;
}

const toTime = (iso: string) => (Date.parse(iso) / 1000) as UTCTimestamp;

function buildChart(container: HTMLElement): ChartParts {
  // autoSize follows the container (a ResizeObserver), so the chart fits a phone and a rotated screen.
  const chart = createChart(container, {
    autoSize: true,
    layout: {
      background: { color: '#ffffff' },
      textColor: '#17202a',
      fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
    },
    grid: { vertLines: { color: '#eef0f3' }, horzLines: { color: '#eef0f3' } },
    rightPriceScale: { borderColor: '#d5dae0', scaleMargins: { top: 0.05, bottom: 0.25 } },
    timeScale: { borderColor: '#d5dae0', timeVisible: true, secondsVisible: false },
  });
  const candles = chart.addSeries(CandlestickSeries, {
    upColor: UP,
    downColor: DOWN,
    borderUpColor: UP,
    borderDownColor: DOWN,
    wickUpColor: UP,
    wickDownColor: DOWN,
  });
  // Volume shares the time axis but has its own scale in the bottom fifth, under the candles.
  const volume = chart.addSeries(HistogramSeries, {
    priceFormat: { type: 'volume' },
    priceScaleId: 'volume',
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale('volume').applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  return { chart, candles, volume };
}

/** Candlesticks with volume, drawn by lightweight-charts; the table beside it is the text alternative. */
export function CandleChart({ candles, label }: { candles: Candle[]; label: string }) {
  const container = useRef<HTMLDivElement>(null);
  const parts = useRef<ChartParts | null>(null);

  useEffect(() => {
    if (!container.current) return undefined;
    parts.current = buildChart(container.current);
    return () => {
      parts.current?.chart.remove();
      parts.current = null;
    };
  }, []);

  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    p.candles.setData(
      candles.map((c) => ({ time: toTime(c.timestamp), open: c.open, high: c.high, low: c.low, close: c.close })),
    );
    p.volume.setData(
      candles.map((c) => ({
        time: toTime(c.timestamp),
        value: c.volume,
        color: c.close >= c.open ? 'rgba(2,122,72,0.35)' : 'rgba(180,35,24,0.35)',
      })),
    );
    p.chart.timeScale().fitContent();
  }, [candles]);

  return <div class="chart" ref={container} role="img" aria-label={label} data-testid="candle-chart" />;
}
