import { loadavg } from 'node:os';
import { type BenchResult, isTransient } from './types';

/** One line of the bench's table: a figure, a skipped figure, or a bench that failed. */
export interface ReportRow {
  /** The bench file the figure comes from. */
  file: string;
  name: string;
  unit: string;
  value?: number;
  floor?: number;
  goal?: BenchResult['goal'];
  skipped?: string;
  /** The bench did not finish (after its retry): why. Its figures are missing, the run goes on. */
  failed?: string;
  /** The machine's 1-minute load average when the figure's bench finished (os.loadavg()[0]). */
  load: number;
}

/** A result of a bench as a row of the table. */
export const rowOf = (file: string, result: BenchResult, load: number): ReportRow => ({
  file,
  name: result.name,
  unit: result.unit,
  value: result.value,
  ...(result.floor !== undefined ? { floor: result.floor } : {}),
  ...(result.goal !== undefined ? { goal: result.goal } : {}),
  ...(result.skipped !== undefined ? { skipped: result.skipped } : {}),
  load,
});

/** What the goal bounds: value / floor when the figure has a floor, else the value itself. */
export function judge(row: ReportRow): {
  /** value / floor; for an absolute figure, value / its goal's bound (how much of the budget it uses). */
  ratio: number | undefined;
  basis: 'floor' | 'goal' | undefined;
  verdict: 'ok' | 'MISSED' | 'FAILED' | 'skipped' | 'reference';
} {
  if (row.failed !== undefined) return { ratio: undefined, basis: undefined, verdict: 'FAILED' };
  if (row.skipped !== undefined || row.value === undefined)
    return { ratio: undefined, basis: undefined, verdict: 'skipped' };
  const { max, min } = row.goal ?? {};
  if (row.floor !== undefined) {
    const ratio = row.value / row.floor;
    if (!row.goal) return { ratio, basis: 'floor', verdict: 'reference' };
    const held = (max === undefined || ratio <= max) && (min === undefined || ratio >= min);
    return { ratio, basis: 'floor', verdict: held ? 'ok' : 'MISSED' };
  }
  if (!row.goal) return { ratio: undefined, basis: undefined, verdict: 'reference' };
  const bound = max ?? min;
  const ratio = bound !== undefined && bound !== 0 ? row.value / bound : undefined;
  const held = (max === undefined || row.value <= max) && (min === undefined || row.value >= min);
  return { ratio, basis: ratio === undefined ? undefined : 'goal', verdict: held ? 'ok' : 'MISSED' };
}

const number = (value: number | undefined) => {
  if (value === undefined || Number.isNaN(value)) return '';
  const abs = Math.abs(value);
  return abs >= 100 || Number.isInteger(value) ? String(Math.round(value)) : value.toFixed(abs < 10 ? 2 : 1);
};

const goalText = (row: ReportRow) => {
  if (!row.goal) return 'none (reference)';
  const bounds = [
    row.goal.max !== undefined ? `<= ${row.goal.max}` : '',
    row.goal.min !== undefined ? `>= ${row.goal.min}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return `${bounds}${row.floor === undefined ? ` ${row.unit}` : 'x floor'}`;
};

/** The figures as a plain text table: every row names its floor, ratio, goal and the machine's load. */
export function formatTable(rows: readonly ReportRow[]): string {
  const header = ['benchmark', 'value', 'unit', 'floor', 'ratio', 'goal', 'result', 'load'];
  const lines = rows.map((row) => {
    const { ratio, basis, verdict } = judge(row);
    return [
      row.name,
      row.failed !== undefined ? 'failed' : row.skipped !== undefined ? 'skipped' : number(row.value),
      row.unit,
      row.floor !== undefined ? number(row.floor) : 'absolute',
      // A goal of 0 (nothing lost) has no ratio: the value is the figure.
      ratio === undefined
        ? row.goal && verdict !== 'FAILED'
          ? 'n/a (goal 0)'
          : ''
        : `${number(ratio)}x ${basis === 'floor' ? 'floor' : 'goal'}`,
      goalText(row),
      verdict,
      row.load.toFixed(2),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => (l[i] ?? '').length)));
  const numeric = new Set([1, 3, 4, 7]);
  const render = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (numeric.has(i) ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join(' | ')
      .trimEnd();
  const notes = rows.flatMap((row) =>
    row.failed !== undefined
      ? [`FAILED ${row.name}: ${row.failed}`]
      : row.skipped !== undefined
        ? [`skipped ${row.name}: ${row.skipped}`]
        : [],
  );
  return [
    render(header),
    widths.map((w) => '-'.repeat(w)).join('-|-'),
    ...lines.map(render),
    ...(notes.length > 0 ? ['', ...notes] : []),
  ].join('\n');
}

/** A bench runs at most this often when it fails on a transient network error. */
export const BENCH_ATTEMPTS = 2;

/** The machine's load averages over 1, 5 and 15 minutes. */
export const loadText = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** fetch says only "fetch failed": the socket's own error is its cause. */
const reasonOf = (error: unknown) =>
  error instanceof Error
    ? `${error.message}${error.cause instanceof Error ? ` (${error.cause.message})` : ''}`
    : String(error);

/**
 * Runs the benches one after the other. A bench that fails on a transient network error runs once
 * more; one that fails again, or otherwise, is a FAILED row, and the run goes on with the next bench.
 * Each figure is stamped with the machine's 1-minute load when its bench finished.
 */
export async function runBenches(
  benches: readonly { file: string; run: () => Promise<BenchResult[]> }[],
  say: (line: string) => void = console.log,
): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for (const { file, run } of benches) {
    for (let attempt = 1; ; attempt++) {
      say(`running ${file}${attempt > 1 ? ` (attempt ${attempt})` : ''}… load ${loadText()}`);
      try {
        const results = await run();
        const load = loadavg()[0] ?? 0;
        for (const result of results) {
          if (result.skipped) say(`  skipped ${result.name}: ${result.skipped}`);
          rows.push(rowOf(file, result, load));
        }
        break;
      } catch (error) {
        if (attempt < BENCH_ATTEMPTS && isTransient(error)) {
          say(`  ${file} failed: ${reasonOf(error)}; running it again`);
          continue;
        }
        say(`  ${file} FAILED: ${reasonOf(error)}`);
        rows.push({ file, name: file, unit: '', failed: reasonOf(error), load: loadavg()[0] ?? 0 });
        break;
      }
    }
  }
  return rows;
}
