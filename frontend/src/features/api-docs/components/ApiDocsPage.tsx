import { Alert, Badge, Button, Loader, SearchField } from '@aws-amplify/ui-react';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../../../shared/session/sessionStore';
import { PRODUCT_NAME } from '@argentum/contracts';
import { apiDocsQueries } from '../api/apiDocsQueries';
import type { OpenApiDocument } from '../api/types';
import styles from './ApiDocsPage.module.css';
import { listOperations, propertyRows, type OperationEntry, type PropertyRow } from './openapi';

/** Reference of every API call, generated from the server's route table at build time (GET /openapi.json). */
export function ApiDocsPage() {
  const session = useSession();
  const documentQuery = useQuery(apiDocsQueries.document());

  return (
    <div className={styles.page}>
      <header className={styles.bar}>
        <Link to={session.status === 'signedIn' ? '/home' : '/login'} className={styles.brand}>
          {PRODUCT_NAME}
        </Link>
        <span className={styles.barTitle}>API documentation</span>
        <Link to={session.status === 'signedIn' ? '/home' : '/login'} className={styles.back}>
          {session.status === 'signedIn' ? 'Back to dashboard' : 'Sign in'}
        </Link>
      </header>
      <main className={styles.main}>
        {documentQuery.isPending ? (
          <div className={styles.center}>
            <Loader size="large" ariaLabel="Loading the API documentation" />
          </div>
        ) : documentQuery.isError ? (
          <Alert variation="error" heading="The API documentation could not be loaded.">
            <Button size="small" marginBlockStart="0.5rem" onClick={() => void documentQuery.refetch()}>
              Try again
            </Button>
          </Alert>
        ) : (
          <ApiReference document={documentQuery.data} />
        )}
      </main>
    </div>
  );
}

function ApiReference({ document }: { document: OpenApiDocument }) {
  const [filter, setFilter] = useState('');
  const deferredFilter = useDeferredValue(filter.trim().toLowerCase());
  const operations = useMemo(() => listOperations(document), [document]);

  const groups = useMemo(() => {
    const visible = operations.filter(
      (operation) =>
        deferredFilter === '' ||
        operation.path.toLowerCase().includes(deferredFilter) ||
        operation.summary.toLowerCase().includes(deferredFilter),
    );
    const byGroup = new Map<string, OperationEntry[]>();
    for (const operation of visible)
      byGroup.set(operation.group, [...(byGroup.get(operation.group) ?? []), operation]);
    return [...byGroup.entries()];
  }, [operations, deferredFilter]);

  const shown = groups.reduce((count, [, entries]) => count + entries.length, 0);

  return (
    <>
      <div className={styles.intro}>
        <h1 className={styles.title}>
          {document.info?.title ?? 'API documentation'}
          {document.info?.version && <Badge size="small">v{document.info.version}</Badge>}
        </h1>
        {document.info?.description && (
          <p className={styles.description}>
            <InlineText text={document.info.description} />
          </p>
        )}
        <p className={styles.description}>Roles: 0 Read-only, 1 Read/Write, 2 Admin, 3 Argentum.</p>
      </div>

      <div className={styles.toolbar}>
        <SearchField
          label="Filter operations"
          labelHidden
          placeholder="Filter by path or summary"
          size="small"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          onClear={() => setFilter('')}
        />
        <span className={styles.count} aria-live="polite">
          {shown === operations.length
            ? `${operations.length} operations`
            : `${shown} of ${operations.length} operations`}
        </span>
      </div>

      {groups.length === 0 && <p className={styles.description}>No operation matches this filter.</p>}

      {groups.map(([group, entries]) => (
        <section key={group} className={styles.group} aria-label={group}>
          {(groups.length > 1 || group !== 'Operations') && <h2 className={styles.groupTitle}>{group}</h2>}
          <ul className={styles.operations}>
            {entries.map((operation) => (
              <li key={operation.key}>
                <Operation operation={operation} document={document} />
              </li>
            ))}
          </ul>
        </section>
      ))}
    </>
  );
}

/**
 * A text of the OpenAPI document (CommonMark there): its `code spans` shown as code, not as backticks.
 * The document uses no other inline markup.
 */
function InlineText({ text }: { text: string }) {
  return text
    .split(/`([^`]+)`/)
    .map((part, index) => (index % 2 === 1 ? <code key={index}>{part}</code> : part));
}

function Operation({ operation, document }: { operation: OperationEntry; document: OpenApiDocument }) {
  const rows = operation.requestSchema ? propertyRows(operation.requestSchema, document) : [];
  const answerRows = operation.responseSchema ? propertyRows(operation.responseSchema, document) : [];
  return (
    <article className={styles.operation} aria-label={`${operation.method.toUpperCase()} ${operation.path}`}>
      <div className={styles.operationHead}>
        <span className={styles.method} data-method={operation.method}>
          {operation.method.toUpperCase()}
        </span>
        <code className={styles.path}>{operation.path}</code>
        <span className={styles.access} data-public={operation.isPublic || undefined}>
          {operation.access}
        </span>
      </div>
      {operation.summary && (
        <p className={styles.summary}>
          <InlineText text={operation.summary} />
        </p>
      )}
      {operation.requestSchema &&
        (rows.length === 0 ? (
          <p className={styles.noBody}>Request body: empty JSON object {'{}'}</p>
        ) : (
          <SchemaTable title="Request body" rows={rows} />
        ))}
      {answerRows.length > 0 && <SchemaTable title="Answer (200)" rows={answerRows} />}
    </article>
  );
}

function SchemaTable({ title, rows }: { title: string; rows: PropertyRow[] }) {
  return (
    <details className={styles.schema}>
      <summary>
        {title}{' '}
        <span className={styles.fieldCount}>
          ({rows.length} {rows.length === 1 ? 'field' : 'fields'})
        </span>
      </summary>
      <div className={styles.tableWrap}>
        <table className={styles.table}>
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Type</th>
              <th scope="col">Required</th>
              <th scope="col">Notes</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row.name}>
                <td>
                  <code style={{ paddingInlineStart: `${row.depth}rem` }}>{row.name}</code>
                </td>
                <td>
                  <code>{row.type}</code>
                </td>
                <td>{row.required ? 'yes' : 'no'}</td>
                <td>
                  <InlineText text={row.notes.join('; ')} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
