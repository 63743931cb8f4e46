import { describe, expect, it } from 'vitest';
import { stopInTurn } from '../../local/shutdown';

describe('stopping the local stack', () => {
  it('stops every part in turn, past one that fails and one that never stops, naming them', async () => {
    const stopped: string[] = [];
    const reports: string[] = [];
    await stopInTurn(
      [
        async () => void stopped.push('first'),
        () => new Promise<void>(() => undefined),
        () => Promise.reject(new Error('port busy')),
        async () => void stopped.push('last'),
      ],
      50,
      (message, error) => reports.push(error instanceof Error ? `${message}: ${error.message}` : message),
    );
    expect(stopped).toEqual(['first', 'last']);
    expect(reports).toEqual([
      expect.stringMatching(/^local stack: \(\) => new Promise\(.*\) did not stop within 0\.05 s$/) as string,
      'local stack: a part failed to stop: port busy',
    ]);
  });
});
