import { apiAnswers, type ApiAnswerOf, errorAnswer } from '@argentum/contracts/api-answers';
import { apiCallNameAt } from '@argentum/contracts/api-paths';

/**
 * Checks an answer of the API against the contract (contracts/src/api-answers.ts): a success against its
 * call's answer schema, an error against the error schema (`{ message }`). Throws, naming the call and
 * what differs, so every test that calls the API through `call` (support/api.ts) checks its answers.
 * Paths that are no call of the contract (unknown routes, the tests of them) are not checked.
 */
export function checkAnswer(method: string, path: string, status: number, body: unknown): void {
  const name = apiCallNameAt(method, path.split('?')[0] ?? path);
  if (!name) return;
  const call: ApiAnswerOf = apiAnswers[name];
  const success = status >= 200 && status < 300;
  if (success && status !== 200 && !(status === 201 && call.creates)) {
    throw new Error(`${method} ${path} answered ${status}, which its contract does not list`);
  }
  const schema = success ? call.response : errorAnswer;
  const checked = schema.safeParse(body);
  if (!checked.success) {
    const issues = checked.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(answer)'}: ${issue.message}`)
      .join('; ');
    throw new Error(`${method} ${path} answered ${status} outside its contract: ${issues}`);
  }
}
