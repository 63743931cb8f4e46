import { commandValueProblem } from '@argentum/contracts';
import { validationError } from '../errors';
import type { CommandRequest } from './commands';
import type { ControlDevice } from './ports';

/**
 * Refuses (400) a command the device cannot take: a call its kind does not take, or a value outside
 * its kind's documented range and step (the contracts' `commandValueProblem`). Runs before anything
 * is recorded or published.
 */
export function checkCommandValue(device: ControlDevice, request: Omit<CommandRequest, 'devID'>): void {
  const problem = commandValueProblem(device, request);
  if (problem !== undefined) throw validationError(problem);
}
