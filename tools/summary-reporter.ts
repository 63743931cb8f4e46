import { relative } from 'node:path';
import type { UserConsoleLog } from 'vitest';
import type { Reporter, TestModule } from 'vitest/node';

/** How much of what a failed test wrote to stderr is repeated at the end of the run. */
export const FAILED_TEST_STDERR_CHARS = 3_000;

/**
 * Ends a run with one plain line, `Tests: N passed, N failed[, N skipped]`, that any CI can read.
 * Before it, what each failed test wrote to stderr (a browser test's capture of its open pages, a
 * handler's error) is repeated, so that the end of a long log, often all a CI shows, says why.
 */
export default class SummaryReporter implements Reporter {
  private readonly stderr = new Map<string, string[]>();

  onUserConsoleLog(log: UserConsoleLog) {
    if (log.type !== 'stderr' || log.taskId === undefined) return;
    const said = this.stderr.get(log.taskId) ?? [];
    said.push(log.content);
    this.stderr.set(log.taskId, said);
  }

  onTestRunEnd(testModules: ReadonlyArray<TestModule>) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    const lines: string[] = [];
    for (const module of testModules) {
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failed++;
        else skipped++;
        const said = this.stderr.get(test.id)?.join('').trim();
        if (state === 'failed' && said) {
          const shown =
            said.length > FAILED_TEST_STDERR_CHARS ? `…${said.slice(-FAILED_TEST_STDERR_CHARS)}` : said;
          lines.push(
            `\nFailed: ${relative(process.cwd(), module.moduleId)} > ${test.fullName}\nIt wrote to stderr:\n${shown}`,
          );
        }
      }
    }
    for (const line of lines) console.log(line);
    console.log(`\nTests: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ''}`);
  }
}
