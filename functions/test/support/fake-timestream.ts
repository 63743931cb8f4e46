import { QueryCommand, type QueryCommandOutput } from '@aws-sdk/client-timestream-query';
import {
  RejectedRecordsException,
  WriteRecordsCommand,
  type WriteRecordsCommandOutput,
} from '@aws-sdk/client-timestream-write';
import type { TimestreamClients } from '../../src/adapters/timestream-telemetry';
import fixtures from './fixtures/timestream.json' with { type: 'json' };

/** Rows per Query page (Timestream pages long answers with NextToken). */
const PAGE_ROWS = 7;
const metadata = { httpStatusCode: 200, requestId: 'fake', attempts: 1, totalRetryDelay: 0 };

const timestampText = (ms: number) => `${new Date(ms).toISOString().replace('T', ' ').slice(0, 23)}000000`;
const decimal = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n));

interface StoredRecord {
  devId: string;
  time: number;
  measure: string;
  value: number;
}

/**
 * Timestream for LiveAnalytics, faked at the SDK client level for the adapter's contract test: it keeps
 * the written records with the service's rules (at most 100 records a request; an identical record is
 * ignored; a record with the same dimensions, time and measure but another value is rejected, naming
 * its ExistingVersion) and answers the adapter's two query statements (raw readings; bin() aggregates)
 * in the documented response shapes (fixtures/timestream.json), paged with NextToken.
 */
export function fakeTimestream(): TimestreamClients & { requests: { write: number; query: number } } {
  const records = new Map<string, StoredRecord>();
  const pages = new Map<string, QueryCommandOutput['Rows']>();
  const requests = { write: 0, query: 0 };

  const answer = (kind: 'queryRaw' | 'queryBins', rows: string[][]): QueryCommandOutput => {
    const all = rows.map((row) => ({ Data: row.map((ScalarValue) => ({ ScalarValue })) }));
    const token = `page-${requests.query}`;
    pages.set(token, all.slice(PAGE_ROWS));
    return {
      ...fixtures[kind],
      Rows: all.slice(0, PAGE_ROWS),
      ...(all.length > PAGE_ROWS ? { NextToken: token } : {}),
      $metadata: metadata,
    } as QueryCommandOutput;
  };

  return {
    requests,
    write: {
      async send(command) {
        if (!(command instanceof WriteRecordsCommand)) throw new Error('not faked');
        requests.write++;
        const input = command.input;
        if ((input.Records ?? []).length > 100) throw new Error('ValidationException: at most 100 records');
        const rejected: { RecordIndex: number; Reason: string; ExistingVersion: number }[] = [];
        (input.Records ?? []).forEach((record, index) => {
          const devId = record.Dimensions?.find((d) => d.Name === 'devId')?.Value ?? '';
          const time = Number(record.Time);
          if (record.TimeUnit !== 'MILLISECONDS' || record.MeasureValueType !== 'DOUBLE')
            throw new Error('ValidationException: unexpected record shape');
          const key = `${devId}|${time}|${record.MeasureName}`;
          const value = Number(record.MeasureValue);
          const existing = records.get(key);
          if (existing && existing.value !== value) {
            rejected.push({
              RecordIndex: index,
              Reason: fixtures.rejectedRecords.RejectedRecords[1]?.Reason ?? 'exists',
              ExistingVersion: 1,
            });
            return;
          }
          records.set(key, { devId, time, measure: record.MeasureName ?? '', value });
        });
        if (rejected.length > 0)
          throw new RejectedRecordsException({
            message: fixtures.rejectedRecords.Message,
            $metadata: metadata,
            RejectedRecords: rejected,
          });
        const total = (input.Records ?? []).length;
        return {
          RecordsIngested: { ...fixtures.writeRecords.RecordsIngested, Total: total, MemoryStore: total },
          $metadata: metadata,
        } satisfies WriteRecordsCommandOutput;
      },
    },
    query: {
      async send(command) {
        if (!(command instanceof QueryCommand)) throw new Error('not faked');
        requests.query++;
        const { QueryString: sql = '', NextToken } = command.input;
        if (NextToken) {
          const rest = pages.get(NextToken) ?? [];
          const token = `${NextToken}+`;
          pages.set(token, rest.slice(PAGE_ROWS));
          return {
            ...fixtures.queryRaw,
            Rows: rest.slice(0, PAGE_ROWS),
            ...(rest.length > PAGE_ROWS ? { NextToken: token } : {}),
            $metadata: metadata,
          } as QueryCommandOutput;
        }
        const where =
          /FROM "[^"]+"\."[^"]+" WHERE devId = '((?:[^']|'')*)' AND time BETWEEN from_milliseconds\((\d+)\) AND from_milliseconds\((\d+)\)/.exec(
            sql,
          );
        if (!where) throw new Error(`ValidationException: statement not faked: ${sql}`);
        const devId = (where[1] ?? '').replace(/''/g, "'");
        const from = Number(where[2]);
        const to = Number(where[3]);
        const selected = [...records.values()]
          .filter((r) => r.devId === devId && r.time >= from && r.time <= to)
          .sort((a, b) => a.time - b.time || a.measure.localeCompare(b.measure));
        if (sql.startsWith('SELECT time, measure_name, measure_value::double AS value'))
          return answer(
            'queryRaw',
            selected.map((r) => [timestampText(r.time), r.measure, decimal(r.value)]),
          );
        const bin = /^SELECT bin\(time, (1h|1d)\) AS t/.exec(sql);
        if (!bin) throw new Error(`ValidationException: statement not faked: ${sql}`);
        const size = bin[1] === '1h' ? 3_600_000 : 86_400_000;
        const groups = new Map<string, { t: number; measure: string; values: number[] }>();
        for (const r of selected) {
          const t = Math.floor(r.time / size) * size;
          const key = `${t}|${r.measure}`;
          const group = groups.get(key) ?? { t, measure: r.measure, values: [] };
          group.values.push(r.value);
          groups.set(key, group);
        }
        return answer(
          'queryBins',
          [...groups.values()]
            .sort((a, b) => a.t - b.t || a.measure.localeCompare(b.measure))
            .map((g) => [
              timestampText(g.t),
              g.measure,
              decimal(Math.min(...g.values)),
              decimal(Math.max(...g.values)),
              decimal(g.values.reduce((s, v) => s + v, 0)),
              String(g.values.length),
            ]),
        );
      },
    },
  };
}
