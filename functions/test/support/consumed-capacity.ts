import { dynamo } from '../../src/aws/dynamo';

/** Capacity units DynamoDB reported, by table and by index (`table/index`), split into reads and writes. */
export interface Consumed {
  read: Map<string, number>;
  write: Map<string, number>;
  requests: Map<string, number>;
  reset(): void;
  total(kind: 'read' | 'write'): number;
}

interface CapacityReport {
  TableName?: string;
  CapacityUnits?: number;
  ReadCapacityUnits?: number;
  WriteCapacityUnits?: number;
  Table?: { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<
    string,
    { CapacityUnits?: number; ReadCapacityUnits?: number; WriteCapacityUnits?: number }
  >;
}

// The low-level commands the document client sends.
const READS = new Set([
  'GetItemCommand',
  'BatchGetItemCommand',
  'QueryCommand',
  'ScanCommand',
  'TransactGetItemsCommand',
]);

let installed: Consumed | undefined;

/**
 * Asks DynamoDB (Local, here) for the capacity each request of the handlers' client consumed, table
 * and indexes apart, and adds it up: what a month of the same requests is billed on demand.
 */
export function consumedCapacity(): Consumed {
  if (installed) return installed;
  const consumed: Consumed = {
    read: new Map(),
    write: new Map(),
    requests: new Map(),
    reset() {
      consumed.read.clear();
      consumed.write.clear();
      consumed.requests.clear();
    },
    total: (kind) => [...consumed[kind].values()].reduce((n, v) => n + v, 0),
  };
  const add = (map: Map<string, number>, key: string, units: number | undefined) => {
    if (units) map.set(key, (map.get(key) ?? 0) + units);
  };
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const command = context.commandName ?? 'unknown';
      (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'INDEXES';
      consumed.requests.set(command, (consumed.requests.get(command) ?? 0) + 1);
      const result = await next(args);
      const output = result.output as { ConsumedCapacity?: CapacityReport | CapacityReport[] };
      const reports = [output.ConsumedCapacity ?? []].flat();
      const kind = READS.has(command) ? consumed.read : consumed.write;
      for (const report of reports) {
        const table = report.TableName ?? '?';
        const own =
          report.Table?.CapacityUnits ?? report.Table?.ReadCapacityUnits ?? report.Table?.WriteCapacityUnits;
        add(kind, table, own ?? report.CapacityUnits);
        for (const [index, units] of Object.entries(report.GlobalSecondaryIndexes ?? {}))
          add(
            kind,
            `${table}/${index}`,
            units.CapacityUnits ?? units.ReadCapacityUnits ?? units.WriteCapacityUnits,
          );
      }
      return result;
    },
    { step: 'initialize', name: 'consumedCapacity' },
  );
  installed = consumed;
  return consumed;
}
