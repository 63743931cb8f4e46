import { Alert, Card, Flex, Heading, Loader, Text } from '@aws-amplify/ui-react';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PRODUCT_NAME } from '@argentum/contracts';
import styles from './LoginPage.module.css';
import { linkProblem } from './linkProblem';

/** The signed-out pages' frame: the document title and a card in the middle of the page. */
export function AuthPage({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className={styles.page}>
      <title>{`${title} · ${PRODUCT_NAME}`}</title>
      <Card variation="elevated" className={styles.card}>
        {children}
      </Card>
    </main>
  );
}

/** The product's name over what the page is for. */
export function AuthHeading({ subtitle, id }: { subtitle: string; id?: string }) {
  return (
    <div>
      <Heading level={1} className={styles.product}>
        {PRODUCT_NAME}
      </Heading>
      <Text id={id} as="p" className={styles.subtitle}>
        {subtitle}
      </Text>
    </div>
  );
}

/**
 * A page opened from a mailed link (invitation, password reset): the token is checked first; its form
 * shows once it is good, otherwise why not and the way back to sign in.
 */
export function LinkedPage<T>({
  title,
  lookup,
  checkingLabel,
  expiredText,
  children,
}: {
  title: string;
  lookup: UseQueryResult<T>;
  checkingLabel: string;
  expiredText: string;
  children(data: T): ReactNode;
}) {
  return (
    <AuthPage title={title}>
      <Flex direction="column" gap="1rem">
        <AuthHeading subtitle={title} />
        {lookup.isPending && <Loader size="large" ariaLabel={checkingLabel} />}
        {lookup.isError && (
          <>
            <Alert variation="error" role="alert">
              {linkProblem(lookup.error, expiredText)}
            </Alert>
            <Link to="/login">Go to sign in</Link>
          </>
        )}
        {lookup.data !== undefined && children(lookup.data)}
      </Flex>
    </AuthPage>
  );
}
